// `import Storykeep` is the whole domain: the core, the tenancy machinery and every module, as the
// server, the command line and the tests use it. Modules never import this target: each sees only
// the core and the modules Package.swift says it uses.
@_exported import StorykeepAccounts
@_exported import StorykeepArchive
@_exported import StorykeepAudit
@_exported import StorykeepCaseload
@_exported import StorykeepCore
@_exported import StorykeepExport
@_exported import StorykeepFigures
@_exported import StorykeepJournals
@_exported import StorykeepMessaging
@_exported import StorykeepNotifications
@_exported import StorykeepPrivacy
@_exported import StorykeepProfile
@_exported import StorykeepPrompts
@_exported import StorykeepRewards
@_exported import StorykeepSharing
@_exported import StorykeepSocial
@_exported import StorykeepSafety
@_exported import StorykeepTags
@_exported import StorykeepTenancy
@_exported import StorykeepWebhooks
