import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Webhooks for agencies' systems (Schema/webhooks.graphql, Migrations/0028_webhooks.sql): events
// written to the outbox in their own transaction, POSTed by the delivery job (run here round by
// round, as `storykeep serve` runs it, with its clock moved rather than waited for) to a real
// receiver in Python, which checks the signatures with its own hmac.

@Suite struct WebhooksHTTPTests {
    /// The deliveries' fields the tests read back.
    static let deliveries = """
        query($s: WebhookDeliveryStatus) {
          webhookDeliveries(status: $s) { edges { node { id event url status attempts lastStatusCode lastError nextAttemptAt deliveredAt } } }
        }
        """

    /// The delivery job's sender, whose secrets are the receiver's (`HOOK_SECRET`) and none else,
    /// as if the server's environment held that one variable.
    static let dispatch = WebhookDispatch(timeout: .seconds(10)) { $0 == "HOOK_SECRET" ? WebhookReceiver.secret : nil }

    /// The tenants of the harness, as the job reads them.
    static func tenants(_ h: AccountsHarness) async throws -> [Tenant] {
        let all = try await TenantStore(pool: h.app).all()
        return h.tenants.compactMap { tenant in all.first { $0.id == tenant.id } }
    }

    /// The admin's deliveries of `status` (all without one), newest first.
    static func listed(_ h: AccountsHarness, _ status: String? = nil, as admin: TestPerson) async throws -> [GraphQLValue] {
        try await h.data(deliveries, "webhookDeliveries", ["s": status.map(GraphQLValue.string) ?? .null], as: admin).nodes
    }

