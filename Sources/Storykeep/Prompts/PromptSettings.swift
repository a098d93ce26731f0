public import StorykeepCore

/// The prompts' part of a tenant file: `adultPrompts`. Every tenant has prompts from adults.
public struct PromptSettings: TenantSettings {
    public static let keys = CodingKeys.allCases.map(\.rawValue)

    /// `adultPrompts`: how many prompts a young person may have waiting.
    public var adultPrompts: AdultPromptPolicy

    public enum CodingKeys: String, CodingKey, CaseIterable { case adultPrompts }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        adultPrompts = try c.decode(AdultPromptPolicy.self, forKey: .adultPrompts, default: AdultPromptPolicy())
    }
}

extension TenantFile {
    /// `adultPrompts` (``PromptSettings``).
    public var adultPrompts: AdultPromptPolicy {
        get { self[PromptSettings.self].adultPrompts }
        set { self[PromptSettings.self].adultPrompts = newValue }
    }
}

/// `adultPrompts:` in a tenant file.
public struct AdultPromptPolicy: Codable, Sendable, Equatable {
    /// `maxOpenPerYoungPerson` (default 5, 1–50): the most prompts a young person may have open
    /// (neither answered nor dismissed), from all their adults together. The database holds it
    /// (Migrations/0013_prompts.sql reads it from the tenant's stored file).
    public var maxOpenPerYoungPerson: Int

    public init(maxOpenPerYoungPerson: Int = 5) {
        self.maxOpenPerYoungPerson = maxOpenPerYoungPerson
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case maxOpenPerYoungPerson }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        maxOpenPerYoungPerson = try c.decode(Int.self, forKey: .maxOpenPerYoungPerson, default: 5)
        try c.require((1...50).contains(maxOpenPerYoungPerson), at: .maxOpenPerYoungPerson, "a number of prompts from 1 to 50")
    }
}
