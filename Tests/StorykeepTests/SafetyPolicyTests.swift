import Foundation
import GraphQL
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore
@testable import StorykeepSafety

// Safety alerts (Migrations/0014_safety.sql) tried as direct SQL under the app role with each
// person's context set, and through SafetyAlerts and SafetyEscalation: who sees an alert and its
// staff notes, who may change what, and the escalation, held by the database without the resolvers.

extension CaseloadDatabase {
    /// Raises an alert as `youngPerson` through SafetyAlerts: its id.
    @discardableResult
    func raiseAlert(_ youngPerson: UUID, _ message: String? = "I need help") async throws -> UUID {
        try await asPerson(youngPerson) { tx in try await SafetyAlerts(tx).raise(message: message).id }
    }

    /// Escalates what is due at `now` in this test's tenant, as the server's job does: how many.
    func escalate(at now: Date) async throws -> Int {
        let tenant = try #require(try await TenantStore(pool: pools.owner).all().first { $0.id == self.tenant.id })
        return try await SafetyEscalation.escalate([tenant], pool: pools.app, now: now)
    }
}

@Suite("Safety alerts: row-level security, staff notes, escalation")
struct SafetyPolicyTests {
    static let alerts = "select id from safety_alerts"
    static let notes = "select alert_id from safety_alert_notes"

    @Test func anAlertIsSeenByItsYoungPersonAndTheirSocialWorkersAndByAdminsOnceEscalated() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            let wendys = try await db.assignTeams().samWendy
            let alert = try await db.raiseAlert(t.sam)

            #expect(try await db.ids(t.sam, Self.alerts) == [alert])
            #expect(try await db.ids(t.wendy, Self.alerts) == [alert])
            // Not a carer, not another young person's worker or the young person, not an admin yet.
            for person in [t.carl, t.ivy, t.alex, t.admin, t.dan] {
                #expect(try await db.ids(person, Self.alerts) == [], "\(t.roles[person]!)")
            }
            try await db.asPerson(t.wendy) { tx in _ = try await SafetyAlerts(tx).acknowledge(id: alert, note: "Calling her now") }
            // The notes: staff who see the alert, never the young person.
            #expect(try await db.ids(t.wendy, Self.notes) == [alert])
            for person in [t.sam, t.carl, t.ivy, t.admin] {
                #expect(try await db.ids(person, Self.notes) == [])
            }
            let own = try await db.asPerson(t.sam) { tx in try await SafetyAlerts(tx).own(first: 10) }
            #expect(own.map(\.status) == [.acknowledged])
            #expect(own.first?.notes == [])

            // Escalated (Alex's alert: Ivy's assignment ended, no social worker), the admin sees it
            // and its notes; Sam's (acknowledged) is never escalated.
            let alexs = try await db.raiseAlert(t.alex)
            try await db.end(try await db.asPerson(t.admin) { tx in try await Caseload(tx).history(of: t.alex)[0].id })
            #expect(try await db.escalate(at: Date().addingTimeInterval(3600)) == 1)
            #expect(try await db.ids(t.admin, Self.alerts) == [alexs])
            try await db.asPerson(t.admin) { tx in _ = try await SafetyAlerts(tx).resolve(id: alexs, note: "Spoke to the carer") }
            #expect(try await db.ids(t.admin, Self.notes) == [alexs])
            #expect(try await db.ids(t.ivy, Self.alerts) == [], "Ivy's assignment ended")

