public import StorykeepCore

extension TenantModule {
    /// `rewards` in a tenant file's `modules`.
    public static let rewards = TenantModule(rawValue: "rewards")
}

extension TenantFile {
    /// `rewards` (default none): how stars and achievements are earned and what stars unlock.
    public var rewards: Rewards {
        get { self[Rewards.self] }
        set { self[Rewards.self] = newValue }
    }
}

/// `rewards:` in a tenant file: how a young person earns stars and achievements, what stars
/// unlock, and whether their team sees their stars.
public struct Rewards: TenantFileValue {
    public static let tenantFileKey = "rewards"
    public static let defaultValue = Rewards()

    /// `rules` (default none).
    public var rules: [RewardRule]
    /// `unlockables` (default none).
    public var unlockables: [Unlockable]
    /// `achievements` (default none).
    public var achievements: [Achievement]
    /// `visibleToTeam` (default false): whether the adults looking after a young person (a current
    /// assignment) see their stars. Never their history or achievements.
    public var visibleToTeam: Bool

    public init(rules: [RewardRule] = [], unlockables: [Unlockable] = [], achievements: [Achievement] = [], visibleToTeam: Bool = false) {
        self.rules = rules
        self.unlockables = unlockables
        self.achievements = achievements
        self.visibleToTeam = visibleToTeam
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case rules, unlockables, achievements, visibleToTeam }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        rules = try c.decodeEachIDOnce([RewardRule].self, forKey: .rules, id: \.id)
        unlockables = try c.decodeEachIDOnce([Unlockable].self, forKey: .unlockables, id: \.id)
        achievements = try c.decodeEachIDOnce([Achievement].self, forKey: .achievements, id: \.id)
        visibleToTeam = try c.decode(Bool.self, forKey: .visibleToTeam, default: false)
    }

    /// The rules paying on `event`, in the file's order.
    public func rules(on event: RewardRule.Event) -> [RewardRule] {
        rules.filter { $0.on == event }
    }

    /// The unlockable `id`, if the file has one.
    public func unlockable(_ id: String) -> Unlockable? {
        unlockables.first { $0.id == id }
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
    /// `dailyLimit` (optional, at least 1): how many times a day (in the tenant's time zone) the
    /// rule pays a person at most, against farming. A check-in and a streak pay once a day anyway.
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

/// One entry of `rewards.unlockables`: something a young person unlocks by spending `stars`
/// (`unlock`), or free (`stars: 0`). A theme, avatar or mood icon set is a profile choice of the
/// same name (its `id`), refused while locked; a sticker is the apps' to use.
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
    /// `stars` (required, 0 to 100,000): its price; 0 marks it free, unlocked for everyone.
    public var stars: Int

    /// Free: everyone has it without spending a star.
    public var isFree: Bool { stars == 0 }

    enum CodingKeys: String, CodingKey, CaseIterable { case id, kind, name, stars }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        id = try c.decodeID(forKey: .id)
        kind = try c.decode(Kind.self, forKey: .kind)
        name = try c.decode(String.self, forKey: .name)
        try c.require(!name.isBlank, at: .name, "a non-empty name")
        stars = try c.decode(Int.self, forKey: .stars)
        try c.require((0...100_000).contains(stars), at: .stars, "a number of stars from 0 (free) to 100000")
    }
}

extension KeyedDecodingContainer {
    /// The `id` of a rule, an unlockable or an achievement at `key`: lowercase letters, digits and
    /// single hyphens.
    func decodeID(forKey key: Key) throws -> String {
        let id = try decode(String.self, forKey: key)
        try require(TenantFile.isValidSlug(id), at: key, "an id of lowercase letters, digits and single hyphens")
        return id
    }

    /// The list at `key` (default empty), in which each `id` stands once.
    func decodeEachIDOnce<Element: Decodable>(
        _ type: [Element].Type, forKey key: Key, id: (Element) -> String
    ) throws -> [Element] {
        let list = try decode(type, forKey: key, default: [])
        try require(Set(list.map(id)).count == list.count, at: key, "each id once")
        return list
    }
}