    @Test func anAlertIsSignedAndRetriedUntilTheReceiverTakesItUnderOneIdAndNoBodySaysWhatWasWritten() async throws {
        let receiver = try await WebhookReceiver()
        defer { receiver.stop() }
        let hooks = WebhookEndpoints([
            Webhook(url: receiver.url("/fail-3/alerts"), events: [.safetyAlertRaised, .safetyAlertEscalated], secretEnv: "HOOK_SECRET"),
            Webhook(url: receiver.url("/shares"), events: [.entryShared], secretEnv: "HOOK_SECRET"),
        ])
        try await withAccounts(tweak: { _, file in file.modules = [.tags, .sharing]; file.webhooks = hooks }) { h in
            let (admin, sam, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            let tenants = try await Self.tenants(h)
            let alert = try await h.raiseAlert("Sam Secret-Words needs help", as: sam)
            let alertID = try #require(alert.id)
            let start = Date()

            // The receiver fails the first three attempts; each next one waits twice as long.
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: start) == .init(failed: 1))
            let failed = try await Self.listed(h, "FAILED", as: admin)
            #expect(failed.count == 1 && failed.first?["attempts"] == .int(1) && failed.first?["lastStatusCode"] == .int(500))
            #expect(failed.first?["lastError"] == .string("HTTP 500") && failed.first?["nextAttemptAt"]?.stringValue != nil)
            // Each round a second after the attempt is due: 30 s, then 60, then 120 after the last.
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: start + 29) == .init())
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: start + 31) == .init(failed: 1))
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: start + 90) == .init())
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: start + 92) == .init(failed: 1))
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: start + 211) == .init())
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: start + 213) == .init(delivered: 1))
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: start + 9000) == .init())

            let delivered = try #require(try await Self.listed(h, "DELIVERED", as: admin).first)
            #expect(delivered["event"] == .string("safetyAlert.raised") && delivered["url"] == .string(receiver.url("/fail-3/alerts")))
            #expect(delivered["attempts"] == .int(4) && delivered["lastStatusCode"] == .int(204) && delivered["lastError"] == .null)
            #expect(delivered["nextAttemptAt"] == .null && delivered["deliveredAt"]?.stringValue != nil)
            let received = try receiver.messages()
            #expect(received.map(\.answered) == [500, 500, 500, 204])
            #expect(received.allSatisfy { $0.verified && $0.id == delivered.id && $0.path == "/fail-3/alerts" })
            #expect(Set(received.map(\.body)).count == 1, "every attempt sends the same bytes")
            #expect(received.map(\.timestamp) == [0, 31, 92, 213].map { String(Int(start.timeIntervalSince1970) + $0) })
            #expect(received.first?.type == "safetyAlert.raised")
            #expect(received.first?.data == ["safetyAlertId": alertID, "youngPersonId": sam.id.uuidString.lowercased()])

            // A share, and the server's escalation, are told too: ids only.
            let entry = try await h.write("My private diary: the words nobody else should read", as: sam)
            try await h.share(entry, with: [wendy], message: "Please read this", as: sam)
            #expect(try await SafetyEscalation.escalate(tenants, pool: h.app, now: start + 3600) == 1)
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: Date() + 3600) == .init(delivered: 2))
            let later = try receiver.messages().dropFirst(4)
            let shared = try #require(later.first { $0.path == "/shares" })
            #expect(shared.type == "entry.shared" && shared.verified)
            #expect(shared.data["entryId"] == entry.stringValue && shared.data["adultId"] == wendy.id.uuidString.lowercased())
            #expect(shared.data["youngPersonId"] == sam.id.uuidString.lowercased() && shared.data["shareId"] != nil)
            let escalated = try #require(later.first { $0.path == "/fail-3/alerts" })
            #expect(escalated.type == "safetyAlert.escalated" && escalated.data["safetyAlertId"] == alertID && escalated.verified)
            for message in try receiver.messages() {
                for secret in ["Secret-Words", "help", "diary", "Please read", "Sam", "Wendy"] {
                    #expect(!message.body.contains(secret), "\(message.body)")
                }
            }

            // Agency admins only.
            for person in [sam, wendy] {
                #expect(try await h.graphQL(Self.deliveries, token: person.token).errorCode == "FORBIDDEN")
            }
            #expect(try await Self.listed(h, as: admin).map { $0["event"]?.stringValue } == [
                "safetyAlert.escalated", "entry.shared", "safetyAlert.raised",
            ])
        }
    }

    @Test func aDeliveryNobodyTakesIsDeadAfterADayAndOneWithoutItsSecretIsNeverSent() async throws {
        let receiver = try await WebhookReceiver()
        defer { receiver.stop() }
        let hooks = WebhookEndpoints([
            Webhook(url: receiver.url("/down/alerts"), events: [.safetyAlertRaised], secretEnv: "HOOK_SECRET"),
            Webhook(url: receiver.url("/unsigned"), events: [.safetyAlertRaised], secretEnv: "HOOK_UNSET"),
        ])
        try await withAccounts(tweak: { _, file in file.webhooks = hooks }) { h in
            let (admin, sam) = try await (h.cast(.ada), h.cast(.sam))
            let tenants = try await Self.tenants(h)
            try await h.raiseAlert(as: sam)
            let start = Date()
            var now = start
            var attempts = 0
            while attempts < 100 {
                let round = try await Self.dispatch.deliver(tenants, pool: h.app, now: now)
                attempts += 1
                if round.dead > 0 {
                    #expect(round == .init(dead: 2))
                    break
                }
                #expect(round == .init(failed: 2))
                now += WebhookDispatch.retryDelay(afterAttempts: attempts)
            }
            // The last attempt within the day; the next would have been past it.
            #expect(now <= start + WebhookDispatch.retryWindow && now + WebhookDispatch.retryDelay(afterAttempts: attempts) > start + 86400)
            #expect((15...25).contains(attempts), "\(attempts) attempts")
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: now + 86400) == .init())

            let dead = try await Self.listed(h, "DEAD", as: admin)
            #expect(dead.count == 2 && dead.allSatisfy { $0["attempts"] == .int(attempts) && $0["nextAttemptAt"] == .null })
            let down = try #require(dead.first { $0["url"]?.stringValue == receiver.url("/down/alerts") })
            #expect(down["lastStatusCode"] == .int(503) && down["lastError"] == .string("HTTP 503"))
            let unsigned = try #require(dead.first { $0["url"]?.stringValue == receiver.url("/unsigned") })
            #expect(unsigned["lastStatusCode"] == .null)
            #expect(unsigned["lastError"] == .string("no usable secret in the environment variable HOOK_UNSET"))
            let received = try receiver.messages()
            #expect(received.count == attempts && received.allSatisfy { $0.path == "/down/alerts" && $0.verified })
            let downID = try #require(down.id)
            #expect(Set(received.map(\.id)) == [downID])
        }
    }

    @Test func aRolledBackChangeSendsNothingAndEachAgencysEventsGoToItsOwnReceiverOnly() async throws {
        let receiver = try await WebhookReceiver()
        defer { receiver.stop() }
        try await withAccounts(
            tenants: 2,
            tweak: { index, file in
                file.webhooks = WebhookEndpoints([
                    Webhook(url: receiver.url("/agency-\(index)"), events: [.safetyAlertRaised], secretEnv: "HOOK_SECRET")
                ])
            }
        ) { h in
            let (admin, sam) = try await (h.cast(.ada), h.cast(.sam))
            let yuri = try await h.person(.youngPerson, "yuri", tenant: h.tenants[1])
            let tenants = try await Self.tenants(h)

            // The alert's row, and so its delivery, written and rolled back.
            struct RolledBack: Error { var written: Int }
            do {
                let settings = AccountContext.person(tenantID: h.tenant.id, personID: sam.id, role: .youngPerson).settings
                try await h.app.transaction(settings: settings) { tx -> Void in
                    try await tx.execute("insert into safety_alerts (tenant_id, young_person_id) values (current_tenant_id(), $1)", sam.id)
                    try await AccountContext.tenantOperator(tenantID: h.tenant.id).enter(on: tx)
                    throw RolledBack(written: try await tx.query("select count(*) from webhook_deliveries")[0].decode(Int.self, at: 0))
                }
                Issue.record("the transaction committed")
            } catch let error as RolledBack {
                #expect(error.written == 1)
            }
            #expect(try await Self.listed(h, as: admin).isEmpty)
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: Date()) == .init())

            let sams = try await h.raiseAlert(as: sam)
            let yuris = try await h.graphQL(SafetyHTTP.raise, ["m": .string("Yuri here")], token: yuri.token, tenant: h.tenants[1])
            #expect(try await Self.dispatch.deliver(tenants, pool: h.app, now: Date()) == .init(delivered: 2))
            let received = try receiver.messages()
            #expect(received.filter { $0.path == "/agency-0" }.map { $0.data["safetyAlertId"] } == [sams.id])
            #expect(received.filter { $0.path == "/agency-1" }.map { $0.data["safetyAlertId"] } == [yuris["data"]?["raiseSafetyAlert"]?.id])
            #expect(try await Self.listed(h, as: admin).map { $0["url"]?.stringValue } == [receiver.url("/agency-0")])
        }
    }
}