            // Once Wendy no longer looks after Sam, she sees nothing of Sam's alerts.
            try await db.end(wendys)
            #expect(try await db.ids(t.wendy, Self.alerts) == [])
            #expect(try await db.ids(t.wendy, Self.notes) == [])
        }
    }

    @Test func anotherTenantSeesNothingWhateverItClaims() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.assign(t.sam, t.wendy, .socialWorker)
            let alert = try await db.raiseAlert(t.sam)
            let other = try await db.otherTenant()
            for person in [other.admin, other.sam, other.wendy] {
                #expect(try await db.ids(person, Self.alerts, of: other) == [])
            }
            for claim in [
                AccountContext.person(tenantID: other.id, personID: t.wendy, role: .socialWorker),
                AccountContext.tenantOperator(tenantID: other.id),
            ] {
                #expect(await db.attempt(claim, "select * from safety_alerts where id = $1", alert) == .rows(0))
                #expect(await db.attempt(claim, "update safety_alerts set escalated_at = now() where id = $1", alert) == .rows(0))
            }
        }
    }

    @Test func eachPersonChangesOnlyWhatIsTheirsToChange() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.assignTeams()
            let alert = try await db.raiseAlert(t.sam)
            let raise = "insert into safety_alerts (tenant_id, young_person_id, message) values (current_tenant_id(), $1, 'help')"
            // Raised by a young person, for themselves, open and now.
            #expect(await db.attempt(t.context(t.alex), raise, t.sam) == .failed(insufficientPrivilege))
            #expect(await db.attempt(t.context(t.wendy), raise, t.sam) == .failed(insufficientPrivilege))
            for column in ["raised_at", "escalated_at", "acknowledged_at"] {
                let sql = "insert into safety_alerts (tenant_id, young_person_id, \(column)) values (current_tenant_id(), $1, now() - interval '1 hour')"
                #expect(await db.attempt(t.context(t.sam), sql, t.sam) == .failed(insufficientPrivilege), "\(column)")
            }
            let acknowledge = "update safety_alerts set status = 'ACKNOWLEDGED', acknowledged_by = $2, acknowledged_at = now() where id = $1"
            // Not the young person, a carer, another young person's worker, or an admin before escalation.
            for person in [t.sam, t.carl, t.ivy, t.admin] {
                #expect(await db.attempt(t.context(person), acknowledge, alert, person) == .rows(0), "\(t.roles[person]!)")
            }
            #expect(await db.attempt(t.context(t.wendy), acknowledge, alert, t.ivy) == .failed("23514 safety_alerts_history"), "in another's name")
            #expect(await db.attempt(t.context(t.wendy), "update safety_alerts set escalated_at = now() where id = $1", alert) == .failed("23514 safety_alerts_history"))
            #expect(await db.attempt(t.context(t.wendy), "update safety_alerts set message = 'changed' where id = $1", alert) == .failed(insufficientPrivilege))
            #expect(await db.attempt(t.context(t.wendy), "delete from safety_alerts where id = $1", alert) == .failed(insufficientPrivilege))
            #expect(await db.attempt(t.operatorContext, acknowledge, alert, nil as UUID?) == .failed("23514 safety_alerts_acknowledged"), "the operator")

            try await db.asPerson(t.wendy) { tx in _ = try await SafetyAlerts(tx).resolve(id: alert, note: nil) }
            // Forward only, each step once.
            for change in [
                "status = 'OPEN', acknowledged_by = null, acknowledged_at = null, resolved_by = null, resolved_at = null",
                "status = 'ACKNOWLEDGED', resolved_by = null, resolved_at = null", "resolved_at = now()",
            ] {
                let outcome = await db.attempt(t.context(t.wendy), "update safety_alerts set \(change) where id = $1", alert)
                #expect(outcome == .failed("23514 safety_alerts_history"), "\(change)")
            }
            // Notes: by staff who see the alert, in their own name and the name they go by.
            let note = "insert into safety_alert_notes (tenant_id, alert_id, author_id, author_name, action, note) values (current_tenant_id(), $1, $2, $3, 'RESOLVED', 'x')"
            #expect(await db.attempt(t.context(t.wendy), note, alert, t.wendy, "Wendy Walker") == .rows(1))
            let refused: [(String, UUID, UUID, String)] = [
                ("a forged name", t.wendy, t.wendy, "The Director"), ("another's name", t.wendy, t.ivy, "Ivy Irwin"),
                ("the young person", t.sam, t.sam, "Sam Smith"), ("a carer", t.carl, t.carl, "Carl Carter"),
                ("another young person's worker", t.ivy, t.ivy, "Ivy Irwin"), ("an admin before escalation", t.admin, t.admin, "Ada Admin"),
            ]
            for (what, actor, author, name) in refused {
                #expect(await db.attempt(t.context(actor), note, alert, author, name) == .failed(insufficientPrivilege), "\(what)")
            }
            #expect(await db.attempt(t.context(t.wendy), "update safety_alert_notes set note = 'changed'") == .failed(insufficientPrivilege))
            #expect(await db.attempt(t.context(t.wendy), "delete from safety_alert_notes") == .failed(insufficientPrivilege))
        }
    }

    @Test func escalationIsOnceAfterTheMinutesOrAtOnceWithoutASocialWorker() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.assign(t.sam, t.wendy, .socialWorker)
            try await db.assign(t.alex, t.carl, .carer)
            let now = Date()
            let sams = try await db.raiseAlert(t.sam)
            let alexs = try await db.raiseAlert(t.alex)
            let seen = try await db.raiseAlert(t.sam, nil)
            try await db.asPerson(t.wendy) { tx in _ = try await SafetyAlerts(tx).acknowledge(id: seen, note: nil) }

            // Alex has a carer but no social worker: escalated at the first round.
            #expect(try await db.escalate(at: now) == 1)
            #expect(try await db.ids(t.admin, Self.alerts) == [alexs])
            #expect(try await db.escalate(at: now.addingTimeInterval(14 * 60)) == 0)
            // Sam's, unacknowledged for the tenant's 15 minutes; once.
            #expect(try await db.escalate(at: now.addingTimeInterval(16 * 60)) == 1)
            #expect(try await db.escalate(at: now.addingTimeInterval(60 * 60)) == 0)
            #expect(try await db.ids(t.admin, Self.alerts) == [alexs, sams])
            // Every admin was told of each (one admin here), by the server (no actor), never the message.
            let told = try await db.asPerson(t.admin) { tx in
                try await tx.query("select subject_id, kind, title, actor_id is null from notifications order by created_at").map {
                    (try $0.decode(UUID.self, at: 0), try $0.decode(String.self, at: 1), try $0.decode(String.self, at: 2), try $0.decode(Bool.self, at: 3))
                }
            }
            #expect(told.map(\.0) == [alexs, sams])
            #expect(told.allSatisfy { $0.1 == "safetyAlertEscalated" && $0.3 && !$0.2.contains("I need help") })
            #expect(told.map(\.2) == ["Safety alert from Alex Jones: nobody has acknowledged it yet", "Safety alert from Sam Smith: nobody has acknowledged it yet"])
        }
    }

    @Test func aMessageIsCleanedNeverRefused() {
        #expect(SafetyAlerts<PostgresTransaction>.cleanMessage(nil) == nil)
        #expect(SafetyAlerts<PostgresTransaction>.cleanMessage(" \n\t ") == nil)
        #expect(SafetyAlerts<PostgresTransaction>.cleanMessage("\u{0}") == nil)
        #expect(SafetyAlerts<PostgresTransaction>.cleanMessage("  he\u{0}lp \u{0}me ") == "help me")
        let combined = String(repeating: "e\u{301}", count: 600)
        let cut = SafetyAlerts<PostgresTransaction>.cleanMessage(combined)
        #expect(cut.map(TextLimit.length) == 1000)
        #expect(cut?.count == 500)
        // A character is never split: 999 code points, then a flag of two, is cut before the flag.
        let flagged = String(repeating: "a", count: 999) + "🇬🇧"
        #expect(SafetyAlerts<PostgresTransaction>.cleanMessage(flagged) == String(repeating: "a", count: 999))
        #expect(SafetyAlerts<PostgresTransaction>.cleanMessage(String(repeating: "x", count: 100_000)).map(TextLimit.length) == 1000)
    }

    @Test func theTenantFileSaysWhoToCallAndWhenToEscalate() throws {
        let file = { (yaml: String) throws(TenantFileError) in try TenantFiles.decode(minimalTenantYAML + yaml, file: "tenants/sample.yaml") }
        #expect(try file("").safety == SafetyPolicy(helplines: [], escalateAfterMinutes: 15))
        let full = try file(
            """

            safety:
              escalateAfterMinutes: 5
              helplines:
                - { name: Childline, phone: "0800 1111", hours: "24 hours, every day", url: "https://www.childline.org.uk" }
                - { name: Shout, url: "https://giveusashout.org" }
            """)
        #expect(full.safety.escalateAfterMinutes == 5)
        #expect(full.safety.helplines.map(\.name) == ["Childline", "Shout"])
        #expect(full.safety.helplines.last?.phone == nil)
        let demo = try TenantFiles.load(file: repositoryRoot.appendingPathComponent("tenants/demo.yaml").path)
        #expect(demo.safety.helplines.map(\.name).contains("Childline"))
        let refused: [(String, String)] = [
            ("safety: { escalateAfterMinutes: 0 }", "safety.escalateAfterMinutes"),
            ("safety: { escalateAfterMinutes: 1441 }", "safety.escalateAfterMinutes"),
            ("safety: { helplines: [{ name: Nobody }] }", "safety.helplines[0].phone"),
            ("safety: { helplines: [{ name: \" \", phone: \"116 123\" }] }", "safety.helplines[0].name"),
            ("safety: { helplines: [{ name: Sam, phone: call me }] }", "safety.helplines[0].phone"),
            ("safety: { helplines: [{ name: Sam, url: \"javascript:alert(1)\" }] }", "safety.helplines[0].url"),
            ("safety: { helplines: [{ name: Sam, phone: \"116 123\", email: a@b.c }] }", "safety.helplines[0].email"),
            ("safety: { escalate: 5 }", "safety.escalate"),
        ]
        for (yaml, keyPath) in refused {
            do {
                _ = try file("\n" + yaml + "\n")
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error.keyPath == keyPath, "\(yaml): \(error)")
            }
        }
    }
}
