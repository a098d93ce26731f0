import StorykeepCore

/// Rewards: stars and what they unlock. So far only the tenant file's `rewards` section, read and
/// checked for every tenant; the stars ledger, earning and the schema come with the rewards issue.
public struct RewardsModule: StorykeepModule {
    public init() {}

    public var name: String { "rewards" }
    public var switchedBy: TenantModule? { .rewards }
    public var sdl: [String] { [] }
    public var tenantSettings: [any TenantSettings.Type] { [RewardsSettings.self] }

    public func register(_ module: inout ModuleRegistry) {}
}
