import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore
import StorykeepRewards

// The rewards tables (Migrations/0015_rewards.sql) as direct SQL under the app role: the ledger is
// append-only; only the young person writes their rows; each cause pays once and a day's counter
// stays within its limit whatever a statement says; adults read a young person's ledger only in a
// current assignment and only where the tenant's file shows stars to the team.

@Suite("Rewards: the tables' policies and constraints")
struct RewardsPolicyTests {
    private let pay = """
        insert into star_ledger (tenant_id, person_id, cause, source_id, entry_id, day, stars)
        values (current_tenant_id(), $1, $2, $3, $4, '2026-06-01', $5)
        """

    @Test func theLedgerIsAppendOnlyAndTheYoungPersonsOwn() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            let sam = t.context(t.sam), entry = UUID()
            #expect(await db.attempt(sam, pay, t.sam, "entryCreated", "new-entry", entry, 2) == .rows(1))
            try await db.asPerson(t.sam) { tx in
                try await tx.execute(pay, t.sam, "entryCreated", "new-entry", entry, 2)
            }
            // Never changed, never removed: not by its young person, not by anyone.
            for person in [t.sam, t.admin, t.wendy] {
                #expect(await db.attempt(t.context(person), "update star_ledger set stars = 100") == .failed(insufficientPrivilege))
                #expect(await db.attempt(t.context(person), "delete from star_ledger") == .failed(insufficientPrivilege))
            }
            #expect(await db.attempt(t.operatorContext, "delete from star_ledger") == .failed(insufficientPrivilege))
            for table in ["reward_achievements", "reward_check_in_days", "reward_shared_entries"] {
                #expect(await db.attempt(sam, "delete from \(table)") == .failed(insufficientPrivilege), "\(table)")
            }
            // Only the young person writes their own rows: not for someone else, not as an adult.
            #expect(await db.attempt(sam, pay, t.alex, "entryCreated", "new-entry", UUID(), 2) == .failed(insufficientPrivilege))
            for adult in [t.wendy, t.carl, t.admin] {
                #expect(await db.attempt(t.context(adult), pay, adult, "entryCreated", "new-entry", UUID(), 2) == .failed(insufficientPrivilege))
                #expect(
                    await db.attempt(t.context(adult), "insert into reward_counts values (current_tenant_id(), $1, 'entries', 1)", adult)
                        == .failed(insufficientPrivilege))
            }
            // Nobody else reads it, and another tenant's context sees nothing.
            for person in [t.alex, t.wendy, t.admin] {
                #expect(await db.attempt(t.context(person), "select * from star_ledger") == .rows(0))
            }
            #expect(await db.attempt(t.operatorContext, "select * from star_ledger") == .rows(0))
            let other = try await db.otherTenant()
            #expect(await db.attempt(.person(tenantID: other.id, personID: t.sam, role: .youngPerson), "select * from star_ledger") == .rows(0))
            #expect(await db.attempt(sam, "select * from star_ledger") == .rows(1))
        }
    }

    @Test func eachCausePaysOnceAndCountersKeepTheirLimit() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            let sam = t.context(t.sam), entry = UUID()
            try await db.asPerson(t.sam) { tx in
                try await tx.execute(pay, t.sam, "entryCreated", "new-entry", entry, 2)
                try await tx.execute(pay, t.sam, "checkIn", "daily", nil, 1)
                try await tx.execute(pay, t.sam, "achievement", "first-entry", nil, 3)
                try await tx.execute(pay, t.sam, "unlock", "theme-sunset", nil, -3)
            }
            #expect(await db.attempt(sam, pay, t.sam, "entryCreated", "new-entry", entry, 2) == .failed("23505 star_ledger_once_per_entry"))
            #expect(await db.attempt(sam, pay, t.sam, "checkIn", "daily", nil, 1) == .failed("23505 star_ledger_once_per_day"))
            #expect(await db.attempt(sam, pay, t.sam, "achievement", "first-entry", nil, 3) == .failed("23505 star_ledger_once"))
            #expect(await db.attempt(sam, pay, t.sam, "unlock", "theme-sunset", nil, -3) == .failed("23505 star_ledger_once"))
            // Another rule may pay for the same entry; the same rule for another entry.
            #expect(await db.attempt(sam, pay, t.sam, "entryCreated", "bonus", entry, 1) == .rows(1))
            #expect(await db.attempt(sam, pay, t.sam, "entryShared", "new-entry", entry, 1) == .rows(1))
            // Earning is positive, spending negative; an entry's causes name it, the others do not.
            #expect(await db.attempt(sam, pay, t.sam, "entryCreated", "x", UUID(), -2) == .failed("23514 star_ledger_stars"))
            #expect(await db.attempt(sam, pay, t.sam, "unlock", "x", nil, 2) == .failed("23514 star_ledger_stars"))
            #expect(await db.attempt(sam, pay, t.sam, "streak", "x", nil, 0) == .failed("23514 star_ledger_stars"))
            #expect(await db.attempt(sam, pay, t.sam, "entryCreated", "x", nil, 2) == .failed("23514 star_ledger_entry"))
            #expect(await db.attempt(sam, pay, t.sam, "checkIn", "x", UUID(), 2) == .failed("23514 star_ledger_entry"))
            #expect(await db.attempt(sam, pay, t.sam, "gift", "x", nil, 2) == .failed("23514 star_ledger_cause"))
            // A day's counter never passes its limit, whatever a statement says.
            let counter = "insert into reward_day_payments values (current_tenant_id(), $1, 'new-entry', '2026-06-01', $2, 3)"
            #expect(await db.attempt(sam, counter, t.sam, 3) == .rows(1))
            #expect(await db.attempt(sam, counter, t.sam, 4) == .failed("23514 reward_day_payments_within_limit"))
        }
    }

    @Test func adultsReadAYoungPersonsLedgerOnlyWhereTheTenantShowsIt() async throws {
        for visible in [false, true] {
            try await CaseloadDatabase.run(tenant: { $0.rewards.visibleToTeam = visible }) { db in
                let t = db.tenant
                try await db.asPerson(t.sam) { tx in
                    try await tx.execute(pay, t.sam, "entryCreated", "new-entry", UUID(), 2)
                    try await tx.execute(
                        """
                        insert into reward_achievements (tenant_id, person_id, achievement_id, name, description, icon, stars)
                        values (current_tenant_id(), $1, 'first', 'First', 'The first.', '🌟', 0)
                        """, t.sam)
                }
                let assignment = try await db.assign(t.sam, t.wendy, .socialWorker)
                let wendy = t.context(t.wendy)
                #expect(await db.attempt(wendy, "select * from star_ledger where person_id = $1", t.sam) == .rows(visible ? 1 : 0))
                #expect(try await db.asPerson(t.wendy) { tx in try await RewardStore(tx).balances(of: [t.sam]) } == (visible ? [t.sam: 2] : [:]))
                // Never their achievements or counts, nor to anyone not looking after them now.
                #expect(await db.attempt(wendy, "select * from reward_achievements") == .rows(0))
                #expect(await db.attempt(wendy, "select * from reward_counts") == .rows(0))
                for person in [t.ivy, t.carl, t.alex, t.admin] {
                    #expect(await db.attempt(t.context(person), "select * from star_ledger") == .rows(0))
                }
                try await db.end(assignment)
                #expect(await db.attempt(wendy, "select * from star_ledger") == .rows(0))
            }
        }
    }
}
