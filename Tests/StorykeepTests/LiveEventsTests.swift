import Foundation
import GraphQL
import Postgres
import StorykeepCore
import Testing

/// ``LiveEvents``, the server's subscribers: who gets which event, refetch after a reconnection,
/// and a subscriber that does not read its events.
@Suite struct LiveEventsTests {
    let tenant = UUID()
    let sam = UUID()

    func payload(_ kind: String, tenant: UUID? = nil, people: [UUID]) -> String {
        let ids = people.map { "\"\($0.uuidString.lowercased())\"" }.joined(separator: ",")
        return #"{"tenant":"\#((tenant ?? self.tenant).uuidString.lowercased())","kind":"\#(kind)","id":"\#(UUID().uuidString)","people":[\#(ids)]}"#
    }

    @Test func aSubscriberGetsTheEventsOfItsTenantAndKindsThatItFollows() async throws {
        let live = LiveEvents()
        let sams = live.stream(tenantID: tenant, kinds: ["notificationAdded"]) { $0.people.contains(self.sam) }
        live.handle(.notification(PostgresNotification(channel: LiveEvent.channel, payload: payload("notificationAdded", people: [UUID()]), senderPID: 1)))
        live.receive(payload: payload("notificationAdded", tenant: UUID(), people: [sam]))
        live.receive(payload: payload("safetyAlertChanged", people: [sam]))
        live.receive(payload: "not an event")
        live.receive(payload: payload("notificationAdded", people: [sam]))
        live.handle(.listening(reconnected: false))
        live.handle(.listening(reconnected: true))
        var iterator = sams.makeAsyncIterator()
        guard case .event(let event)? = try await iterator.next() as? LiveDelivery else {
            Issue.record("no event")
            return
        }
        #expect(event.kind == "notificationAdded" && event.people == [sam] && event.tenantID == tenant)
        #expect(try await iterator.next() as? LiveDelivery == .refetch)
    }

    @Test func aSubscriberThatFallsBehindIsEndedNotBufferedFor() async throws {
        let live = LiveEvents(bufferLimit: 2)
        let stream = live.stream(tenantID: tenant, kinds: ["notificationAdded"])
        for _ in 0..<3 { live.receive(payload: payload("notificationAdded", people: [sam])) }
        var received = 0
        await #expect(throws: LiveEvents.SlowConsumer.self) {
            for try await _ in stream { received += 1 }
        }
        #expect(received == 2)
        #expect(live.count == 0)
    }
}
