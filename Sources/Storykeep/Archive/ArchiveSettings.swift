public import StorykeepCore

extension TenantModule {
    /// `archive` in a tenant file's `modules`.
    public static let archive = TenantModule(rawValue: "archive")
}

/// The archive's part of a tenant file: `archive`. Read whether the module is on or not: deleted
/// entries are purged after the retention period either way.
public struct ArchiveSettings: TenantSettings {
    public static let keys = CodingKeys.allCases.map(\.rawValue)

    /// `archive`: how long deleted entries stay restorable.
    public var archive: ArchivePolicy

    public enum CodingKeys: String, CodingKey, CaseIterable { case archive }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        archive = try c.decode(ArchivePolicy.self, forKey: .archive, default: ArchivePolicy())
    }
}

extension TenantFile {
    /// `archive` (``ArchiveSettings``).
    public var archive: ArchivePolicy {
        get { self[ArchiveSettings.self].archive }
        set { self[ArchiveSettings.self].archive = newValue }
    }
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
        retentionDays = try c.decode(Int.self, forKey: .retentionDays, default: 30, in: 1...3650, "a number of days")
    }
}

