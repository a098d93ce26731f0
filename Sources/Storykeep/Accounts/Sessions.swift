import Foundation
import StorykeepCore
import Postgres

/// Login sessions in the database (`sessions`, Migrations/0002_accounts.sql): find the session of
/// a bearer token, start one, end them.
enum Sessions {
    /// A session unused for less than this is not slid forward again: a burst of requests costs
    /// one write, not one each. The idle timeout is thus honoured to within this much.
    static let slideGranularitySeconds = 60

    /// The statement that authenticates a request (``SessionStatements/authenticate``), sent with
    /// the transaction's BEGIN and its AUTHENTICATION settings.
    static func authentication(policy: SessionPolicy) -> PostgresStatement {
        PostgresStatement(SessionStatements.authenticate, slideGranularitySeconds, policy.idleTimeoutSeconds)
    }

    /// The person whose live session that statement found (its `rows`), or nil; the transaction
    /// is by then in that person's context, or the tenant's alone.
    ///
    /// The policies do most of the checking: the session must be the tenant's, not revoked and
    /// not expired (`sessions_visible`); the function also requires that the person is not
    /// switched off, and slides the session's expiry (Migrations/0050_accounts_authenticate_session.sql).
    static func viewer(in rows: PostgresRows) throws -> Viewer? {
        guard let row = rows.first, let role = PersonRole(rawValue: try row.decode(String.self, at: 2)) else { return nil }
        return Viewer(personID: try row.decode(UUID.self, at: 1), role: role, sessionID: try row.decode(UUID.self, at: 0))
    }

    /// Starts a session for the person of the transaction's context and returns its token (the
    /// only time it exists outside the client) and when it expires unless used.
    static func start(in tx: some PostgresQueryable, personID: UUID, policy: SessionPolicy) async throws -> (SessionToken, Date) {
        let token = try SessionToken.generate()
        let rows = try await tx.query(
            SessionStatements.start, personID, token.storageHash, policy.idleTimeoutSeconds, policy.maxLifetimeSeconds)
        return (token, try rows[0].decode(Date.self, at: 0))
    }

    /// Ends the person's live sessions, all but `except`; returns how many ended.
    @discardableResult
    static func revoke(personID: UUID, except: UUID? = nil, in tx: some PostgresQueryable) async throws -> Int {
        try await tx.execute(SessionStatements.revokeAll, personID, except)
    }

    /// Ends one session.
    static func revoke(sessionID: UUID, in tx: some PostgresQueryable) async throws {
        try await tx.execute(SessionStatements.revoke, sessionID)
    }
}

extension DomainServices {
    /// Runs `body` in one transaction as the person whose live session of the tenant `tenantID`
    /// has `token` (``Sessions/viewer(in:)``), or as nobody (`nil`, in the
    /// tenant's context) when it is no such session: what a request with a bearer token runs in.
    ///
    /// `readOnly`: the request means to write nothing (a GraphQL query), so its transaction, if
    /// nothing wrote in it, commits without waiting for the answer (``PostgresPool``).
    public func authenticated<T: Sendable>(
        _ token: SessionToken, tenantID: UUID, readOnly: Bool = false, _ body: (Viewer?, PostgresTransaction) async throws -> T
    ) async throws -> T {
        let authentication = AccountContext.authentication(tenantID: tenantID, tokenHash: token.storageHash)
        // BEGIN, the AUTHENTICATION context and the lookup that leaves the transaction in the
        // person's context: one round trip.
        return try await pool.transaction(
            settings: requestSettings(authentication), beginningWith: [Sessions.authentication(policy: sessions)],
            waitForCommit: !readOnly
        ) { rows, tx in
            try await body(try Sessions.viewer(in: rows[0]), tx)
        }
    }
}
