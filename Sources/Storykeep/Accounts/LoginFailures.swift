import Foundation
import StorykeepCore
import Postgres

/// The `login_failures` row of the name a login looks for: read it, count one more failure,
/// forget it after a success.
///
/// Each function runs in a transaction in the ``AccountContext/login(tenantID:loginName:)``
/// context and names no tenant or login name itself: the row is the context's, by the table's
/// policy and by `current_tenant_id()` and `current_login_name()` (which trims and lower-cases
/// the name, so "Sam " and "sam" share a count).
public enum LoginFailures {
    /// Failures recorded for the name, and the database's clock, to judge them with
    /// ``Lockout/decide(failures:lastFailureAt:now:)`` against the same clock that recorded them.
    public struct Record: Sendable, Equatable {
        /// Failures in a row; 0 when none is recorded.
        public var failures: Int
        /// When the last one was recorded; nil when none is.
        public var lastFailureAt: Date?
        /// The transaction's `now()`.
        public var now: Date
    }

    /// The failures recorded for the context's name. With `locking`, the row (if any) is locked
    /// until the transaction ends, so that concurrent attempts on one name are judged one after
    /// the other, each seeing the failures counted before it.
    public static func read(in tx: some PostgresQueryable, locking: Bool = false) async throws -> Record {
        if locking {
            _ = try await tx.query(LoginStatements.lockFailures)
        }
        let rows = try await tx.query(LoginStatements.failures)
        let row = rows[0]
        return Record(
            failures: try row.decode(Int.self, at: 0), lastFailureAt: try row.decode(Date?.self, at: 1),
            now: try row.decode(Date.self, at: 2))
    }

    /// Counts one more failure for the context's name, at `time` (by default the database's
    /// `now()`; the server passes its own clock, the one it judges the back-off by), and returns
    /// the new count.
    @discardableResult
    public static func recordFailure(in tx: some PostgresQueryable, at time: Date? = nil) async throws -> Record {
        let rows = try await tx.query(LoginStatements.recordFailure, time)
        let row = rows[0]
        return Record(
            failures: try row.decode(Int.self, at: 0), lastFailureAt: try row.decode(Date.self, at: 1),
            now: try row.decode(Date.self, at: 2))
    }

    /// Forgets the context's failures: the login succeeded.
    public static func reset(in tx: some PostgresQueryable) async throws {
        try await tx.execute(LoginStatements.resetFailures)
    }
}
