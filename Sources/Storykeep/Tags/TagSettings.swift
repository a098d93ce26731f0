public import StorykeepCore

extension TenantModule {
    /// `tags` in a tenant file's `modules`.
    public static let tags = TenantModule(rawValue: "tags")
}

/// The tags module's part of a tenant file: `suggestedTags`.
public struct TagSettings: TenantSettings {
    public static let keys = CodingKeys.allCases.map(\.rawValue)

    /// `suggestedTags` (default none): tags offered when writing an entry, each a tag's name
    /// (``TextLimit/tagName``) in the agency's languages (``LocalizedText``).
    public var suggestedTags: [LocalizedText]

    public enum CodingKeys: String, CodingKey, CaseIterable { case suggestedTags }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        suggestedTags = try c.decode([LocalizedText].self, forKey: .suggestedTags, default: [])
        try c.require(
            suggestedTags.allSatisfy { $0.all.allSatisfy { !$0.isBlank && TextLimit.tagName.admits($0) } }, at: .suggestedTags,
            "non-empty tags of \(TextLimit.tagName) (Unicode code points) in each language")
        try c.require(
            Set(suggestedTags.map { $0.english.lowercased() }).count == suggestedTags.count, at: .suggestedTags, "each tag once")
    }
}

extension TenantFile {
    /// `suggestedTags` (``TagSettings``).
    public var suggestedTags: [LocalizedText] {
        get { self[TagSettings.self].suggestedTags }
        set { self[TagSettings.self].suggestedTags = newValue }
    }
}
