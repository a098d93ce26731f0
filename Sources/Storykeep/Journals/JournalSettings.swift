public import StorykeepCore

/// The journal's part of a tenant file: the check-in's question and mood icons, the writing
/// prompts, the upload limit.
public struct JournalSettings: TenantSettings {
    public static let keys = CodingKeys.allCases.map(\.rawValue)

    /// `checkInQuestion` (default "How are you feeling today?"): the daily mood check-in
    /// question, in the agency's languages (``LocalizedText``).
    public var checkInQuestion: LocalizedText
    /// `moodIcons` (required, at least one): the default mood icons a young person starts with.
    public var moodIcons: [MoodIcon]
    /// `prompts` (default none): smart-suggestion prompts for writing an entry.
    public var prompts: [Prompt]
    /// `uploads`: media limits.
    public var uploads: UploadPolicy

    public enum CodingKeys: String, CodingKey, CaseIterable { case checkInQuestion, moodIcons, prompts, uploads }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        checkInQuestion = try c.decode(LocalizedText.self, forKey: .checkInQuestion, default: LocalizedText("How are you feeling today?"))
        try c.require(checkInQuestion.all.allSatisfy { !$0.isBlank }, at: .checkInQuestion, "a non-empty question in each language")
        uploads = try c.decode(UploadPolicy.self, forKey: .uploads, default: UploadPolicy())
        moodIcons = try c.decode([MoodIcon].self, forKey: .moodIcons)
        try c.require(!moodIcons.isEmpty, at: .moodIcons, "at least one mood icon")
        try c.require(Set(moodIcons.map(\.label)).count == moodIcons.count, at: .moodIcons, "each label once")
        prompts = try c.decode([Prompt].self, forKey: .prompts, default: [])
        let labels = Set(moodIcons.map(\.label))
        let unknownMood = prompts.flatMap(\.moods).first { !labels.contains($0) }
        try c.require(unknownMood == nil, at: .prompts, "moods that are labels of moodIcons, not \"\(unknownMood ?? "")\"")
    }
}

extension TenantFile {
    /// `checkInQuestion` (``JournalSettings``).
    public var checkInQuestion: LocalizedText {
        get { self[JournalSettings.self].checkInQuestion }
        set { self[JournalSettings.self].checkInQuestion = newValue }
    }

    /// `moodIcons` (``JournalSettings``).
    public var moodIcons: [MoodIcon] {
        get { self[JournalSettings.self].moodIcons }
        set { self[JournalSettings.self].moodIcons = newValue }
    }

    /// `prompts` (``JournalSettings``).
    public var prompts: [Prompt] {
        get { self[JournalSettings.self].prompts }
        set { self[JournalSettings.self].prompts = newValue }
    }

    /// `uploads` (``JournalSettings``).
    public var uploads: UploadPolicy {
        get { self[JournalSettings.self].uploads }
        set { self[JournalSettings.self].uploads = newValue }
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
        maxMegabytes = try c.decode(Int.self, forKey: .maxMegabytes, default: 25, in: 1...1024, "a size in MiB")
    }
}

/// One entry of `moodIcons:`.
public struct MoodIcon: Codable, Sendable, Equatable {
    /// `emoji` (required): what the icon shows.
    public var emoji: String
    /// `label` (required, unique): what it means, read aloud by screen readers, in the agency's
    /// languages (``LocalizedText``), each of ``TextLimit/mood``. Its English text is the mood's
    /// name: what a check-in's `mood` is and entries keep, whatever the person's language.
    public var labels: LocalizedText

    /// The mood's name: the English label.
    public var label: String { labels.english }

    enum CodingKeys: String, CodingKey, CaseIterable { case emoji, label }

    /// A mood icon of a person's own; `ProfileStore` checks it as the tenant file's are checked.
    public init(emoji: String, label: String) {
        self.emoji = emoji
        self.labels = LocalizedText(label)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(emoji, forKey: .emoji)
        try c.encode(labels, forKey: .label)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        emoji = try c.decode(String.self, forKey: .emoji)
        // One emoji is one Character (a grapheme cluster, 👍🏽 included): a shape, not a length limit.
        try c.require(!emoji.isBlank && emoji.count == 1, at: .emoji, "one emoji")
        labels = try c.decode(LocalizedText.self, forKey: .label)
        try c.require(
            labels.all.allSatisfy { !$0.isBlank && TextLimit.mood.admits($0) }, at: .label,
            "a non-empty label of \(TextLimit.mood) (Unicode code points) in each language")
    }
}

/// One entry of `prompts:`: a suggestion offered when writing.
public struct Prompt: Codable, Sendable, Equatable {
    /// `text` (required): an entry's suggestion when answered (``TextLimit/suggestion``), in the
    /// agency's languages (``LocalizedText``).
    public var text: LocalizedText
    /// `moods` (default: any mood): offered after a check-in with one of these mood labels.
    public var moods: [String]

    enum CodingKeys: String, CodingKey, CaseIterable { case text, moods }

    public init(text: LocalizedText, moods: [String] = []) {
        self.text = text
        self.moods = moods
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        text = try c.decode(LocalizedText.self, forKey: .text)
        try c.require(
            text.all.allSatisfy { !$0.isBlank && TextLimit.suggestion.admits($0) }, at: .text,
            "a non-empty prompt of \(TextLimit.suggestion) (Unicode code points) in each language")
        moods = try c.decode([String].self, forKey: .moods, default: [])
    }
}

