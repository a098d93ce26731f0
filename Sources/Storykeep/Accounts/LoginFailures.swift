public import Foundation
import StorykeepCore
import Postgres

/// The `login_failures` row of a person, or of a name nobody has: lock and read it, count one
/// more failure, forget it after a success (Migrations/0006_accounts_login_failures_per_person.sql).
///
/// A login counts on the person its name belongs to, whichever of their names was typed, so a
/// username and an email share one count; a name that belongs to nobody counts on itself, so that
/// unknown names cost the same and reveal nothing. Each function names no tenant itself: the row
/// is the transaction context's, by the table's policy and `current_tenant_id()`.
public enum LoginFailures {
    /// Whose failures a row counts.
    public enum Subject: Sendable, Equatable {
        /// The person the typed name belongs to; seen from their own context, or from a LOGIN
        /// context for one of their names.
        case person(UUID)
        /// The name of the transaction's LOGIN context (`current_login_name()`, which trims and
        /// lower-cases it, so "Sam " and "sam" share a count), which belongs to nobody.
        case loginName

        /// The row's key column and the SQL of its value, which is the parameter `$n` for a person.
        fileprivate func key(_ n: Int) -> (column: String, value: String) {
            switch self {
            case .person: ("person_id", "$\(n)::uuid")
            case .loginName: ("login_name", "current_login_name()")
            }
        }

        /// The parameter ``key(_:)`` refers to: none for a name.
        fileprivate var parameters: [(any PostgresEncodable)?] {
            switch self {
            case .person(let id): [id]
            case .loginName: []
            }
        }
    }

    /// Failures recorded for a subject, and the database's clock, to judge them with
    /// ``Lockout/decide(failures:lastFailureAt:now:)`` against the same clock that recorded them.
    public struct Record: Sendable, Equatable {
        /// Failures in a row; 0 when none is recorded.
        public var failures: Int
        /// When the last one was recorded; nil when none is.
        public var lastFailureAt: Date?
        /// The transaction's `now()`.
        public var now: Date
    }

    /// The failures recorded for `subject`. With `locking`, first takes a transaction-level
    /// advisory lock on the tenant and subject, so that concurrent attempts are judged one after
    /// the other, each seeing the failures counted before it — also before the first failure,
    /// when there is no row yet that a row lock could hold.
    public static func read(_ subject: Subject, in tx: some PostgresQueryable, locking: Bool = false) async throws -> Record {
        let key = subject.key(1)
        if locking {
            // The two-key form: a lock space of its own, apart from the migrator's one-key locks.
            // Two subjects whose hashes collide only wait for each other.
            _ = try await tx.query(
                """
                select pg_advisory_xact_lock(hashtext('login_failures'),
                                             hashtext(current_tenant_id()::text || ' ' || \(key.value)::text))
                """, parameters: subject.parameters)
        }
        let rows = try await tx.query(
            """
            select coalesce(f.failures, 0), f.last_failure_at, now()
            from (select 1) as one
            left join login_failures f on f.tenant_id = current_tenant_id() and f.\(key.column) = \(key.value)
            """, parameters: subject.parameters)
        let row = rows[0]
        return Record(
            failures: try row.decode(Int.self, at: 0), lastFailureAt: try row.decode(Date?.self, at: 1),
            now: try row.decode(Date.self, at: 2))
    }

    /// Counts one more failure for `subject`, at `time` (by default the database's `now()`; the
    /// server passes its own clock, the one it judges the back-off by), and returns the new count.
    @discardableResult
    public static func recordFailure(_ subject: Subject, in tx: some PostgresQueryable, at time: Date? = nil) async throws -> Record {
        let key = subject.key(2)
        let rows = try await tx.query(
            """
            insert into login_failures (tenant_id, \(key.column), failures, last_failure_at)
            values (current_tenant_id(), \(key.value), 1, coalesce($1, now()))
            on conflict (tenant_id, \(key.column))
                do update set failures = login_failures.failures + 1, last_failure_at = excluded.last_failure_at
            returning failures, last_failure_at, now()
            """, parameters: [time] + subject.parameters)
        let row = rows[0]
        return Record(
            failures: try row.decode(Int.self, at: 0), lastFailureAt: try row.decode(Date.self, at: 1),
            now: try row.decode(Date.self, at: 2))
    }

    /// Forgets `subject`'s failures: they logged in, or set a new password.
    public static func reset(_ subject: Subject, in tx: some PostgresQueryable) async throws {
        let key = subject.key(1)
        try await tx.execute(
            "delete from login_failures where tenant_id = current_tenant_id() and \(key.column) = \(key.value)",
            parameters: subject.parameters)
    }
}
