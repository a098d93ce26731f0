import Foundation
import GraphQL
import Postgres
public import StorykeepCore
import StorykeepCaseload
import StorykeepJournals
import StorykeepProfile

/// Rewards in the schema (Schema/rewards.graphql): stars earned by the tenant's rules, achievements,
/// and what stars unlock. Switched on by `rewards` in the tenant file.
///
/// Young people earn in the transaction of what they do, by handlers of the journal's
/// ``EntryCreated``, ``EntryUpdated`` (achievements for tags) and ``CheckedIn``, and of the core's
/// ``EntryShared`` (published by sharing), through ``Earning``; each handler notes what it paid in
/// the request's ``RequestNotes``, which `Entry.rewardsEarned` shows on the mutation's result. A
/// handler of the profile's ``ProfileChanging`` refuses a choice still locked. `me { rewards }`
/// reads the ledger; `unlock` spends it; adults see a young person's stars only as
/// `CaseloadYoungPerson.stars`, where the tenant shows them to the team.
public struct RewardsModule: StorykeepModule {
    public init() {}

    public var name: String { "rewards" }
    public var switchedBy: TenantModule? { .rewards }
    public var tenantSettings: [any TenantSettings.Type] { [TenantSection<Rewards>.self] }

    /// The balances of the young people an adult looks after, every one of a request in one
    /// statement (the policies answer only where the tenant shows stars to the team).
    static let teamStars = DataLoader<UUID, Int>.inTransaction("CaseloadYoungPerson.stars") { people, _, tx in
        let balances = try await RewardStore(tx).balances(of: people)
        return people.map { balances[$0] ?? 0 }
    }

    public func register(_ module: inout ModuleRegistry) {
        registerEarning(&module)
        registerReads(&module)
        module.mutation("unlock", access: .roles([.youngPerson])) { arguments, context in
            try await Self.unlock(arguments["id"]?.stringValue ?? "", context: context)
        }
        module.on(ProfileChanging.self) { event, context in
            try await ProfileChoices.check(event, context: context)
        }
    }

    private func registerEarning(_ module: inout ModuleRegistry) {
        module.on(EntryCreated.self) { event, context in
            guard let earning = Self.earning(for: event.authorID, context) else { return }
            Self.note(try await earning.entryCreated(event.entryID, kind: event.kind), for: event.entryID, context)
        }
        module.on(EntryUpdated.self) { event, context in
            guard let earning = Self.earning(for: event.authorID, context) else { return }
            Self.note(try await earning.tagsChanged(), for: event.entryID, context)
        }
        module.on(CheckedIn.self) { event, context in
            guard let earning = Self.earning(for: event.personID, context) else { return }
            Self.note(try await earning.checkedIn(day: event.day), for: event.entryID, context)
        }
        module.on(EntryShared.self) { event, context in
            guard let earning = Self.earning(for: event.authorID, context) else { return }
            Self.note(try await earning.entryShared(event.entryID), for: event.entryID, context)
        }
        module.field(
            "Entry.rewardsEarned",
            .sync { source, _, context, _ in
                guard let entry = source as? Entry, let context = context as? ResolverContext else { return RewardsEarned() }
                return context.notes.read(EarnedInRequest.self)?.byEntry[entry.id] ?? RewardsEarned()
            })
    }

