import Foundation
import GraphQL
import Postgres
import StorykeepCaseload
public import StorykeepCore
import StorykeepJournals
import StorykeepNotifications

extension TenantModule {
    /// `sharing` in a tenant file's `modules`.
    public static let sharing = TenantModule(rawValue: "sharing")
}

/// Sharing in the schema (Schema/sharing.graphql): a young person shares entries with adults of
/// their team and unshares them (``EntryShared``, ``EntryUnshared``); the adults read what was
/// shared with them, mark it seen and reply (``ShareSeen``, ``ShareReplied``). It adds
/// `Entry.sharedWith` to the journal's entries and `CaseloadYoungPerson.unreadShares` to the
/// caseload's young people, each through a loader (one statement for a whole list). Switched on
/// by `sharing` in the tenant file.
///
/// Each change tells the other side in its transaction: sharing notifies each new sharee
/// (``shareReceivedKind``), seeing and replying notify the author (``shareSeenKind``,
/// ``shareRepliedKind``), always with the entry as the subject and never its text.
public struct SharingModule: StorykeepModule {
    public init() {}

    public var name: String { "sharing" }
    public var switchedBy: TenantModule? { .sharing }

    /// The notification an adult gets when an entry is shared with them; its actor is the author.
    public static let shareReceivedKind = "shareReceived"
    /// The notification an author gets when an adult first sees an entry they shared.
    public static let shareSeenKind = "shareSeen"
    /// The notification an author gets when an adult replies to an entry they shared.
    public static let shareRepliedKind = "shareReplied"

    /// Whom each entry of a request is shared with, every entry of a round in one statement.
    static let sharesOfEntries = DataLoader<UUID, [EntryShare]>.inTransaction("Entry.sharedWith") { entryIDs, _, tx in
        let shares = try await ShareStore(tx).shares(ofEntries: entryIDs)
        return entryIDs.map { shares[$0] ?? [] }
    }

    /// How many shares of each young person of a request the adult has not seen, in one statement.
    static let unseenCounts = DataLoader<UUID, Int>.inTransaction("CaseloadYoungPerson.unreadShares") { youngPeople, _, tx in
        let counts = try await ShareStore(tx).unseenCounts(of: youngPeople)
        return youngPeople.map { counts[$0] ?? 0 }
    }

    public func register(_ module: inout ModuleRegistry) {
        module.entryListField("Entry.sharedWith", Self.sharesOfEntries)
        module.field(
            "CaseloadYoungPerson.unreadShares",
            .sync { source, _, _, info in
                guard let young = source as? CaseloadYoungPerson else { return 0 }
                return Self.unseenCounts.load(young.youngPerson.id, info)
            })
        registerAuthor(&module)
        registerSharee(&module)
        // Each event names the one person it is for (Migrations/0021_sharing_live_events.sql).
        let forViewer: @Sendable (LiveEvent, Viewer) -> Bool = { event, viewer in event.people.contains(viewer.personID) }
        module.subscription("shareChanged", access: .roles([.socialWorker, .carer]), concerns: forViewer) { event, context in
            try await context.transaction { tx in try await ShareStore(tx).share(id: event.id) }
        }
        module.subscription("entryShareChanged", access: .roles([.youngPerson]), concerns: forViewer) { event, context in
            try await context.transaction { tx in try await ShareStore(tx).shareOfMine(id: event.id) }
        }
    }

    private func registerAuthor(_ module: inout ModuleRegistry) {
        let youngPeople = FieldAccess.roles([.youngPerson])
        module.mutation("shareEntry", access: youngPeople) { arguments, context in
            let viewer = try context.requireViewer()
            let entryID = try arguments.id("entryId")
            let people = try arguments.ids("withPersonIds", field: "withPersonIds")
            return try await context.transaction { tx in
                let shared = try await ShareStore(tx).share(entryID: entryID, with: people, message: arguments["message"]?.stringValue)
                if !shared.shareeIDs.isEmpty {
                    try await context.publish(EntryShared(entryID: entryID, authorID: viewer.personID, shareeIDs: shared.shareeIDs), in: tx)
                    try await Notifications.notify(
                        shared.shareeIDs, kind: Self.shareReceivedKind, title: "\(shared.authorName) shared an entry with you",
                        subject: NotificationSubject(kind: "entry", id: entryID), in: tx)
                }
                return try await Self.entry(entryID, in: tx)
            }
        }
        module.mutation("unshareEntry", access: youngPeople) { arguments, context in
            let viewer = try context.requireViewer()
            let entryID = try arguments.id("entryId")
            let people: [UUID]? = arguments["personIds"]?.listValue == nil ? nil : try arguments.ids("personIds", field: "personIds")
            return try await context.transaction { tx in
                let unshared = try await ShareStore(tx).unshare(entryID: entryID, from: people)
                if !unshared.isEmpty {
                    try await context.publish(EntryUnshared(entryID: entryID, authorID: viewer.personID, shareeIDs: unshared), in: tx)
                }
                return try await Self.entry(entryID, in: tx)
            }
        }
    }

