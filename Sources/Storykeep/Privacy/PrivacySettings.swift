public import StorykeepCore

extension TenantFile {
    /// `privacy`: whether people may delete their own account, and how long a data export waits.
    public var privacy: PrivacyPolicy {
        get { self[PrivacyPolicy.self] }
        set { self[PrivacyPolicy.self] = newValue }
    }
}

/// `privacy:` in a tenant file.
public struct PrivacyPolicy: TenantFileValue {
    public static let tenantFileKey = "privacy"
    public static let defaultValue = PrivacyPolicy()

    /// `selfErasure` (default false): whether a person may erase their own account
    /// (`deleteMyAccount`). Off by default: most agencies keep a young person's record until
    /// they have talked it through with them; an agency admin can always erase (`erasePerson`).
    public var selfErasure: Bool
    /// `exportDays` (default 7, 1–30): how long a finished data export waits to be downloaded
    /// before its file is removed.
    public var exportDays: Int

    public init(selfErasure: Bool = false, exportDays: Int = 7) {
        self.selfErasure = selfErasure
        self.exportDays = exportDays
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case selfErasure, exportDays }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        selfErasure = try c.decode(Bool.self, forKey: .selfErasure, default: false)
        exportDays = try c.decode(Int.self, forKey: .exportDays, default: 7, in: 1...30, "a number of days")
    }
}
