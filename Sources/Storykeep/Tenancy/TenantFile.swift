import Foundation

/// One agency, as its file in `tenants/<slug>.yaml` describes it.
///
/// Decoding is strict and validating: an unknown key, a value of the wrong type, a missing required
/// key or an out-of-range value is an error whose coding path names the key (``TenantFileError``
/// turns it into file + key + what was expected). Optional keys take the defaults documented on
/// each property, and the decoded value, defaults included, is what `storykeep tenant apply` stores
/// in `tenants.config`, so the server never guesses a default of its own.
public struct TenantFile: Codable, Sendable, Equatable {
    /// `slug` (required): lowercase letters, digits and single hyphens; the file's name, and the
    /// path the tenant answers on, `/t/<slug>/`.
    public var slug: String
    /// `displayName` (required): the agency's name as people see it.
    public var displayName: String
    /// `hosts` (default none): host names that select this tenant by the HTTP `Host` header.
    public var hosts: [String]
    /// `timeZone` (required): an IANA zone such as `Europe/London`; days and streaks are counted in it.
    public var timeZone: String
    /// `termsVersion` (required): the terms people must have accepted; raising it asks again.
    public var termsVersion: String
    /// `modules` (required): the optional modules this agency enables. Accounts and journals are
    /// always on.
    public var modules: [TenantModule]
    /// `checkInQuestion` (default "How are you feeling today?"): the daily mood check-in question.
    public var checkInQuestion: String
    /// `archive`: how long deleted entries stay restorable.
    public var archive: ArchivePolicy
    /// `lockout`: back-off after failed logins.
    public var lockout: LockoutPolicy
    /// `passwords`: what a password must be.
    public var passwords: PasswordPolicy
    /// `uploads`: media limits.
    public var uploads: UploadPolicy
    /// `moodIcons` (required, at least one): the default mood icons a young person starts with.
    public var moodIcons: [MoodIcon]
    /// `suggestedTags` (default none): tags offered when writing an entry, each a tag's name
    /// (``TextLimit/tagName``).
    public var suggestedTags: [String]
    /// `prompts` (default none): smart-suggestion prompts for writing an entry.
    public var prompts: [Prompt]
    /// `rewards` (default none): how stars are earned and what they unlock.
    public var rewards: Rewards

    enum CodingKeys: String, CodingKey, CaseIterable {
        case slug, displayName, hosts, timeZone, termsVersion, modules, checkInQuestion, archive, lockout
        case passwords, uploads, moodIcons, suggestedTags, prompts, rewards
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        slug = try c.decode(String.self, forKey: .slug)
        try c.require(TenantFile.isValidSlug(slug), at: .slug, "a slug of lowercase letters, digits and single hyphens")
        displayName = try c.decode(String.self, forKey: .displayName)
        try c.require(!displayName.isBlank, at: .displayName, "a non-empty name")
        hosts = try c.decode([String].self, forKey: .hosts, default: [])
        try c.require(hosts.allSatisfy(TenantFile.isValidHost), at: .hosts, "lowercase host names without port")
        try c.require(Set(hosts).count == hosts.count, at: .hosts, "each host once")
        timeZone = try c.decode(String.self, forKey: .timeZone)
        try c.require(TimeZone(identifier: timeZone) != nil, at: .timeZone, "an IANA time zone such as Europe/London")
        termsVersion = try c.decode(String.self, forKey: .termsVersion)
        try c.require(!termsVersion.isBlank, at: .termsVersion, "a non-empty version")
        modules = try c.decode([TenantModule].self, forKey: .modules)
        try c.require(Set(modules).count == modules.count, at: .modules, "each module once")
        checkInQuestion = try c.decode(String.self, forKey: .checkInQuestion, default: "How are you feeling today?")
        try c.require(!checkInQuestion.isBlank, at: .checkInQuestion, "a non-empty question")
        archive = try c.decode(ArchivePolicy.self, forKey: .archive, default: ArchivePolicy())
        lockout = try c.decode(LockoutPolicy.self, forKey: .lockout, default: LockoutPolicy())
        passwords = try c.decode(PasswordPolicy.self, forKey: .passwords, default: PasswordPolicy())
        uploads = try c.decode(UploadPolicy.self, forKey: .uploads, default: UploadPolicy())
        moodIcons = try c.decode([MoodIcon].self, forKey: .moodIcons)
        try c.require(!moodIcons.isEmpty, at: .moodIcons, "at least one mood icon")
        try c.require(Set(moodIcons.map(\.label)).count == moodIcons.count, at: .moodIcons, "each label once")
        suggestedTags = try c.decode([String].self, forKey: .suggestedTags, default: [])
        try c.require(
            suggestedTags.allSatisfy { !$0.isBlank && TextLimit.tagName.admits($0) }, at: .suggestedTags,
            "non-empty tags of \(TextLimit.tagName) (Unicode code points)")
        try c.require(Set(suggestedTags.map { $0.lowercased() }).count == suggestedTags.count, at: .suggestedTags, "each tag once")
        prompts = try c.decode([Prompt].self, forKey: .prompts, default: [])
        let labels = Set(moodIcons.map(\.label))
        let unknownMood = prompts.flatMap(\.moods).first { !labels.contains($0) }
        try c.require(unknownMood == nil, at: .prompts, "moods that are labels of moodIcons, not \"\(unknownMood ?? "")\"")
        rewards = try c.decode(Rewards.self, forKey: .rewards, default: Rewards())
    }

    /// True when this tenant enables `module`.
    public func enables(_ module: TenantModule) -> Bool {
        modules.contains(module)
    }

