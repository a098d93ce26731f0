import Foundation
import GraphQL
import Logging
import Postgres
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

// Issue 11, the safety alert: a young person asks for help; each of their social workers is told
// and acts on it, with notes the young person never reads; what nobody acknowledges in time goes
// to the agency admins, by the server's escalation, driven by the database and tested with a
// moved clock; the message is never refused; anyone reads the helplines. Over HTTP with a real
// PostgreSQL.

@Suite("Safety alerts over HTTP")
struct SafetyHTTPTests {
    /// The tenant of this test, as the server's background jobs read it.
    static func tenant(_ h: AccountsHarness) async throws -> Tenant {
        try #require(try await TenantStore(pool: h.app).all().first { $0.id == h.tenant.id })
    }

    @Test func raisingTellsEachSocialWorkerWhoActsOnItAndTheYoungPersonSeesThatSomeoneHas() async throws {
        try await withAccounts { h in
            let (admin, sam, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy))
            let (ivy, dora, carl) = try await (h.cast(.ivy), h.cast(.dora), h.cast(.carl))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(sam, ivy, .socialWorker, admin: admin)
            try await h.assign(sam, dora, .otherProfessional, admin: admin)
            try await h.assign(sam, carl, .carer, admin: admin)

            let raised = try await h.raiseAlert("I don't feel safe at home tonight", as: sam)
            #expect(raised["status"] == .string("OPEN"))
            #expect(raised["message"] == .string("I don't feel safe at home tonight"))
            #expect(raised["acknowledgedAt"] == .null)
            // Each social worker is told who, never what; nobody else is.
            for worker in [wendy, ivy] {
                let told = try await h.notices(of: worker)
                #expect(told.map(\.kind) == ["safetyAlertRaised"])
                #expect(told.first?.title == "Sam has raised a safety alert")
                #expect(told.first?.subject == raised.id)
                #expect(told.first?.actor == sam.idValue.stringValue)
            }
            for person in [dora, carl, admin] {
                #expect(try await h.notices(of: person).isEmpty)
            }

            let open = try await h.data(SafetyHTTP.alerts, "safetyAlerts", ["s": .string("OPEN")], as: wendy).listValue ?? []
            #expect(open.map(\.id) == [raised.id])
            #expect(open.first?["message"] == raised["message"])
            #expect(open.first?["youngPerson"] == .object(["id": sam.idValue, "displayName": .string("Sam")]))
            #expect(open.first?["notes"] == .list([]))

            let acknowledged = try await h.data(
                SafetyHTTP.acknowledge, "acknowledgeSafetyAlert", ["id": raised["id"]!, "n": .string("Called Sam, going round now")], as: wendy)
            #expect(acknowledged["status"] == .string("ACKNOWLEDGED"))
            #expect(acknowledged["acknowledgedBy"] == .object(["id": wendy.idValue, "displayName": .string("Wendy Walker")]))
            #expect(acknowledged["notes"]?.listValue?.map { $0["note"] } == [.string("Called Sam, going round now")])
            #expect(try await h.data(SafetyHTTP.alerts, "safetyAlerts", ["s": .string("OPEN")], as: ivy) == .list([]))

            // Sam sees that someone has: status and when, never who or what they wrote.
            let told = try await h.notices(of: sam).filter { $0.kind == "safetyAlertAcknowledged" }
            #expect(told.map(\.title) == ["Someone has seen your safety alert and is on it"])
            let mine = try #require(try await h.data(SafetyHTTP.mine, "mySafetyAlerts", as: sam).listValue?.first)
            #expect(mine["status"] == .string("ACKNOWLEDGED"))
            #expect(mine["acknowledgedAt"] == acknowledged["acknowledgedAt"])
            for field in ["notes { note }", "acknowledgedBy { id }"] {
                let asking = try await h.graphQL("{ mySafetyAlerts { \(field) } }", token: sam.token)
                #expect(asking.errorCode == "GRAPHQL_VALIDATION_FAILED", "\(field)")
            }
            #expect(try await h.graphQL(SafetyHTTP.alerts, token: sam.token).errorCode == "FORBIDDEN")
            #expect(!(try await h.graphQL(SafetyHTTP.mine, token: sam.token).json.contains("going round")))

            // Ivy, the other social worker, reads who acknowledged (a colleague she cannot otherwise
            // see) and resolves it; Sam is not told again.
            let resolved = try await h.data(SafetyHTTP.resolve, "resolveSafetyAlert", ["id": raised["id"]!, "n": .string("Safe with grandparents")], as: ivy)
            #expect(resolved["status"] == .string("RESOLVED"))
            #expect(resolved["acknowledgedBy"]?["displayName"] == .string("Wendy Walker"))
            #expect(resolved["resolvedBy"] == .object(["id": ivy.idValue, "displayName": .string("Ivy Irwin")]))
            #expect(resolved["notes"]?.listValue?.map { $0["action"] } == [.string("ACKNOWLEDGED"), .string("RESOLVED")])
            #expect(try await h.notices(of: sam).filter { $0.kind == "safetyAlertAcknowledged" }.count == 1)
            #expect(try await h.data(SafetyHTTP.mine, "mySafetyAlerts", as: sam).listValue?.first?["status"] == .string("RESOLVED"))
            let all = try await h.data(SafetyHTTP.alerts, "safetyAlerts", as: wendy).listValue ?? []
            #expect(all == [resolved])

            // Resolving an open alert acknowledges it too, and that tells the young person.
            let second = try await h.raiseAlert(nil, as: sam)
            #expect(second["message"] == .null)
            let closed = try await h.data(SafetyHTTP.resolve, "resolveSafetyAlert", ["id": second["id"]!], as: wendy)
            #expect(closed["acknowledgedAt"] == closed["resolvedAt"])
            #expect(closed["notes"]?.listValue?.map { $0["note"] } == [.null, .null])
            #expect(try await h.notices(of: sam).filter { $0.kind == "safetyAlertAcknowledged" }.count == 2)
        }
    }

    @Test func aMessageIsNeverRefused() async throws {
        try await withAccounts { h in
            let sam = try await h.cast(.sam)
            let composed = try h.engine.schemas.schema(for: h.tenant.file)
            #expect(composed.argumentsAdmittingNUL == ["Mutation.raiseSafetyAlert(message:)"])

            let long = String(repeating: "please ", count: 300) + "help"
            let messages: [(GraphQLValue, GraphQLValue)] = [
                (.string("he\u{0}lp \u{0}me"), .string("help me")),
                (.string(long), .string(String(long.prefix(1000)))),
                (.string(" \n "), .null), (.string("\u{0}"), .null), (.null, .null),
            ]
            for (sent, kept) in messages {
                let raised = try await h.raiseAlert(sent.stringValue, as: sam)
                #expect(raised["message"] == kept, "\(sent)")
            }
            // As a literal, with a NUL escaped in it, and with no message at all.
            let literal = try await h.graphQL(#"mutation { raiseSafetyAlert(message: "stuck\u0000 here") { message } }"#, token: sam.token)
            #expect(literal["data"]?["raiseSafetyAlert"]?["message"] == .string("stuck here"), "\(literal.json)")
            let bare = try await h.graphQL("mutation { raiseSafetyAlert { status } }", token: sam.token)
            #expect(bare["data"]?["raiseSafetyAlert"]?["status"] == .string("OPEN"), "\(bare.json)")
            #expect(try await h.data(SafetyHTTP.mine, "mySafetyAlerts", as: sam).listValue?.count == messages.count + 2)
        }
    }

    @Test func anAlertStandsWhenAnotherFieldOfTheRequestFails() async throws {
        try await withAccounts { h in
            let sam = try await h.cast(.sam)
            let response = try await h.graphQL(
                #"mutation { raiseSafetyAlert(message: "help") { id } dismissPrompt(id: "nope") { id } }"#, token: sam.token)
            // The failed non-null field nulls the whole answer, but the alert was kept.
            #expect(response.errorCode == "NOT_FOUND", "\(response.json)")
            #expect(response["data"] == .null)
            let mine = try await h.data(SafetyHTTP.mine, "mySafetyAlerts", as: sam).listValue ?? []
            #expect(mine.map { $0["message"] } == [.string("help")])
        }
    }

    @Test func whatNobodyAcknowledgesGoesToTheAdminsOnceByTheServer() async throws {
        try await withAccounts(tweak: { _, file in file.safety.escalateAfterMinutes = 10 }) { h in
            let admin = try await h.cast(.ada)
            let bea = try await h.person(.agencyAdmin, "bea", displayName: "Bea Boss")
            let gone = try await h.person(.agencyAdmin, "gil", displayName: "Gil Gone")
            let (sam, alex, wendy, carl, ivy) = try await (h.cast(.sam), h.cast(.alex), h.cast(.wendy), h.cast(.carl), h.cast(.ivy))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(alex, carl, .carer, admin: admin)
            try await h.assign(alex, ivy, .socialWorker, admin: admin)
            // Switched off: an admin, and Alex's only social worker (whose assignment still runs).
            for person in [gone, ivy] {
                _ = try await h.data("mutation($p: ID!) { disablePerson(personId: $p) { disabled } }", "disablePerson", ["p": person.idValue], as: admin)
            }
            let tenant = try await Self.tenant(h)
            let start = Date()
            let sams = try await h.raiseAlert(as: sam)
            let alexs = try await h.raiseAlert(as: alex)
            let seen = try await h.raiseAlert(as: sam)
            _ = try await h.data(SafetyHTTP.acknowledge, "acknowledgeSafetyAlert", ["id": seen["id"]!], as: wendy)

            // Before: the admins see nothing and cannot act.
            #expect(try await h.data(SafetyHTTP.alerts, "safetyAlerts", as: admin) == .list([]))
            #expect(try await h.graphQL(SafetyHTTP.acknowledge, ["id": sams["id"]!], token: admin.token).errorCode == "NOT_FOUND")
            // The first round: Alex's, who has no social worker. Then nothing until the tenant's minutes.
            #expect(try await SafetyEscalation.escalate([tenant], pool: h.app, now: start) == 1)
            #expect(try await SafetyEscalation.escalate([tenant], pool: h.app, now: start.addingTimeInterval(9 * 60)) == 0)
            #expect(try await h.data(SafetyHTTP.alerts, "safetyAlerts", as: admin).listValue?.map(\.id) == [alexs.id])

            // The server's job, as `storykeep serve` runs it, with its clock eleven minutes on.
            let clock = h.clock
            let service = BackgroundJobService(
                job: SafetyModule.escalationJob(interval: .milliseconds(50)),
                context: JobContext(
                    pool: h.app, tenants: { [tenant] }, now: { clock.now.addingTimeInterval(11 * 60) }, logger: Logger(label: "escalation-test")))
            let running = Task { try await service.run() }
            var escalated: [String?] = []
            for _ in 0..<200 where escalated.count < 2 {
                try await Task.sleep(for: .milliseconds(50))
                escalated = try await h.data(SafetyHTTP.alerts, "safetyAlerts", as: admin).listValue?.map(\.id) ?? []
            }
            try await Task.sleep(for: .milliseconds(200))  // more rounds: each alert is escalated once
            running.cancel()
            _ = try? await running.value
            #expect(escalated == [alexs.id, sams.id])

            // Each admin not switched off was told once of each, by the server, without the message.
            for person in [admin, bea] {
                let told = try await h.notices(of: person)
                #expect(told.map(\.subject) == [sams.id, alexs.id], "\(person.loginName)")
                #expect(told.allSatisfy { $0.kind == "safetyAlertEscalated" && $0.actor == nil && !$0.title.contains("help") })
                #expect(told.map(\.title) == [
                    "Safety alert from Sam: nobody has acknowledged it yet", "Safety alert from Alex: nobody has acknowledged it yet",
                ])
            }
            // Nor were the people switched off (Ivy not even of Alex's alert).
            for (person, role) in [(gone, PersonRole.agencyAdmin), (ivy, .socialWorker)] {
                let count = try await h.app.transaction(settings: AccountContext.person(tenantID: h.tenant.id, personID: person.id, role: role).settings) { tx in
                    try await tx.query("select count(*) from notifications where kind like 'safety%'")[0].decode(Int.self, at: 0)
                }
                #expect(count == 0, "\(person.loginName)")
            }

            // The admins now act on them; the social worker still sees Sam's, with who acted.
            let escalatedAt = try await h.data(SafetyHTTP.alerts, "safetyAlerts", as: admin).listValue?.first?["escalatedAt"]
            #expect(escalatedAt?.stringValue != nil)
            let acknowledged = try await h.data(SafetyHTTP.acknowledge, "acknowledgeSafetyAlert", ["id": sams["id"]!, "n": .string("On it")], as: bea)
            #expect(acknowledged["acknowledgedBy"]?["displayName"] == .string("Bea Boss"))
            let wendys = try await h.data(SafetyHTTP.alerts, "safetyAlerts", ["s": .string("ACKNOWLEDGED")], as: wendy).listValue ?? []
            #expect(Set(wendys.compactMap(\.id)) == Set([sams.id, seen.id].compactMap { $0 }))
            #expect(try await h.data(SafetyHTTP.alerts, "safetyAlerts", ["s": .string("OPEN")], as: admin).listValue?.map(\.id) == [alexs.id])
            #expect(try await SafetyEscalation.escalate([tenant], pool: h.app, now: start.addingTimeInterval(3600)) == 0)
        }
    }

    @Test func eachFieldIsForItsPeopleAndBadInputChangesNothing() async throws {
        try await withAccounts(tenants: 2) { h in
            let (admin, sam, alex, wendy, ivy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.alex), h.cast(.wendy), h.cast(.ivy))
            let (dora, carl, olly) = try await (h.cast(.dora), h.cast(.carl), h.cast(.olly, tenant: h.tenants[1]))
            let (will, fay) = try await (h.cast(.will, tenant: h.tenants[1]), h.cast(.fay, tenant: h.tenants[1]))
            let ivys = try await h.assign(sam, ivy, .socialWorker, admin: admin)
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(sam, carl, .carer, admin: admin)
            try await h.assign(alex, dora, .socialWorker, admin: admin)
            try await h.assign(olly, will, .socialWorker, admin: fay, tenant: h.tenants[1])
            _ = try await h.data(CaseloadHTTP.endAssignment, "endAssignment", ["id": ivys["id"]!], as: admin)
            let alert = try await h.raiseAlert("Help", as: sam)
            let foreign = try await h.graphQL(SafetyHTTP.raise, ["m": .string("Help")], token: olly.token, tenant: h.tenants[1])
            let foreignID = try #require(foreign["data"]?["raiseSafetyAlert"]?["id"])

            for person in [wendy, carl, admin] {
                #expect(try await h.graphQL(SafetyHTTP.raise, ["m": .string("x")], token: person.token).errorCode == "FORBIDDEN")
            }
            #expect(try await h.graphQL(SafetyHTTP.raise, ["m": .string("x")]).errorCode == "UNAUTHENTICATED")
            for person in [sam, carl] {
                #expect(try await h.graphQL(SafetyHTTP.alerts, token: person.token).errorCode == "FORBIDDEN")
                #expect(try await h.graphQL(SafetyHTTP.acknowledge, ["id": alert["id"]!], token: person.token).errorCode == "FORBIDDEN")
            }
            #expect(try await h.graphQL(SafetyHTTP.mine, token: wendy.token).errorCode == "FORBIDDEN")
            // Staff who do not see it (an ended assignment, another young person's worker, an admin
            // before escalation) find nothing; nor an id of another agency, or none.
            for person in [ivy, dora, admin] {
                #expect(try await h.data(SafetyHTTP.alerts, "safetyAlerts", as: person) == .list([]), "\(person.loginName)")
                for mutation in [SafetyHTTP.acknowledge, SafetyHTTP.resolve] {
                    #expect(try await h.graphQL(mutation, ["id": alert["id"]!], token: person.token).errorCode == "NOT_FOUND")
                }
            }
            for id in [foreignID, .string("nope"), .string(UUID().uuidString.lowercased())] {
                #expect(try await h.graphQL(SafetyHTTP.acknowledge, ["id": id], token: wendy.token).errorCode == "NOT_FOUND", "\(id)")
            }
            for first in [-1, 101] {
                let listed = try await h.graphQL("query($f: Int) { safetyAlerts(first: $f) { id } }", ["f": .int(first)], token: wendy.token)
                #expect(listed.errorExtensions?["field"] == .string("first"))
                let mine = try await h.graphQL("query($f: Int) { mySafetyAlerts(first: $f) { id } }", ["f": .int(first)], token: sam.token)
                #expect(mine.errorExtensions?["field"] == .string("first"))
            }
            // A note past its limit, or with a NUL, is refused and changes nothing.
            for note in [String(repeating: "n", count: 2001), "a\u{0}b"] {
                let refused = try await h.graphQL(SafetyHTTP.acknowledge, ["id": alert["id"]!, "n": .string(note)], token: wendy.token)
                #expect(refused.errorCode == "BAD_USER_INPUT")
                #expect(refused.errorExtensions?["field"] == .string("note"))
            }
            #expect(try await h.data(SafetyHTTP.mine, "mySafetyAlerts", as: sam).listValue?.first?["status"] == .string("OPEN"))
            #expect(try await h.notices(of: sam).filter { $0.kind == "safetyAlertAcknowledged" }.isEmpty)
            // Each step once.
            _ = try await h.data(SafetyHTTP.acknowledge, "acknowledgeSafetyAlert", ["id": alert["id"]!, "n": .string(String(repeating: "n", count: 2000))], as: wendy)
            let twice = try await h.graphQL(SafetyHTTP.acknowledge, ["id": alert["id"]!], token: wendy.token)
            #expect(twice.errorExtensions?["field"] == .string("id"), "\(twice.json)")
            _ = try await h.data(SafetyHTTP.resolve, "resolveSafetyAlert", ["id": alert["id"]!], as: wendy)
            for mutation in [SafetyHTTP.acknowledge, SafetyHTTP.resolve] {
                #expect(try await h.graphQL(mutation, ["id": alert["id"]!], token: wendy.token).errorExtensions?["field"] == .string("id"))
            }
            // The other agency's alert is untouched, and its worker saw none of this one.
            let theirs = try await h.graphQL(SafetyHTTP.alerts, token: will.token, tenant: h.tenants[1])
            #expect(theirs["data"]?["safetyAlerts"]?.listValue?.map(\.id) == [foreignID.stringValue])
            #expect(theirs["data"]?["safetyAlerts"]?.listValue?.first?["status"] == .string("OPEN"))
        }
    }

    @Test func anyoneReadsTheAgencysHelplines() async throws {
        try await withAccounts(tenants: 2, tweak: { index, file in
            guard index == 0 else { return }
            file.safety.helplines = [
                Helpline(name: "Childline", phone: "0800 1111", hours: "24 hours, every day", url: "https://www.childline.org.uk"),
                Helpline(name: "Shout", url: "https://giveusashout.org"),
            ]
        }) { h in
            let query = "{ safety { helplines { name phone hours url } } }"
            let anonymous = try await h.graphQL(query)
            #expect(anonymous["errors"] == nil, "\(anonymous.json)")
            let lines = anonymous["data"]?["safety"]?["helplines"]?.listValue ?? []
            #expect(lines.map { $0["name"] } == [.string("Childline"), .string("Shout")])
            #expect(lines.first == .object([
                "name": .string("Childline"), "phone": .string("0800 1111"), "hours": .string("24 hours, every day"),
                "url": .string("https://www.childline.org.uk"),
            ]))
            #expect(lines.last?["phone"] == .null)
            let sam = try await h.cast(.sam)
            #expect(try await h.data(query, "safety", as: sam)["helplines"]?.listValue?.count == 2)
            let other = try await h.graphQL(query, tenant: h.tenants[1])
            #expect(other["data"]?["safety"]?["helplines"] == .list([]))
        }
    }
}
