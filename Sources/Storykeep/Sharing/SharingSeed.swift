import Foundation
import Postgres
public import StorykeepCore

/// The shares of `storykeep seed`: every young person shares some of their entries with the
/// social worker the caseload's seed gave them (which runs before this one), spread over their
/// whole journal, every tenth with a message; the social worker has seen all but the newest
/// three in ten of each young person's.
///
/// Written as the policies of Migrations/0012_sharing.sql ask of anyone: each young person's
/// shares in their own context (one statement each), each social worker's seeing in theirs.
extension SharingModule {
    public var seedSettings: [String: String] {
        [
            "sharesPerYoungPerson": "entries each young person shares with their social worker: every k-th of their "
                + "live entries from the newest, as many as they have up to this (default 20; 0-100000)",
        ]
    }

    /// What a seeded share says, when it says something.
    static let seedMessages = [
        "I wanted you to see this one.",
        "Can we talk about this next time?",
        "This was a good day.",
    ]

    public func seed(_ tenant: ModuleSeedTenant) async throws -> [String: Int] {
        let perYoungPerson = try tenant.setting("sharesPerYoungPerson", in: 0...100_000, module: name, default: 20)
        guard perYoungPerson > 0 else { return [:] }
        return try await tenant.pool.transaction(settings: AccountContext.anonymous(tenantID: tenant.id).settings) { tx in
            var shares = 0, seen = 0
            for person in tenant.people(.youngPerson) {
                try await AccountContext.person(tenantID: tenant.id, personID: person.id, role: person.role).enter(on: tx)
                shares += try await tx.query(ShareStatements.seedShares, perYoungPerson, Self.seedMessages)[0].decode(Int.self, at: 0)
            }
            for worker in tenant.people(.socialWorker) {
                try await AccountContext.person(tenantID: tenant.id, personID: worker.id, role: worker.role).enter(on: tx)
                seen += try await tx.query(ShareStatements.seedSeen)[0].decode(Int.self, at: 0)
            }
            return ["shares": shares, "seen": seen]
        }
    }
}
