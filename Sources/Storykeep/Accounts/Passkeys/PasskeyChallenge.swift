import Foundation
import Postgres
import StorykeepCore

/// A ceremony's challenge as `passkey_challenges` keeps it (Migrations/0045_accounts_passkeys.sql).
struct PasskeyChallenge: Sendable {
    enum Purpose: String, Sendable {
        /// A person adding a passkey.
        case register
        /// A login by passkey alone.
        case login
        /// A login's second step after the right password (`accounts.adultsRequirePasskey`).
        case secondStep = "second_step"
    }

    var purpose: Purpose
    var personID: UUID?
    var userHandle: [UInt8]?

    /// Keeps `challenge` (its hash) for `purpose`, `personID` and `userHandle`, alive until `expiresAt`.
    static func store(
        _ challenge: [UInt8], _ purpose: Purpose, personID: UUID?, userHandle: [UInt8]? = nil, expiresAt: Date, in tx: some PostgresQueryable
    ) async throws {
        try await tx.execute(PasskeyStatements.insertChallenge, Crypto.sha256(challenge), purpose.rawValue, personID, userHandle, expiresAt)
    }

    /// Spends `challenge` if the transaction's context sees it: nil when it does not, or it
    /// expired before `now` (then it is spent all the same).
    static func spend(_ challenge: [UInt8], in tx: some PostgresQueryable, now: Date) async throws -> PasskeyChallenge? {
        guard let row = try await tx.query(PasskeyStatements.spendChallenge, Crypto.sha256(challenge)).first,
            let purpose = Purpose(rawValue: try row.decode(String.self, at: 0)), try row.decode(Date.self, at: 3) > now
        else { return nil }
        return PasskeyChallenge(purpose: purpose, personID: try row.decode(UUID?.self, at: 1), userHandle: try row.decode([UInt8]?.self, at: 2))
    }
}

extension PasskeyChallenge {
    /// Every ten minutes, deletes the challenges that expired unspent (a login begun and left),
    /// each tenant's as its operator, whom the table's policy lets see only expired ones.
    static let purgeJob = BackgroundJob(name: "passkey challenge purge", interval: .seconds(600)) { job in
        let (tenants, now) = (try await job.tenants(), job.now())
        var purged = 0
        for tenant in tenants {
            purged += try await job.pool.transaction(settings: AccountContext.tenantOperator(tenantID: tenant.id).settings) { tx in
                try await tx.execute(PasskeyStatements.purgeChallenges, now)
            }
        }
        return purged > 0 ? ["challenges": "\(purged)", "tenants": "\(tenants.count)"] : nil
    }
}
