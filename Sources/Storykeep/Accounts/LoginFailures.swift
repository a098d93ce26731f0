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

        /// The statements of this subject's row (``LoginStatements/FailureStatements``).
        fileprivate var statements: LoginStatements.FailureStatements {
            switch self {
            case .person: LoginStatements.failuresOfPerson
            case .loginName: LoginStatements.failuresOfName
            }
        }

        /// The parameters the statements end with: the person's id, none for a name.
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
    /// when there is no row yet that a row lock could hold. The lock and the read travel in one
    /// round trip: PostgreSQL runs the read once it holds the lock.
    public static func read(_ subject: Subject, in tx: some PostgresQueryable, locking: Bool = false) async throws -> Record {
        let read = PostgresStatement(subject.statements.read, parameters: subject.parameters)
        let rows = try await locking
            ? tx.query(together: [PostgresStatement(subject.statements.lock, parameters: subject.parameters), read])[1]
            : tx.query(read.sql, parameters: read.parameters)
        let row = rows[0]
        return Record(
            failures: try row.decode(Int.self, at: 0), lastFailureAt: try row.decode(Date?.self, at: 1),
            now: try row.decode(Date.self, at: 2))
    }

    /// Counts one more failure for `subject`, at `time` (by default the database's `now()`; the
    /// server passes its own clock, the one it judges the back-off by), and returns the new count.
    @discardableResult
    public static func recordFailure(_ subject: Subject, in tx: some PostgresQueryable, at time: Date? = nil) async throws -> Record {
        let rows = try await tx.query(subject.statements.record, parameters: [time] + subject.parameters)
        let row = rows[0]
        return Record(
            failures: try row.decode(Int.self, at: 0), lastFailureAt: try row.decode(Date.self, at: 1),
            now: try row.decode(Date.self, at: 2))
    }

    /// Forgets `subject`'s failures: they logged in, or set a new password.
    public static func reset(_ subject: Subject, in tx: some PostgresQueryable) async throws {
        try await tx.execute(subject.statements.reset, parameters: subject.parameters)
    }
}
