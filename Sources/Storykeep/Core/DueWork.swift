public import Foundation
import Postgres

/// A background job that looks for work in every tenant every few seconds, and so asks first
/// which tenants have any: the names `jobs_due_tenants` (Migrations/0048_jobs_due_tenants.sql)
/// knows, which are the jobs' own names.
public enum DueWork: String, Sendable {
    /// An export of a person's data waiting to be built, a stalled build, or one expired.
    case dataExports = "data exports"
    /// A webhook delivery whose next attempt is due.
    case webhookDelivery = "webhook delivery"
}

extension JobContext {
    /// The tenants (of ``scope``) in which `work` is due at `due`, a build claimed before `stale`
    /// counting as stopped: one statement, whatever the number of tenants, each asked in its
    /// operator's context as the job's own transactions are; then, only when some have work, the
    /// tenants themselves (``tenants``). An idle round of a job costs that one statement.
    public func tenants(withWork work: DueWork, due: Date, stale: Date? = nil) async throws -> [Tenant] {
        let due = try await pool.withConnection { connection in
            try await connection.query(Self.dueTenants, work.rawValue, due, stale ?? due, scope).map { try $0.decode(UUID.self, at: 0) }
        }
        guard !due.isEmpty else { return [] }
        let wanted = Set(due)
        return try await tenants().filter { wanted.contains($0.id) }
    }

    /// $1 the job, $2 when the work is judged due, $3 before when a claim is stale, $4 the tenants
    /// to look at (null: all). Outside any transaction: a statement of its own.
    static let dueTenants = "select t from jobs_due_tenants($1, $2, $3, $4::uuid[]) as t"
}
