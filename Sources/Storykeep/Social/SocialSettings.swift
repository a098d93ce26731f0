public import StorykeepCore

extension TenantModule {
    /// `social` in a tenant file's `modules`.
    public static let social = TenantModule(rawValue: "social")
}

extension TenantFile {
    /// `social`: who takes part in the social module, the words that hold content for review, and
    /// the rate limits. Read only while the module is on; the database reads `participants` and
    /// `blockedWords` from the stored file too (Migrations/0032_social.sql, 0034).
    public var social: SocialPolicy {
        get { self[SocialPolicy.self] }
        set { self[SocialPolicy.self] = newValue }
    }
}

/// `social:` in a tenant file.
public struct SocialPolicy: TenantFileValue {
    public static let tenantFileKey = "social"
    public static let defaultValue = SocialPolicy()

    /// `participants` (default `[YOUNG_PERSON]`): the roles that take part, as the API spells
    /// them. Adults listed take part as themselves, labelled staff (`SocialProfile.staff`).
    public var participants: [PersonRole]
    /// `blockedWords` (default none): words or phrases (1 to 100 characters each, at most 500)
    /// that hold a post or comment for a moderator (`PENDING_REVIEW`) instead of publishing it;
    /// matched as whole words, in any case.
    public var blockedWords: [String]
    /// `rateLimits`: how much one person may do in an hour.
    public var rateLimits: SocialRateLimits

    public init(participants: [PersonRole] = [.youngPerson], blockedWords: [String] = [], rateLimits: SocialRateLimits = SocialRateLimits()) {
        self.participants = participants
        self.blockedWords = blockedWords
        self.rateLimits = rateLimits
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case participants, blockedWords, rateLimits }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        participants = try c.decode([PersonRole].self, forKey: .participants, default: [.youngPerson])
        try c.require(!participants.isEmpty, at: .participants, "at least one role")
        try c.require(Set(participants).count == participants.count, at: .participants, "each role once")
        blockedWords = try c.decode([String].self, forKey: .blockedWords, default: [])
        try c.require(
            blockedWords.count <= 500 && blockedWords.allSatisfy { !$0.isBlank && TextLimit.length(of: $0) <= 100 }, at: .blockedWords,
            "at most 500 words or phrases of 1 to 100 characters")
        rateLimits = try c.decode(SocialRateLimits.self, forKey: .rateLimits, default: SocialRateLimits())
    }
}

/// `social.rateLimits:` in a tenant file: per person, per hour, counted in the database.
public struct SocialRateLimits: Codable, Sendable, Equatable {
    /// `postsPerHour` (default 20, 1-1000).
    public var postsPerHour: Int
    /// `commentsPerHour` (default 60, 1-1000).
    public var commentsPerHour: Int
    /// `friendRequestsPerHour` (default 30, 1-1000).
    public var friendRequestsPerHour: Int

    public init(postsPerHour: Int = 20, commentsPerHour: Int = 60, friendRequestsPerHour: Int = 30) {
        self.postsPerHour = postsPerHour
        self.commentsPerHour = commentsPerHour
        self.friendRequestsPerHour = friendRequestsPerHour
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case postsPerHour, commentsPerHour, friendRequestsPerHour }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        postsPerHour = try c.decode(Int.self, forKey: .postsPerHour, default: 20, in: 1...1000, "a number")
        commentsPerHour = try c.decode(Int.self, forKey: .commentsPerHour, default: 60, in: 1...1000, "a number")
        friendRequestsPerHour = try c.decode(Int.self, forKey: .friendRequestsPerHour, default: 30, in: 1...1000, "a number")
    }
}
