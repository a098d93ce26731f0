import Foundation
import StorykeepCore
import Postgres

/// Login sessions in the database (`sessions`, Migrations/0002_accounts.sql): find the session of
/// a bearer token, start one, end them.
enum Sessions {
    /// A session unused for less than this is not slid forward again: a burst of requests costs
    /// one write, not one each. The idle timeout is thus honoured to within this much.
    static let slideGranularitySeconds = 60

    /// The person whose live session has the token of the transaction's AUTHENTICATION context
    /// (its hash is the context's key), or nil. On success the transaction is switched to that
    /// person's context and the session's expiry slid forward; otherwise to the tenant alone.
    ///
    /// The policies do most of the checking: the session must be the tenant's, not revoked and
    /// not expired (`sessions_visible`); here the person must not be switched off.
    static func authenticate(in tx: PostgresTransaction, tenantID: UUID, policy: SessionPolicy) async throws -> Viewer? {
        let rows = try await tx.query(SessionStatements.authenticate, slideGranularitySeconds)
        guard let row = rows.first, let role = PersonRole(rawValue: try row.decode(String.self, at: 2)) else {
            try await AccountContext.anonymous(tenantID: tenantID).enter(on: tx)
            return nil
        }
        let viewer = Viewer(personID: try row.decode(UUID.self, at: 1), role: role, sessionID: try row.decode(UUID.self, at: 0))
        try await AccountContext.person(tenantID: tenantID, personID: viewer.personID, role: role).enter(on: tx)
        if try row.decode(Bool.self, at: 3) {
            try await tx.execute(SessionStatements.slide, viewer.sessionID, policy.idleTimeoutSeconds)
        }
        return viewer
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
    /// has `token` (``Sessions/authenticate(in:tenantID:policy:)``), or as nobody (`nil`, in the
    /// tenant's context) when it is no such session: what a request with a bearer token runs in.
    public func authenticated<T: Sendable>(
        _ token: SessionToken, tenantID: UUID, _ body: (Viewer?, PostgresTransaction) async throws -> T
    ) async throws -> T {
        let authentication = AccountContext.authentication(tenantID: tenantID, tokenHash: token.storageHash)
        return try await pool.transaction(settings: requestSettings(authentication)) { tx in
            try await body(try await Sessions.authenticate(in: tx, tenantID: tenantID, policy: sessions), tx)
        }
    }
}
