public import StorykeepCore

extension TenantModule {
    /// `export` in a tenant file's `modules`.
    public static let export = TenantModule(rawValue: "export")
}

/// The export module's part of a tenant file: `export`.
public struct ExportSettings: TenantSettings {
    public static let keys = CodingKeys.allCases.map(\.rawValue)

    /// `export`: what a case-management system may hold, and how long its credentials live.
    public var export: ExportPolicy

    public enum CodingKeys: String, CodingKey, CaseIterable { case export }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        export = try c.decode(ExportPolicy.self, forKey: .export, default: ExportPolicy())
    }
}

extension TenantFile {
    /// `export` (``ExportSettings``).
    public var export: ExportPolicy {
        get { self[ExportSettings.self].export }
        set { self[ExportSettings.self].export = newValue }
    }
}

/// `export:` in a tenant file. The database reads `scope` from the tenant's stored file too
/// (Migrations/0018_export_feed.sql), so what a client sees follows the file once applied.
public struct ExportPolicy: Codable, Sendable, Equatable {
    /// `scope`: whose shares make an entry exportable.
    public var scope: ExportScope
    /// `onRevoke`: what a client is told when an entry stops being exportable.
    public var onRevoke: RevokePolicy
    /// `secretGraceHours` (default 24, 0–720): how long a client's previous secret still works
    /// after `rotateCmsClientSecret`.
    public var secretGraceHours: Int
    /// `tokenMinutes` (default 60, 5–1440): how long a client's access token lives.
    public var tokenMinutes: Int
    /// `mediaLinkMinutes` (default 60, 1–10080): how long a signed link to an exported file works.
    public var mediaLinkMinutes: Int

    public init(
        scope: ExportScope = .socialWorker, onRevoke: RevokePolicy = .tombstone, secretGraceHours: Int = 24, tokenMinutes: Int = 60,
        mediaLinkMinutes: Int = 60
    ) {
        self.scope = scope
        self.onRevoke = onRevoke
        self.secretGraceHours = secretGraceHours
        self.tokenMinutes = tokenMinutes
        self.mediaLinkMinutes = mediaLinkMinutes
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case scope, onRevoke, secretGraceHours, tokenMinutes, mediaLinkMinutes }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        scope = try c.decode(ExportScope.self, forKey: .scope, default: .socialWorker)
        onRevoke = try c.decode(RevokePolicy.self, forKey: .onRevoke, default: .tombstone)
        secretGraceHours = try c.decode(Int.self, forKey: .secretGraceHours, default: 24, in: 0...720, "a number of hours")
        tokenMinutes = try c.decode(Int.self, forKey: .tokenMinutes, default: 60, in: 5...1440, "a number of minutes")
        mediaLinkMinutes = try c.decode(Int.self, forKey: .mediaLinkMinutes, default: 60, in: 1...10080, "a number of minutes")
    }
}

/// `export.scope`: an entry is exportable while it is shared with an adult currently assigned
/// to its author as their social worker (`socialWorker`), or as anyone (`anyAdult`: carers and
/// other professionals too), and not archived.
public enum ExportScope: String, Codable, Sendable, ClosedSetDecodable {
    case socialWorker
    case anyAdult
}

/// `export.onRevoke`: when an entry stops being exportable (unshared, archived, the assignment
/// ended), the client gets a TOMBSTONE (`tombstone`) or nothing, so that what a statutory record
/// holds stays there (`keep`).
public enum RevokePolicy: String, Codable, Sendable, ClosedSetDecodable {
    case tombstone
    case keep
}
