import Foundation
public import Postgres
public import StorykeepCore

/// The `tenants` table: provisioning (as the owner role) and reading (as any role).
///
/// Tenant rows are written only by `storykeep tenant apply|disable|enable`, connected as
/// `storykeep_owner`; the server's role, `storykeep_app`, may only read them. Each change is
/// recorded in the tenant's own audit trail (`tenant.created`, `.updated`, `.disabled`,
/// `.enabled`), in the transaction of the change.
public struct TenantStore: Sendable {
    public let pool: PostgresPool
    /// How `tenants.config` is read: the composed modules' tenant file format.
    public let format: TenantFileFormat

    public init(pool: PostgresPool, format: TenantFileFormat) {
        self.pool = pool
        self.format = format
    }

    /// Creates or updates the tenants `files` describe, in one transaction, and says what changed
    /// for each. Applying the same files again changes nothing and reports every tenant unchanged.
    ///
    /// `enabled` is left alone for existing tenants, so a tenant disabled by an operator stays
    /// disabled when the files are applied again; new tenants start enabled. Tenants without a
    /// file are left alone too (disable them explicitly). A host already answered by another
    /// tenant in the database fails the whole apply.
    public func apply(_ files: [TenantFile]) async throws -> [TenantChange] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try await pool.transaction { tx in
            _ = try await tx.query(TenantStatements.lock)
            var changes: [TenantChange] = []
            for file in files {
                let config = try encoder.encode(file)
                let configText = String(decoding: config, as: UTF8.self)
                let clash = try await tx.query(TenantStatements.hostClash, file.slug, file.hosts)
                if let row = clash.first {
                    throw TenantStoreError.hostTaken(
                        host: try row.decode(String.self, at: 1), slug: file.slug, by: try row.decode(String.self, at: 0)
                    )
                }
                let existing = try await tx.query(TenantStatements.config, file.slug)
                guard let row = existing.first else {
                    let id = UUID()
                    _ = try await tx.query(TenantStatements.insert, id, file.slug, file.displayName, file.hosts, configText)
                    try await Self.audit(.tenantCreated, tenantID: id, in: tx)
                    changes.append(.created(slug: file.slug))
                    continue
                }
                let stored = Data(try row.decode(String.self, at: 0).utf8)
                let keys = try TenantFile.changedKeys(from: stored, to: config)
                guard !keys.isEmpty else {
                    changes.append(.unchanged(slug: file.slug))
                    continue
                }
                _ = try await tx.query(TenantStatements.update, file.slug, file.displayName, file.hosts, configText)
                try await Self.audit(.tenantUpdated, tenantID: try row.decode(UUID.self, at: 1), in: tx)
                changes.append(.updated(slug: file.slug, keys: keys))
            }
            return changes
        }
    }

    /// Every tenant, enabled or not, by slug.
    ///
    /// A row whose `config` is not a valid tenant file (written by hand, or by an older version)
    /// is left out and passed to `invalid` instead, so that one bad row cannot take every tenant
    /// offline; applying its file again repairs it.
    public func all(invalid: (_ slug: String, _ problem: TenantFileError) -> Void = { _, _ in }) async throws -> [Tenant] {
        let rows = try await pool.transaction { tx in
            try await tx.query(TenantStatements.all).map { row in
                (
                    id: try row.decode(UUID.self, at: 0), enabled: try row.decode(Bool.self, at: 1),
                    slug: try row.decode(String.self, at: 2), config: try row.decode(String.self, at: 3),
                    cursorKey: CursorKey(bytes: try row.decode([UInt8].self, at: 4)),
                    documents: try row.decode(String.self, at: 5)
                )
            }
        }
        return rows.compactMap { row in
            do {
                let decoder = JSONDecoder()
                decoder.userInfo = format.userInfo
                let file = try decoder.decode(TenantFile.self, from: Data(row.config.utf8))
                let documents = try decoder.decode([String: String].self, from: Data(row.documents.utf8))
                return Tenant(
                    id: row.id, enabled: row.enabled, file: file, cursorKey: row.cursorKey, trustedDocuments: TrustedDocuments(documents))
            } catch {
                invalid(row.slug, TenantFileError.every(in: error, file: "tenants.config of \(row.slug)")[0])
            }
            return nil
        }
    }

    /// Adds `documents` (id -> text) to the trusted documents of the tenant `slug`, or with
    /// `replacing` puts them in the place of those it had. Returns how many it then has, or nil
    /// when no tenant has that slug. Running servers hear of it at commit (0027).
    public func registerDocuments(_ documents: [String: String], slug: String, replacing: Bool) async throws -> Int? {
        let json = String(decoding: try JSONEncoder().encode(documents), as: UTF8.self)
        return try await pool.transaction { tx in
            try await tx.query(TenantStatements.registerDocuments, slug, json, replacing).first.map { try $0.decode(Int.self, at: 0) }
        }
    }

    /// Turns serving a tenant off or on; its data stays either way. Returns false if no tenant
    /// has that slug.
    public func setEnabled(_ enabled: Bool, slug: String) async throws -> Bool {
        try await pool.transaction { tx in
            guard let row = try await tx.query(TenantStatements.setEnabled, slug, enabled).first else { return false }
            try await Self.audit(enabled ? .tenantEnabled : .tenantDisabled, tenantID: try row.decode(UUID.self, at: 0), in: tx)
            return true
        }
    }

    /// Records `action` in the tenant's own audit trail, by nobody (the operator at the command
    /// line is no person of the agency), about the tenant (its id as the subject). `tx` enters
    /// the tenant's context for it: the owner role sees every tenant row whatever the context.
    private static func audit(_ action: AuditAction, tenantID: UUID, in tx: PostgresTransaction) async throws {
        try await AccountContext.tenantOperator(tenantID: tenantID).enter(on: tx)
        try await AuditTrail.record(action, by: .nobody, subject: tenantID, request: nil, in: tx)
    }
}

/// Why the tenants table refused a change.
public enum TenantStoreError: Error, Equatable, CustomStringConvertible {
    /// Another tenant already answers on `host`.
    case hostTaken(host: String, slug: String, by: String)

    public var description: String {
        switch self {
        case .hostTaken(let host, let slug, let other):
            "tenant \(slug): host \(host) is already a host of tenant \(other)"
        }
    }
}
