public import StorykeepCore

extension TenantModule {
    /// `tags` in a tenant file's `modules`.
    public static let tags = TenantModule(rawValue: "tags")
}

/// The tags module's part of a tenant file: `suggestedTags`.
public struct TagSettings: TenantSettings {
    public static let keys = CodingKeys.allCases.map(\.rawValue)

    /// `suggestedTags` (default none): tags offered when writing an entry, each a tag's name
    /// (``TextLimit/tagName``).
    public var suggestedTags: [String]

    public enum CodingKeys: String, CodingKey, CaseIterable { case suggestedTags }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        suggestedTags = try c.decode([String].self, forKey: .suggestedTags, default: [])
        try c.require(
            suggestedTags.allSatisfy { !$0.isBlank && TextLimit.tagName.admits($0) }, at: .suggestedTags,
            "non-empty tags of \(TextLimit.tagName) (Unicode code points)")
        try c.require(Set(suggestedTags.map { $0.lowercased() }).count == suggestedTags.count, at: .suggestedTags, "each tag once")
    }
}

extension TenantFile {
    /// `suggestedTags` (``TagSettings``).
    public var suggestedTags: [String] {
        get { self[TagSettings.self].suggestedTags }
        set { self[TagSettings.self].suggestedTags = newValue }
    }
}