    private func registerSharee(_ module: inout ModuleRegistry) {
        let adults = FieldAccess.roles([.socialWorker, .carer])
        module.query("sharedWithMe", access: adults) { arguments, context in
            let youngPersonID = try Self.youngPersonID(arguments)
            let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: SharePosition.self)
            return try await context.transaction { tx -> Page<Share, SharePosition> in
                let page = try await ShareStore(tx).sharedWithMe(
                    youngPersonID: youngPersonID, first: arguments["first"]?.intValue ?? 20, after: after,
                    unseenOnly: arguments["unseenOnly"]?.boolValue ?? false)
                // The audit trail: each entry an adult read, which its author sees (`Entry.readBy`).
                try await context.audit(.shareRead, entries: page.items.map { (author: youngPersonID, entry: $0.item.entry.id) }, in: tx)
                return page
            }.connection(cursors: context.cursors, node: { $0 })
        }
        module.mutation("markShareSeen", access: adults) { arguments, context in
            let viewer = try context.requireViewer()
            let id = try arguments.id("shareId")
            return try await context.transaction { tx in
                let acted = try await ShareStore(tx).markSeen(id: id)
                try await Self.tellAuthor(acted, shareID: id, sharee: viewer.personID, replied: false, context: context, in: tx)
                return try await Self.share(id, in: tx)
            }
        }
        module.mutation("replyToShare", access: adults) { arguments, context in
            let viewer = try context.requireViewer()
            let id = try arguments.id("shareId")
            return try await context.transaction { tx in
                let acted = try await ShareStore(tx).reply(id: id, text: arguments["text"]?.stringValue ?? "")
                try await Self.tellAuthor(acted, shareID: id, sharee: viewer.personID, replied: true, context: context, in: tx)
                return try await Self.share(id, in: tx)
            }
        }
    }

    /// Publishes what the sharee did to the share `shareID` (seen, the first time; replied) and
    /// tells the author: that they replied, or else that they saw it.
    private static func tellAuthor(
        _ acted: ShareStore<PostgresTransaction>.Acted, shareID: UUID, sharee: UUID, replied: Bool, context: ResolverContext,
        in tx: PostgresTransaction
    ) async throws {
        if acted.newlySeen {
            try await context.publish(ShareSeen(shareID: shareID, entryID: acted.entryID, authorID: acted.authorID, shareeID: sharee), in: tx)
        }
        if replied {
            try await context.publish(ShareReplied(shareID: shareID, entryID: acted.entryID, authorID: acted.authorID, shareeID: sharee), in: tx)
        }
        guard replied || acted.newlySeen else { return }
        try await Notifications.notify(
            [acted.authorID], kind: replied ? shareRepliedKind : shareSeenKind,
            title: replied ? "\(acted.shareeName) replied to an entry you shared" : "\(acted.shareeName) has seen an entry you shared",
            subject: NotificationSubject(kind: "entry", id: acted.entryID), in: tx)
    }

    /// The person's live entry `id`, which a check of the same transaction found.
    private static func entry(_ id: UUID, in tx: PostgresTransaction) async throws -> Entry {
        guard let entry = try await JournalStore(tx).entry(id: id) else { throw GraphQLError.notFound() }
        return entry
    }

    /// The person's share `id`, which a statement of the same transaction found.
    private static func share(_ id: UUID, in tx: PostgresTransaction) async throws -> Share {
        guard let share = try await ShareStore(tx).share(id: id) else { throw GraphQLError.notFound() }
        return share
    }

    /// `youngPersonId` as an id: BAD_USER_INPUT when it is no UUID, as for one that names nobody
    /// the adult looks after.
    private static func youngPersonID(_ arguments: GraphQLObject) throws -> UUID {
        guard let id = arguments["youngPersonId"]?.stringValue.flatMap(UUID.init(uuidString:)) else {
            throw GraphQLError.badUserInput(field: "youngPersonId", "youngPersonId: you do not look after this young person now.")
        }
        return id
    }
}
