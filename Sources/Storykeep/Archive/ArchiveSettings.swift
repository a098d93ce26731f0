public import StorykeepCore

extension TenantModule {
    /// `archive` in a tenant file's `modules`.
    public static let archive = TenantModule(rawValue: "archive")
}

extension TenantFile {
    /// `archive`: how long deleted entries stay restorable. Read whether the module is on or not:
    /// deleted entries are purged after the retention period either way.
    public var archive: ArchivePolicy {
        get { self[ArchivePolicy.self] }
        set { self[ArchivePolicy.self] = newValue }
    }
}

/// `archive:` in a tenant file.
public struct ArchivePolicy: TenantFileValue {
    public static let tenantFileKey = "archive"
    public static let defaultValue = ArchivePolicy()

    /// `retentionDays` (default 30, 1–3650): days a deleted entry stays restorable before purge.
    public var retentionDays: Int

    public init(retentionDays: Int = 30) {
        self.retentionDays = retentionDays
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case retentionDays }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        retentionDays = try c.decode(Int.self, forKey: .retentionDays, default: 30, in: 1...3650, "a number of days")
    }
}

