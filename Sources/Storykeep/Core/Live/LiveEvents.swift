public import Foundation
public import GraphQL
public import Postgres
import Synchronization

/// The server's live subscribers and what they follow: the server's listener hands it every
/// event the database sends (``receive(payload:)``) and says when events may have been missed
/// (``refetchAll()``); each subscriber gets the events of its tenant that it follows, in order.
///
/// A subscriber that does not keep up is not buffered for without bound: once `bufferLimit`
/// deliveries wait for it, its stream ends with ``SlowConsumer``.
public final class LiveEvents: Sendable {
    /// A subscriber's stream ended because it fell `bufferLimit` deliveries behind.
    public struct SlowConsumer: Error {}

    private struct Subscriber {
        var kinds: Set<String>
        var follows: @Sendable (LiveEvent) -> Bool
        var continuation: SourceEventStream.Continuation
    }

    public let bufferLimit: Int
    /// Subscribers by tenant, then by a number of their own.
    private let subscribers = Mutex<[UUID: [Int: Subscriber]]>([:])
    private let nextNumber = Atomic<Int>(0)

    public init(bufferLimit: Int = 256) {
        self.bufferLimit = bufferLimit
    }

    /// A stream of the ``LiveDelivery``s for a subscriber of `tenantID`: the events of `kinds`
    /// that `follows` accepts, and every ``LiveDelivery/refetch``. It ends when its consumer
    /// stops (the stream is released or its task cancelled).
    public func stream(
        tenantID: UUID, kinds: Set<String>, follows: @escaping @Sendable (LiveEvent) -> Bool = { _ in true }
    ) -> SourceEventStream {
        let number = nextNumber.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = SourceEventStream.makeStream(bufferingPolicy: .bufferingOldest(bufferLimit))
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { $0[tenantID]?[number] = nil }
        }
        subscribers.withLock { $0[tenantID, default: [:]][number] = Subscriber(kinds: kinds, follows: follows, continuation: continuation) }
        return stream
    }

    /// How many subscribers there are now.
    public var count: Int { subscribers.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// What the server's ``PostgresListener`` on ``LiveEvent/channel`` reports: a notification's
    /// event to its subscribers, and, after the listener's connection was replaced, a refetch
    /// to all.
    public func handle(_ event: PostgresListenerEvent) {
        switch event {
        case .notification(let notification): receive(payload: notification.payload)
        case .listening(let reconnected): if reconnected { refetchAll() }
        }
    }

    /// Hands the event of a `storykeep_live` payload to the subscribers that follow it; a payload
    /// that is no event is ignored.
    public func receive(payload: String) {
        guard let event = LiveEvent(payload: payload) else { return }
        deliver(.event(event), in: event.tenantID) { subscriber in
            subscriber.kinds.contains(event.kind) && subscriber.follows(event)
        }
    }

    /// Tells every subscriber to read again what it follows.
    public func refetchAll() {
        let tenants = subscribers.withLock { Array($0.keys) }
        for tenant in tenants { deliver(.refetch, in: tenant) { _ in true } }
    }

    private func deliver(_ delivery: LiveDelivery, in tenantID: UUID, to accepts: (Subscriber) -> Bool) {
        let chosen = subscribers.withLock { $0[tenantID]?.values.filter(accepts) ?? [] }
        for subscriber in chosen {
            // The buffer holds `bufferLimit`: a delivery dropped is one too many.
            if case .dropped = subscriber.continuation.yield(delivery) {
                subscriber.continuation.finish(throwing: SlowConsumer())
            }
        }
    }
}
