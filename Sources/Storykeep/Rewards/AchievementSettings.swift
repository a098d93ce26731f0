import StorykeepCore
public import StorykeepJournals

/// One entry of `rewards.achievements`: a badge a young person earns once, when its `condition`
/// first holds, with an optional star bonus. What they earned is kept as it was then (its name,
/// description, icon and bonus), whatever the file later says.
public struct Achievement: Codable, Sendable, Equatable {
    /// `id` (required, unique): lowercase letters, digits and single hyphens.
    public var id: String
    /// `name` (required): 1 to 100 characters (``TextLimit/achievementName``).
    public var name: String
    /// `description` (required): 1 to 500 characters, what it is for.
    public var description: String
    /// `icon` (required): one emoji.
    public var icon: String
    /// `condition` (required).
    public var condition: AchievementCondition
    /// `stars` (optional, 1–100): the bonus paid when it is earned.
    public var stars: Int?

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, description, icon, condition, stars }

    public init(id: String, name: String, description: String, icon: String, condition: AchievementCondition, stars: Int? = nil) {
        self.id = id
        self.name = name
        self.description = description
        self.icon = icon
        self.condition = condition
        self.stars = stars
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        id = try c.decodeID(forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        try c.require(!name.isBlank && TextLimit.achievementName.admits(name), at: .name, "a name of \(TextLimit.achievementName)")
        description = try c.decode(String.self, forKey: .description)
        try c.require(
            !description.isBlank && TextLimit.achievementDescription.admits(description), at: .description,
            "a description of \(TextLimit.achievementDescription)")
        icon = try c.decode(String.self, forKey: .icon)
        // One emoji is one Character (a grapheme cluster, 👩🏽‍🎨 included), as a mood icon's.
        try c.require(
            icon.count == 1 && !icon.allSatisfy(\.isWhitespace) && TextLimit.achievementIcon.admits(icon), at: .icon, "one emoji")
        condition = try c.decode(AchievementCondition.self, forKey: .condition)
        stars = try c.decodeIfPresent(Int.self, forKey: .stars)
        try c.require(stars.map { (1...100).contains($0) } ?? true, at: .stars, "a bonus of 1 to 100 stars")
    }

    /// The stars it pays when earned: its bonus, or none.
    public var bonus: Int { stars ?? 0 }
}

/// When an achievement is earned: one count reaching a number. In the file, a mapping with one of
/// the counts and its number, e.g. `{ entries: 1 }` (a first entry), `{ entries: 5, kind: drawing }`,
/// `{ streak: 7 }`, `{ shares: 1 }`, `{ checkIns: 30 }`, `{ distinctTags: 5 }`.
public struct AchievementCondition: Codable, Sendable, Equatable {
    /// What is counted, for one young person, since the agency has rewards.
    public enum Count: String, Sendable, CaseIterable {
        /// Entries written (check-ins are not entries written); of one `kind` if it says.
        case entries
        /// Days checked in.
        case checkIns
        /// Consecutive days with a check-in, up to the latest.
        case streak
        /// Entries shared (each entry once, however often shared).
        case shares
        /// Their tags on their entries, each tag once.
        case distinctTags
    }

    public var count: Count
    /// The number the count must reach: at least 1 (a streak, 2 to 365).
    public var atLeast: Int
    /// `kind` (only with `entries`): `text`, `audio`, `video`, `drawing`, `image` or `mood`.
    public var kind: EntryKind?

    public init(_ count: Count, atLeast: Int, kind: EntryKind? = nil) {
        self.count = count
        self.atLeast = atLeast
        self.kind = kind
    }

    /// The mapping's keys: one per count, and `kind`.
    private enum Key: String, CodingKey, CaseIterable {
        case entries, checkIns, streak, shares, distinctTags, kind

        init(_ count: Count) {
            switch count {
            case .entries: self = .entries
            case .checkIns: self = .checkIns
            case .streak: self = .streak
            case .shares: self = .shares
            case .distinctTags: self = .distinctTags
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: Key.self)
        let counts = Count.allCases.filter { c.contains(Key($0)) }
        guard counts.count == 1, let count = counts.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected one of \(Count.allCases.map(\.rawValue).joined(separator: ", ")) with a number"))
        }
        let key = Key(count)
        self.count = count
        atLeast = try c.decode(Int.self, forKey: key)
        if count == .streak {
            try c.require((2...365).contains(atLeast), at: key, "a streak length in days from 2 to 365")
        } else {
            try c.require((1...100_000).contains(atLeast), at: key, "a number from 1 to 100000")
        }
        let kindName = try c.decodeIfPresent(String.self, forKey: .kind)
        let kinds = EntryKind.allCases.map { $0.rawValue.lowercased() }
        try c.require(kindName == nil || count == .entries, at: .kind, "no kind except with entries")
        try c.require(kindName.map(kinds.contains) ?? true, at: .kind, "one of: \(kinds.joined(separator: ", "))")
        kind = kindName.flatMap { EntryKind(rawValue: $0.uppercased()) }
    }

    /// Written as it is read, so that `tenants.config` decodes again.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(atLeast, forKey: Key(count))
        try c.encodeIfPresent(kind.map { $0.rawValue.lowercased() }, forKey: .kind)
    }
}
