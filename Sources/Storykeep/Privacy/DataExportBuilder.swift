import Foundation
public import Logging
public import Postgres
public import StorykeepCore

/// Builds the exports waiting in `data_exports`, in each tenant's operator context (the server's
/// own work), one at a time: claims the oldest, builds its ZIP in the person's context
/// (``PersonDataArchive``), telling its progress as it goes, and stores it, downloadable for the
/// tenant's `privacy.exportDays`. Removes the files nobody downloaded in time. Run by the
/// server's background job (``PrivacyModule/exportJob(archive:interval:)``); a request survives a
/// restart because it is a row: a claim older than ``staleClaim`` is taken again.
public struct DataExportBuilder: Sendable {
    /// A builder holding an export longer than this has stopped (the server restarted).
    static let staleClaim: TimeInterval = 300

    public var archive: PersonDataArchive
    public var pool: PostgresPool
    public var now: @Sendable () -> Date

    public init(archive: PersonDataArchive, pool: PostgresPool, now: @escaping @Sendable () -> Date) {
        self.archive = archive
        self.pool = pool
        self.now = now
    }

    /// Builds every export waiting in `tenants` and expires old ones: how many were built, failed
    /// and expired.
    public func round(_ tenants: [Tenant], logger: Logger) async throws -> (built: Int, failed: Int, expired: Int) {
        var outcome = (built: 0, failed: 0, expired: 0)
        for tenant in tenants {
            let settings = AccountContext.tenantOperator(tenantID: tenant.id).settings
            outcome.expired += try await pool.transaction(settings: settings) { tx in
                try await tx.execute(DataExportStatements.expire, now())
            }
            while let claimed = try await claim(tenant) {
                do {
                    try await build(claimed, tenant: tenant)
                    outcome.built += 1
                } catch {
                    logger.error("A data export failed", metadata: ["tenant": "\(tenant.slug)", "export": "\(claimed.id)", "error": "\(error)"])
                    _ = try await pool.transaction(settings: settings) { tx in try await tx.execute(DataExportStatements.failed, claimed.id) }
                    outcome.failed += 1
                }
            }
        }
        return outcome
    }

    private struct Claimed: Sendable {
        var id: UUID
        var personID: UUID
        var role: PersonRole
    }

    private func claim(_ tenant: Tenant) async throws -> Claimed? {
        let settings = AccountContext.tenantOperator(tenantID: tenant.id).settings
        return try await pool.transaction(settings: settings) { tx in
            guard let row = try await tx.query(DataExportStatements.claim, now().addingTimeInterval(-Self.staleClaim)).first else { return nil }
            return Claimed(
                id: try row.decode(UUID.self, at: 0), personID: try row.decode(UUID.self, at: 1),
                role: PersonRole(rawValue: try row.decode(String.self, at: 2)) ?? .youngPerson)
        }
    }

    private func build(_ claimed: Claimed, tenant: Tenant) async throws {
        let settings = AccountContext.tenantOperator(tenantID: tenant.id).settings
        let pool = pool
        let zip = try await archive.build(tenant: tenant, personID: claimed.personID, role: claimed.role, pool: pool, now: now()) { percent in
            try await pool.transaction(settings: settings) { tx in _ = try await tx.execute(DataExportStatements.progress, claimed.id, percent) }
        }
        let expires = now().addingTimeInterval(TimeInterval(tenant.file.privacy.exportDays * 86_400))
        _ = try await pool.transaction(settings: settings) { tx in
            try await tx.execute(DataExportStatements.ready, claimed.id, zip, expires)
        }
    }
}
