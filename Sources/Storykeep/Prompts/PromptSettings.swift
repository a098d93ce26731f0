public import StorykeepCore

extension TenantFile {
    /// `adultPrompts`: how many prompts a young person may have waiting. Every tenant has prompts
    /// from adults.
    public var adultPrompts: AdultPromptPolicy {
        get { self[AdultPromptPolicy.self] }
        set { self[AdultPromptPolicy.self] = newValue }
    }
}

/// `adultPrompts:` in a tenant file.
public struct AdultPromptPolicy: TenantFileValue {
    public static let tenantFileKey = "adultPrompts"
    public static let defaultValue = AdultPromptPolicy()

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
        maxOpenPerYoungPerson = try c.decode(Int.self, forKey: .maxOpenPerYoungPerson, default: 5, in: 1...50, "a number of prompts")
    }
}
