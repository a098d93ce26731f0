public import Foundation
public import Postgres
import StorykeepCore
public import StorykeepJournals
import StorykeepNotifications

/// What one action earned a young person: the stars its rules and the achievements' bonuses paid,
/// and the achievements it earned (what the app's "you earned 2 stars and the First entry badge"
/// says, from `Entry.rewardsEarned`).
public struct RewardsEarned: Sendable, Equatable {
    public var stars: Int
    public var achievements: [EarnedAchievement]

    public init(stars: Int = 0, achievements: [EarnedAchievement] = []) {
        self.stars = stars
        self.achievements = achievements
    }

    /// This and `other`, as one.
    func adding(_ other: RewardsEarned) -> RewardsEarned {
        RewardsEarned(stars: stars + other.stars, achievements: achievements + other.achievements)
    }
}

/// An achievement a young person earned, as the tenant's file described it then.
public struct EarnedAchievement: Sendable, Equatable {
    public var id: String
    public var name: String
    public var description: String
    public var icon: String
    /// The bonus it paid (0 for none).
    public var stars: Int
    public var earnedAt: Date
}

/// Paying a young person for what they do, by their tenant's `rewards` (rules and achievements),
/// in the transaction of the action, as the young person (the policies of
/// Migrations/0015_rewards.sql let nobody else write their rows).
///
/// Each action is one statement of ``EarningStatements`` (no double pay, whatever runs at once);
/// an achievement whose condition the counts it returned meet costs one more statement, and its
/// notification one more. Payments are counted on `today`, the day in the tenant's time zone,
/// for daily limits.
public struct Earning: Sendable {
    /// The notification a young person gets for each achievement they earn (no subject: the app
    /// opens their rewards).
    public static let achievementEarnedKind = "achievementEarned"

    public let rewards: Rewards
    /// The young person the transaction runs as, who earns (and is notified).
    public let personID: UUID
    public let today: PostgresDate
    public let tx: PostgresTransaction

    public init(rewards: Rewards, personID: UUID, today: PostgresDate, tx: PostgresTransaction) {
        self.rewards = rewards
        self.personID = personID
        self.today = today
        self.tx = tx
    }

    /// A new entry of `kind`: its `entryCreated` rules, and achievements counting entries or tags.
    public func entryCreated(_ entryID: UUID, kind: EntryKind) async throws -> RewardsEarned {
        let rules = rewards.rules(on: .entryCreated)
        let row = try await tx.query(
            EarningStatements.entryCreated, today, entryID, kind.rawValue, rules.map(\.id), rules.map(\.stars), rules.map(\.dailyLimit),
            !tagAchievements.isEmpty)[0]
        let (entries, ofKind) = (try row.decode(Int.self, at: 1), try row.decode(Int.self, at: 2))
        let tags = try row.decode(Int?.self, at: 4) ?? 0
        let due = unearned(try row.decode([String].self, at: 3)).filter { achievement in
            let condition = achievement.condition
            switch condition.count {
            case .entries: return (condition.kind == nil ? entries : condition.kind == kind ? ofKind : 0) >= condition.atLeast
            case .distinctTags: return tags >= condition.atLeast
            case .checkIns, .streak, .shares: return false
            }
        }
        return try await award(due, paid: try row.decode(Int.self, at: 0))
    }

    /// An entry's tags may have changed: achievements counting distinct tags, if the tenant has
    /// any (then one statement, whose count of tags runs only while one is unearned; else none).
    public func tagsChanged() async throws -> RewardsEarned {
        try await award(tagAchievements, paid: 0, countingTags: true)
    }

    /// The tenant's achievements for a number of distinct tags.
    private var tagAchievements: [Achievement] {
        rewards.achievements.filter { $0.condition.count == .distinctTags }
    }

    /// A check-in for `day`: the first of the day pays its `checkIn` rules and the `streak` rules
    /// it completes, and may earn achievements counting check-ins or streaks; another the same day
    /// earns nothing.
    public func checkedIn(day: PostgresDate) async throws -> RewardsEarned {
        let rules = rewards.rules(on: .checkIn) + rewards.rules(on: .streak)
        let row = try await tx.query(
            EarningStatements.checkIn, day, rules.map(\.id), rules.map(\.stars), rules.map(\.dailyLimit), rules.map(\.days))[0]
        guard let streak = try row.decode(Int?.self, at: 1), let checkIns = try row.decode(Int?.self, at: 2) else {
            return RewardsEarned()
        }
        let due = unearned(try row.decode([String].self, at: 3)).filter { achievement in
            switch achievement.condition.count {
            case .checkIns: checkIns >= achievement.condition.atLeast
            case .streak: streak >= achievement.condition.atLeast
            case .entries, .shares, .distinctTags: false
            }
        }
        return try await award(due, paid: try row.decode(Int.self, at: 0))
    }

    /// The entry `entryID` shared: the first time, its `entryShared` rules and achievements
    /// counting shares; again, nothing.
    public func entryShared(_ entryID: UUID) async throws -> RewardsEarned {
        let rules = rewards.rules(on: .entryShared)
        let row = try await tx.query(
            EarningStatements.entryShared, today, entryID, rules.map(\.id), rules.map(\.stars), rules.map(\.dailyLimit))[0]
        guard let shares = try row.decode(Int?.self, at: 1) else { return RewardsEarned() }
        let due = unearned(try row.decode([String].self, at: 2)).filter {
            $0.condition.count == .shares && shares >= $0.condition.atLeast
        }
        return try await award(due, paid: try row.decode(Int.self, at: 0))
    }

    /// The tenant's achievements not among `earned`.
    private func unearned(_ earned: [String]) -> [Achievement] {
        let earned = Set(earned)
        return rewards.achievements.filter { !earned.contains($0.id) }
    }

    /// Awards `due` (those the person has not earned yet; with `countingTags`, those for distinct
    /// tags only if the person's tags reach them), pays their bonuses and notifies the person of
    /// each: what was earned, with the stars `paid` before.
    private func award(_ due: [Achievement], paid: Int, countingTags: Bool = false) async throws -> RewardsEarned {
        guard !due.isEmpty else { return RewardsEarned(stars: paid) }
        let rows = try await tx.query(
            EarningStatements.award, today, due.map(\.id), due.map(\.name), due.map(\.description), due.map(\.icon),
            due.map(\.bonus), due.map { countingTags && $0.condition.count == .distinctTags ? $0.condition.atLeast : nil })
        let byID = Dictionary(due.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var earned: [EarnedAchievement] = []
        for row in rows {
            guard let achievement = byID[try row.decode(String.self, at: 0)] else { continue }
            earned.append(
                EarnedAchievement(
                    id: achievement.id, name: achievement.name, description: achievement.description, icon: achievement.icon,
                    stars: try row.decode(Int.self, at: 1), earnedAt: try row.decode(Date.self, at: 2)))
        }
        let order = Dictionary(due.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        earned.sort { order[$0.id, default: 0] < order[$1.id, default: 0] }
        for achievement in earned {
            try await Notifications.notify(
                [personID], kind: Self.achievementEarnedKind, title: Self.title(achievement), in: tx)
        }
        return RewardsEarned(stars: paid + earned.reduce(0) { $0 + $1.stars }, achievements: earned)
    }

    /// The notification's title: "🏅 You earned First entry (+2 stars)".
    static func title(_ achievement: EarnedAchievement) -> String {
        let bonus = achievement.stars == 0 ? "" : " (+\(achievement.stars) \(achievement.stars == 1 ? "star" : "stars"))"
        return "\(achievement.icon) You earned \(achievement.name)\(bonus)"
    }
}
