import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore
@testable import StorykeepSafety

// The agency's figures (Migrations/0040_figures.sql) at the database: the counting functions
// answer agency admins alone, count within the caller's tenant, and the counting's admission in
// the read policies opens nothing to the app role, whatever it sets.
@Suite("The agency's figures: counts alone, for admins alone")
struct FiguresPolicyTests {
    static let safety = "select raised, acknowledged from agency_figures_safety(current_date - 1, current_date + 1, 'UTC')"

    @Test func anAdminCountsWhatTheyCannotReadAndNobodyElseCounts() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.assignTeams()
            try await db.raiseAlert(t.sam)
            let other = try await db.otherTenant()
            try await db.asPerson(other.sam, of: other) { tx in _ = try await SafetyAlerts(tx).raise(message: "elsewhere") }
            try await db.asPerson(other.sam, of: other) { tx in _ = try await SafetyAlerts(tx).raise(message: "again") }

            // The admin counts the alert (not escalated, so not theirs to read), not the other tenant's two.
            let counted = try await db.asPerson(t.admin) { tx in
                let row = try await tx.query(Self.safety)[0]
                return (try row.decode(Int.self, at: 0), try row.decode(Int.self, at: 1))
            }
            #expect(counted.0 == 1 && counted.1 == 0)
            #expect(try await db.ids(t.admin, "select id from safety_alerts") == [])
            // Setting the counting by hand opens nothing to the app role.
            let read = try await db.asPerson(t.admin) { tx in
                _ = try await tx.query("select set_config('storykeep.counting', 'on', true)")
                return try await tx.query("select count(*) from safety_alerts")[0].decode(Int.self, at: 0)
            }
            #expect(read == 0)
            // After a count, the setting is off again: the admin still reads nothing.
            let after = try await db.asPerson(t.admin) { tx in
                _ = try await tx.query(Self.safety)
                return try await tx.query("select count(*) from safety_alerts")[0].decode(Int.self, at: 0)
            }
            #expect(after == 0)

            // Nobody but an admin counts.
            for person in [t.sam, t.wendy, t.carl] {
                for sql in [
                    Self.safety, "select * from agency_figures_entries(current_date, current_date, 'UTC')",
                    "select agency_figures_shares(current_date, current_date, 'UTC')",
                ] {
                    #expect(await db.attempt(t.context(person), sql) == .failed("42501"), "\(t.roles[person]!): \(sql)")
                }
            }
            // The helper and the flag are not the app role's to call.
            #expect(await db.attempt(t.context(t.admin), "select figures_require_admin()") == .failed("42501"))
            #expect(await db.attempt(t.context(t.admin), "select figures_counting()") == .rows(1))
        }
    }
}
