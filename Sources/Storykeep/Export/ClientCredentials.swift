import Foundation
import Postgres
import StorykeepAccounts
import StorykeepCore

/// The client credentials grant of case-management clients, in the domain's terms: judging a
/// client's id and secret and issuing its token (the server's `oauth/token` speaks OAuth), and
/// recognising the token on later requests.
///
/// Wrong secrets are counted per client and slowed down with the tenant's `lockout` back-off, as
/// a person's wrong passwords are (``Lockout``): from the third in a row, 2, 4, 8 … seconds
/// between tries, during which even the right secret is refused unjudged. An id that names no
/// client counts nowhere: ids are random, and the answer is the same `invalid_client`.
struct ClientCredentials: ClientCredentialsIssuer, ClientAuthentication {
    /// The longest secret judged: ours have 43 characters.
    static let maxSecretLength = 256

    func issue(clientID: String, secret: String, tenant: Tenant, services: DomainServices) async throws -> ClientCredentialsOutcome {
        guard let id = UUID(uuidString: clientID), secret.utf8.count <= Self.maxSecretLength else { return .invalidClient }
        let policy = tenant.file.export
        let lockout = Lockout(freeAttempts: tenant.file.lockout.freeAttempts, maxBackoffSeconds: tenant.file.lockout.maxBackoffSeconds)
        let now = Self.microseconds(services.now())
        let presented = Crypto.sha256(secret.utf8)
        let context = AccountContext.clientLogin(tenantID: tenant.id, clientID: id)
        return try await services.pool.transaction(settings: services.requestSettings(context)) { tx in
            guard let row = try await tx.query(CmsClientStatements.credentials, id).first else { return .invalidClient }
            let (failures, lastFailure) = (try row.decode(Int.self, at: 4), try row.decode(Date?.self, at: 5))
            if case .locked(let seconds) = lockout.decide(failures: failures, lastFailureAt: lastFailure, now: now) {
                return .slowedDown(retryAfterSeconds: seconds)
            }
            let current = try row.decode([UInt8].self, at: 0)
            let previous = try row.decode([UInt8]?.self, at: 1)
            let previousUntil = try row.decode(Date?.self, at: 2)
            let revoked = try row.decode(Bool.self, at: 3)
            let matches = Crypto.constantTimeEquals(presented, current)
                || (previous.map { Crypto.constantTimeEquals(presented, $0) } ?? false && (previousUntil.map { $0 > now } ?? false))
            guard matches, !revoked else {
                try await tx.execute(CmsClientStatements.recordFailure, id, now)
                return .invalidClient
            }
            try await tx.execute(CmsClientStatements.resetFailures, id)
            try await tx.execute(CmsClientStatements.removeExpiredTokens, id, now)
            let token = try SessionToken.generate()
            let lifetime = policy.tokenMinutes * 60
            try await tx.execute(CmsClientStatements.issueToken, id, token.storageHash, now, now.addingTimeInterval(Double(lifetime)))
            return .issued(token: token.text, expiresIn: lifetime)
        }
    }

    func authenticate(_ token: SessionToken, tenantID: UUID, at now: Date, in tx: PostgresTransaction) async throws -> ServiceClient? {
        // The AUTHENTICATION context, the lookup and the client's (or the anonymous) context, at once.
        let row = try await tx.query(CmsClientStatements.authenticate, tenantID.uuidString, Crypto.hex(token.storageHash), now).first
        return try row?.decode(UUID?.self, at: 0).map(ServiceClient.init(clientID:))
    }

    /// `date` in whole microseconds, as PostgreSQL keeps it: the back-off is judged against
    /// exactly the time recorded.
    private static func microseconds(_ date: Date) -> Date {
        Date(timeIntervalSinceReferenceDate: (date.timeIntervalSinceReferenceDate * 1e6).rounded() / 1e6)
    }
}