    static func isValidSlug(_ slug: String) -> Bool {
        TextLimit.tenantSlug.admits(slug) && slug.wholeMatch(of: /[a-z0-9]+(-[a-z0-9]+)*/) != nil
    }

    static func isValidHost(_ host: String) -> Bool {
        host.utf8.count <= 253 && host.wholeMatch(of: /[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*/) != nil
    }
}

/// An optional module of the domain. Accounts and journals are always on; these an agency chooses.
public enum TenantModule: String, Codable, Sendable, CaseIterable, ClosedSetDecodable {
    case tags, rewards, sharing, archive, social, export
}

/// `archive:` in a tenant file.
public struct ArchivePolicy: Codable, Sendable, Equatable {
    /// `retentionDays` (default 30, 1–3650): days a deleted entry stays restorable before purge.
    public var retentionDays: Int

    public init(retentionDays: Int = 30) {
        self.retentionDays = retentionDays
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case retentionDays }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        retentionDays = try c.decode(Int.self, forKey: .retentionDays, default: 30)
        try c.require((1...3650).contains(retentionDays), at: .retentionDays, "a number of days from 1 to 3650")
    }
}

/// `lockout:` in a tenant file: after `freeAttempts` failures in a row, the n-th further failure
/// locks the name for 2^n seconds, never longer than `maxBackoffSeconds` (issue 4: from the 3rd
/// failure, so 2 free attempts by default; see `Lockout`).
public struct LockoutPolicy: Codable, Sendable, Equatable {
    /// `freeAttempts` (default 2, 1–20).
    public var freeAttempts: Int
    /// `maxBackoffSeconds` (default 900, 1–86400).
    public var maxBackoffSeconds: Int

    public init(freeAttempts: Int = 2, maxBackoffSeconds: Int = 900) {
        self.freeAttempts = freeAttempts
        self.maxBackoffSeconds = maxBackoffSeconds
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case freeAttempts, maxBackoffSeconds }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        freeAttempts = try c.decode(Int.self, forKey: .freeAttempts, default: 2)
        try c.require((1...20).contains(freeAttempts), at: .freeAttempts, "a number from 1 to 20")
        maxBackoffSeconds = try c.decode(Int.self, forKey: .maxBackoffSeconds, default: 900)
        try c.require((1...86_400).contains(maxBackoffSeconds), at: .maxBackoffSeconds, "seconds from 1 to 86400")
    }
}

/// `passwords:` in a tenant file.
public struct PasswordPolicy: Codable, Sendable, Equatable {
    /// `minLength` (default 10, 10–128): characters a new password needs at least.
    public var minLength: Int

    public init(minLength: Int = 10) {
        self.minLength = minLength
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case minLength }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        minLength = try c.decode(Int.self, forKey: .minLength, default: 10)
        try c.require((10...128).contains(minLength), at: .minLength, "a length from 10 to 128")
    }
}

/// `uploads:` in a tenant file.
public struct UploadPolicy: Codable, Sendable, Equatable {
    /// `maxMegabytes` (default 25, 1–1024): the most bytes of media files one request may carry
    /// (one file, or several together), in MiB (1,048,576 bytes). The HTTP layer refuses a larger
    /// request with 413 before reading it (`TenantGraphQLExecutor.uploadLimit`), and the media
    /// store checks each file again. The server's own `uploads.maxBytes` is a ceiling over every
    /// tenant.
    public var maxMegabytes: Int

    public init(maxMegabytes: Int = 25) {
        self.maxMegabytes = maxMegabytes
    }

    /// The limit in bytes.
    public var maxBytes: Int { maxMegabytes * 1_048_576 }

    enum CodingKeys: String, CodingKey, CaseIterable { case maxMegabytes }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        maxMegabytes = try c.decode(Int.self, forKey: .maxMegabytes, default: 25)
        try c.require((1...1024).contains(maxMegabytes), at: .maxMegabytes, "a size in MiB from 1 to 1024")
    }
}

/// One entry of `moodIcons:`.
public struct MoodIcon: Codable, Sendable, Equatable {
    /// `emoji` (required): what the icon shows.
    public var emoji: String
    /// `label` (required, unique): what it means, read aloud by screen readers; a check-in's
    /// mood (``TextLimit/mood``).
    public var label: String

    enum CodingKeys: String, CodingKey, CaseIterable { case emoji, label }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        emoji = try c.decode(String.self, forKey: .emoji)
        // One emoji is one Character (a grapheme cluster, 👍🏽 included): a shape, not a length limit.
        try c.require(!emoji.isBlank && emoji.count == 1, at: .emoji, "one emoji")
        label = try c.decode(String.self, forKey: .label)
        try c.require(
            !label.isBlank && TextLimit.mood.admits(label), at: .label, "a non-empty label of \(TextLimit.mood) (Unicode code points)")
    }
}

/// One entry of `prompts:`: a suggestion offered when writing.
public struct Prompt: Codable, Sendable, Equatable {
    /// `text` (required): an entry's suggestion when answered (``TextLimit/suggestion``).
    public var text: String
    /// `moods` (default: any mood): offered after a check-in with one of these mood labels.
    public var moods: [String]

    enum CodingKeys: String, CodingKey, CaseIterable { case text, moods }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        try c.require(
            !text.isBlank && TextLimit.suggestion.admits(text), at: .text,
            "a non-empty prompt of \(TextLimit.suggestion) (Unicode code points)")
        moods = try c.decode([String].self, forKey: .moods, default: [])
    }
}

extension StringProtocol {
    var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