    private func registerReads(_ module: inout ModuleRegistry) {
        module.field(
            "Person.rewards",
            .sync { source, _, context, _ in
                guard let viewer = (context as? ResolverContext)?.viewer, viewer.role == .youngPerson,
                    (source as? GraphQLValue)?["id"]?.stringValue == viewer.personID.lowercased
                else { return nil }
                return RewardsOfViewer()
            })
        module.field("Rewards.stars", Self.read { _, _, tx in try await RewardStore(tx).balance() })
        module.field(
            "Rewards.achievements",
            Self.read { _, context, tx in
                let earned = try await RewardStore(tx).achievements()
                let ids = Set(earned.map(\.id))
                return earned.map { $0 as any Sendable } + context.tenant.file.rewards.achievements.filter { !ids.contains($0.id) }
            })
        module.field(
            "Rewards.history",
            Self.read { arguments, context, tx in
                let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: StarChangePosition.self)
                return try await RewardStore(tx).history(first: arguments["first"]?.intValue ?? 20, after: after)
                    .connection(cursors: context.cursors, node: { $0 })
            })
        module.field(
            "Rewards.catalogue",
            Self.read { _, context, tx in
                let unlocked = try await RewardStore(tx).unlockedIDs()
                return context.tenant.file.rewards.unlockables.map {
                    CatalogueItem(unlockable: $0, unlocked: $0.isFree || unlocked.contains($0.id))
                }
            })
        module.field(
            "CaseloadYoungPerson.stars",
            .sync { source, _, context, info in
                guard let young = source as? CaseloadYoungPerson,
                    (context as? ResolverContext)?.tenant.file.rewards.visibleToTeam == true
                else { return nil }
                return Self.teamStars.load(young.youngPerson.id, info)
            })
    }

    /// A field of `Rewards` read in the request's transaction.
    private static func read(
        _ body: @escaping @Sendable (GraphQLObject, ResolverContext, PostgresTransaction) async throws -> any Sendable
    ) -> FieldResolver {
        .async { _, arguments, context, _ in
            guard let context = context as? ResolverContext else { return nil }
            let value: any Sendable = try await context.transaction { tx in try await body(arguments, context, tx) }
            return value
        }
    }

    /// The young person `personID` earning in `context`, by the tenant's rules, today in its time
    /// zone: nil when the one acting is not that young person (nobody else earns, and nothing is
    /// earned for anyone by someone else).
    static func earning(for personID: UUID, _ context: EventContext) -> Earning? {
        guard let viewer = context.viewer, viewer.personID == personID, viewer.role == .youngPerson else { return nil }
        return Earning(
            rewards: context.tenant.file.rewards, personID: personID, today: today(context.tenant, now: context.services.now()),
            tx: context.transaction)
    }

    /// Notes what `entryID` earned, for `Entry.rewardsEarned` on the mutation's result.
    private static func note(_ earned: RewardsEarned, for entryID: UUID, _ context: EventContext) {
        context.notes.update(EarnedInRequest()) { $0.add(earned, for: entryID) }
    }

    /// The day `now` falls on in `tenant`'s time zone.
    static func today(_ tenant: Tenant, now: Date) -> PostgresDate {
        PostgresDate(now, in: TimeZone(identifier: tenant.file.timeZone) ?? .gmt)
    }

    /// `unlock(id)`: the `UnlockResult`.
    private static func unlock(_ id: String, context: ResolverContext) async throws -> [String: any Sendable] {
        guard let unlockable = context.tenant.file.rewards.unlockable(id) else {
            throw GraphQLError.badUserInput(field: "id", "There is nothing called \(id) to unlock.")
        }
        let day = today(context.tenant, now: context.services.now())
        return try await context.transaction { tx in
            switch try await RewardStore(tx).unlock(unlockable, day: day) {
            case .notEnoughStars(let balance):
                throw GraphQLError.badUserInput(
                    field: "id", "\(unlockable.name) costs \(unlockable.stars) stars, and you have \(balance).",
                    ["stars": .int(balance), "price": .int(unlockable.stars)])
            case .unlocked(let balance):
                return Self.unlockResult(unlockable, spent: unlockable.stars, balance: balance)
            case .alreadyUnlocked(let balance):
                return Self.unlockResult(unlockable, spent: 0, balance: balance)
            }
        }
    }

    private static func unlockResult(_ unlockable: Unlockable, spent: Int, balance: Int) -> [String: any Sendable] {
        ["unlockable": CatalogueItem(unlockable: unlockable, unlocked: true), "starsSpent": spent, "stars": balance]
    }
}
