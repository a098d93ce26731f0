public import Foundation
public import Postgres
public import StorykeepCore
import GraphQL

/// One line of a young person's stars' history: earned (positive) or spent (negative).
public struct StarChange: Sendable, Hashable {
    /// What earned or spent them: the ledger's `cause`.
    public enum Cause: String, Sendable, CaseIterable {
        case entryCreated, checkIn, entryShared, streak, achievement, unlock

        /// Its name in the API: `ENTRY_CREATED`, ...
        public var graphQLName: String {
            switch self {
            case .entryCreated: "ENTRY_CREATED"
            case .checkIn: "CHECK_IN"
            case .entryShared: "ENTRY_SHARED"
            case .streak: "STREAK"
            case .achievement: "ACHIEVEMENT"
            case .unlock: "UNLOCK"
            }
        }
    }

    public var id: UUID
    public var stars: Int
    public var cause: Cause
    /// The rule, achievement or unlockable, by its id in the tenant file then.
    public var sourceID: String
    /// The entry that earned them (entryCreated, entryShared).
    public var entryID: UUID?
    /// The day they count for, in the tenant's time zone.
    public var day: PostgresDate
    public var createdAt: Date
}

/// A person's stars' history, newest first by (created_at, id): the list `history` pages through.
public enum StarHistoryList: MomentOrderedList {
    public static var name: String { "stars" }
}

/// A place in a person's stars' history, (created_at, id), both descending: what the cursors of
/// `history` hold.
public typealias StarChangePosition = MomentPosition<StarHistoryList>

/// How an unlock went, with the stars the person holds after it.
public enum UnlockOutcome: Sendable, Equatable {
    /// Bought now, for its price.
    case unlocked(balance: Int)
    /// The person had it already, or it is free: nothing was spent.
    case alreadyUnlocked(balance: Int)
    /// The person holds fewer stars than the price: nothing was spent.
    case notEnoughStars(balance: Int)
}

/// A young person's rewards, read and spent in the transaction it is given, as the person it
/// runs as (the policies of Migrations/0015_rewards.sql show a person their own rows; an adult,
/// the balances of the young people they look after where the tenant lets them). Each function is
/// one statement of ``RewardStatements`` (unlocking, two).
public struct RewardStore<Database: PostgresQueryable>: Sendable {
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// The person's stars: every earning less every spending.
    public func balance() async throws -> Int {
        try await database.query(RewardStatements.balance)[0].decode(Int.self, at: 0)
    }

    /// The stars of each of `people` whose ledger the reader may see, by person; the others are
    /// left out.
    public func balances(of people: [UUID]) async throws -> [UUID: Int] {
        var balances: [UUID: Int] = [:]
        for row in try await database.query(RewardStatements.balances, people) {
            balances[try row.decode(UUID.self, at: 0)] = try row.decode(Int.self, at: 1)
        }
        return balances
    }

    /// The achievements the person earned, oldest first, as they were when earned.
    public func achievements() async throws -> [EarnedAchievement] {
        try await database.query(RewardStatements.achievements).map { row in
            EarnedAchievement(
                id: try row.decode(String.self, at: 0), name: try row.decode(String.self, at: 1),
                description: try row.decode(String.self, at: 2), icon: try row.decode(String.self, at: 3),
                stars: try row.decode(Int.self, at: 4), earnedAt: try row.decode(Date.self, at: 5))
        }
    }

    /// A page of the person's history, newest first.
    public func history(first: Int, after: StarChangePosition?) async throws -> Page<StarChange, StarChangePosition> {
        try PageSize.check(first)
        let position = after ?? .pastNewest
        let rows = try await database.query(RewardStatements.historyPage, position.moment, position.id, first + 1)
        return Page(
            items: try rows.prefix(first).map { row in
                let change = StarChange(
                    id: try row.decode(UUID.self, at: 0), stars: try row.decode(Int.self, at: 1),
                    cause: try Self.cause(row.decode(String.self, at: 2)),
                    sourceID: try row.decode(String.self, at: 3), entryID: try row.decode(UUID?.self, at: 4),
                    day: try row.decode(PostgresDate.self, at: 5), createdAt: try row.decode(Date.self, at: 6))
                return (change, StarChangePosition(moment: try row.decode(PostgresTimestamp.self, at: 6), id: change.id))
            },
            hasNextPage: rows.count > first)
    }

    /// The ledger's `cause` (which its check constraint holds to the known ones).
    private static func cause(_ name: String) throws -> StarChange.Cause {
        guard let cause = StarChange.Cause(rawValue: name) else {
            throw PostgresError(kind: .decoding, message: "unknown star ledger cause \(name)")
        }
        return cause
    }

    /// The ids of the unlockables the person bought (free ones are nobody's purchase).
    public func unlockedIDs() async throws -> Set<String> {
        Set(try await database.query(RewardStatements.unlocked).map { try $0.decode(String.self, at: 0) })
    }

    /// Spends `unlockable`'s price on it, counted on `day`, unless the person has it already, it
    /// is free, or they hold too few stars; never twice, even two unlocks at once (they queue on
    /// the lock of the person's stars).
    public func unlock(_ unlockable: Unlockable, day: PostgresDate) async throws -> UnlockOutcome {
        guard !unlockable.isFree else { return .alreadyUnlocked(balance: try await balance()) }
        _ = try await database.query(RewardStatements.lockStars)
        let row = try await database.query(RewardStatements.unlock, unlockable.id, unlockable.stars, day)[0]
        let balance = try row.decode(Int.self, at: 0)
        if try row.decode(Bool.self, at: 1) { return .alreadyUnlocked(balance: balance) }
        if try row.decode(Bool.self, at: 2) { return .unlocked(balance: balance - unlockable.stars) }
        return .notEnoughStars(balance: balance)
    }
}
