import Foundation
import Postgres
import StorykeepTestSupport
import Testing

/// `PostgresListener`: notifications of committed transactions arrive, in order; a rolled-back
/// one sends nothing; a lost connection is replaced and says so.
@Suite struct ListenerTests {
    /// A channel of this test alone: tests run at the same time on one database.
    func channel() -> String { "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") }

    /// Runs a listener on `channel` as `role`'s URL while `body` runs with its events.
    func listening<T>(
        on channel: String, as variable: String = TestDatabase.appVariable,
        _ body: (AsyncStream<PostgresListenerEvent>.AsyncIterator) async throws -> T
    ) async throws -> T {
        let listener = PostgresListener(
            configuration: .init(connectionString: try TestDatabase.url(variable)), channels: [channel],
            retryDelay: .milliseconds(50), logger: TestDatabase.logger)
        let (events, continuation) = AsyncStream<PostgresListenerEvent>.makeStream()
        let task = Task { await listener.run { continuation.yield($0) } }
        defer { task.cancel() }
        return try await body(events.makeAsyncIterator())
    }

    @Test func committedNotificationsArriveInOrderAndRolledBackOnesDoNot() async throws {
        let channel = channel()
        try await withAppPool(size: 1) { pool in
            try await listening(on: channel) { events in
                var events = events
                #expect(await events.next() == .listening(reconnected: false))
                struct RollBack: Error {}
                _ = try? await pool.transaction { tx in
                    _ = try await tx.query("select pg_notify($1, 'rolled back')", channel)
                    throw RollBack()
                }
                try await pool.transaction { tx in
                    _ = try await tx.query("select pg_notify($1, 'first')", channel)
                    _ = try await tx.query("select pg_notify($1, 'second')", channel)
                }
                try await pool.transaction { tx in _ = try await tx.query("select pg_notify($1, 'third')", channel) }
                var payloads: [String] = []
                while payloads.count < 3, case .notification(let notification)? = await events.next() {
                    #expect(notification.channel == channel)
                    payloads.append(notification.payload)
                }
                #expect(payloads == ["first", "second", "third"])
            }
        }
    }

    @Test func aLostConnectionIsReplacedAndSaysSo() async throws {
        let channel = channel()
        try await TestDatabase.ownerPool(size: 1).closing { pool in
            // As the owner, whose own backends the owner may end.
            try await listening(on: channel, as: TestDatabase.ownerVariable) { events in
                var events = events
                #expect(await events.next() == .listening(reconnected: false))
                try await pool.transaction { tx in
                    let ended = try await tx.query(
                        "select pg_terminate_backend(pid) from pg_stat_activity where query = $1", "LISTEN \(channel)")
                    #expect(ended.count == 1)
                }
                #expect(await events.next() == .listening(reconnected: true))
                try await pool.transaction { tx in _ = try await tx.query("select pg_notify($1, 'after')", channel) }
                guard case .notification(let notification)? = await events.next() else {
                    Issue.record("no notification after the reconnection")
                    return
                }
                #expect(notification.payload == "after")
            }
        }
    }
}
