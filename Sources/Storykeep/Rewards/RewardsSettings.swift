public import StorykeepCore

extension TenantModule {
    /// `rewards` in a tenant file's `modules`.
    public static let rewards = TenantModule(rawValue: "rewards")
}

/// The rewards module's part of a tenant file: `rewards`.
public struct RewardsSettings: TenantSettings {
    public static let keys = CodingKeys.allCases.map(\.rawValue)

    /// `rewards` (default none): how stars are earned and what they unlock.
    public var rewards: Rewards

    public enum CodingKeys: String, CodingKey, CaseIterable { case rewards }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rewards = try c.decode(Rewards.self, forKey: .rewards, default: Rewards())
    }
}

extension TenantFile {
    /// `rewards` (``RewardsSettings``).
    public var rewards: Rewards {
        get { self[RewardsSettings.self].rewards }
        set { self[RewardsSettings.self].rewards = newValue }
    }
}

/// `rewards:` in a tenant file: how a young person earns stars, and what stars unlock.
public struct Rewards: Codable, Sendable, Equatable {
    /// `rules` (default none).
    public var rules: [RewardRule]
    /// `unlockables` (default none).
    public var unlockables: [Unlockable]

    public init(rules: [RewardRule] = [], unlockables: [Unlockable] = []) {
        self.rules = rules
        self.unlockables = unlockables
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case rules, unlockables }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        rules = try c.decodeEachIDOnce([RewardRule].self, forKey: .rules, id: \.id)
        unlockables = try c.decodeEachIDOnce([Unlockable].self, forKey: .unlockables, id: \.id)
    }
}

/// One entry of `rewards.rules`: `stars` for each `on` event (for `streak`, each run of `days`
/// consecutive days with a check-in).
public struct RewardRule: Codable, Sendable, Equatable {
    /// What earns stars.
    public enum Event: String, Codable, Sendable, CaseIterable, ClosedSetDecodable {
        case checkIn, entryCreated, entryShared, streak
    }

    /// `id` (required, unique): names the rule in the stars ledger, so renaming its text keeps history.
    public var id: String
    /// `on` (required).
    public var on: Event
    /// `stars` (required, 1–100).
    public var stars: Int
    /// `days` (required for `streak`, 2–365; not allowed otherwise).
    public var days: Int?
    /// `dailyLimit` (optional, at least 1): stars from this rule per day at most, against farming.
    public var dailyLimit: Int?

    enum CodingKeys: String, CodingKey, CaseIterable { case id, on, stars, days, dailyLimit }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        id = try c.decodeID(forKey: .id)
        on = try c.decode(Event.self, forKey: .on)
        stars = try c.decode(Int.self, forKey: .stars)
        try c.require((1...100).contains(stars), at: .stars, "a number of stars from 1 to 100")
        days = try c.decodeIfPresent(Int.self, forKey: .days)
        if on == .streak {
            try c.require(days.map { (2...365).contains($0) } == true, at: .days, "a streak length in days from 2 to 365")
        } else {
            try c.require(days == nil, at: .days, "no days except for a streak rule")
        }
        dailyLimit = try c.decodeIfPresent(Int.self, forKey: .dailyLimit)
        try c.require(dailyLimit.map { $0 >= 1 } ?? true, at: .dailyLimit, "a limit of at least 1")
    }
}

/// One entry of `rewards.unlockables`: something a young person unlocks once they hold `stars`.
public struct Unlockable: Codable, Sendable, Equatable {
    /// What kind of thing it is, which decides where the app shows it.
    public enum Kind: String, Codable, Sendable, CaseIterable, ClosedSetDecodable {
        case theme, avatar, moodIcons, sticker
    }

    /// `id` (required, unique).
    public var id: String
    /// `kind` (required).
    public var kind: Kind
    /// `name` (required).
    public var name: String
    /// `stars` (required, at least 0): stars needed to unlock it.
    public var stars: Int

    enum CodingKeys: String, CodingKey, CaseIterable { case id, kind, name, stars }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        id = try c.decodeID(forKey: .id)
        kind = try c.decode(Kind.self, forKey: .kind)
        name = try c.decode(String.self, forKey: .name)
        try c.require(!name.isBlank, at: .name, "a non-empty name")
        stars = try c.decode(Int.self, forKey: .stars)
        try c.require(stars >= 0, at: .stars, "a number of stars of at least 0")
    }
}

extension KeyedDecodingContainer {
    /// The `id` of a rule or an unlockable at `key`: lowercase letters, digits and single hyphens.
    fileprivate func decodeID(forKey key: Key) throws -> String {
        let id = try decode(String.self, forKey: key)
        try require(TenantFile.isValidSlug(id), at: key, "an id of lowercase letters, digits and single hyphens")
        return id
    }

    /// The list at `key` (default empty), in which each `id` stands once.
    fileprivate func decodeEachIDOnce<Element: Decodable>(
        _ type: [Element].Type, forKey key: Key, id: (Element) -> String
    ) throws -> [Element] {
        let list = try decode(type, forKey: key, default: [])
        try require(Set(list.map(id)).count == list.count, at: key, "each id once")
        return list
    }
}
