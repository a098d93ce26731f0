public import Postgres

/// Something that happened in the domain, told to the other modules: `EntryCreated`, `CheckedIn`,
/// `PersonCreated`, ... A module publishes its events; any module may handle them.
///
/// An event is published inside the transaction that made the change, and its handlers run in
/// that same transaction, one after the other, before the publisher goes on: a reward, a
/// notification or an audit row a handler writes commits with the change or rolls back with it,
/// and a handler that throws fails the request that published (nothing is kept).
///
/// Events carry ids and small values, never content (no entry's text): they are what a later
/// `NOTIFY` will send to live listeners, which re-read what they may see under their own
/// row-level security. Hence `Codable`.
///
/// Adding an event: declare a struct next to the module that publishes it, publish it with
/// ``ResolverContext/publish(_:in:)`` after the change; another module handles it with
/// `module.on(TheEvent.self) { event, context in ... }` in its `register` (docs/modules.md).
public protocol DomainEvent: Codable, Sendable {
    /// The event's name in logs and notifications: `entryCreated`.
    static var name: String { get }
}

/// What an event's handler gets: where and for whom the change happened, and the transaction it
/// happened in, to write its own rows.
public struct EventContext: Sendable {
    public let tenant: Tenant
    /// Who made the change; nil for work of the server itself (a purge, an escalation).
    public let viewer: Viewer?
    public let services: DomainServices
    /// The transaction of the change, in the context of whoever made it.
    public let transaction: PostgresTransaction
    /// The request's notes, where a handler leaves what the response's fields show of what it
    /// did (``RequestNotes``); a fresh one when no request published.
    public let notes: RequestNotes
    /// The id of the request that published the event (its `X-Request-Id`); nil for the server's own work.
    public let requestID: String?
    let bus: EventBus

    public init(
        tenant: Tenant, viewer: Viewer?, services: DomainServices, transaction: PostgresTransaction, bus: EventBus,
        notes: RequestNotes = RequestNotes(), requestID: String? = nil
    ) {
        self.tenant = tenant
        self.viewer = viewer
        self.services = services
        self.transaction = transaction
        self.bus = bus
        self.notes = notes
        self.requestID = requestID
    }

    /// Publishes a further event from a handler, in the same transaction and request.
    public func publish<Event: DomainEvent>(_ event: Event) async throws {
        try await bus.publish(event, context: self)
    }
}

/// The handlers modules registered, by event type, in the order the modules are composed.
public struct EventHandlers: Sendable {
    typealias Handler = @Sendable (any DomainEvent, EventContext) async throws -> Void

    private var byType: [ObjectIdentifier: [Handler]] = [:]

    public init() {}

    mutating func add<Event: DomainEvent>(_ type: Event.Type, _ handler: @escaping @Sendable (Event, EventContext) async throws -> Void) {
        byType[ObjectIdentifier(type), default: []].append { event, context in
            try await handler(event as! Event, context)
        }
    }

    /// These handlers, then `other`'s.
    package mutating func append(_ other: EventHandlers) {
        byType.merge(other.byType) { $0 + $1 }
    }

    func handlers<Event: DomainEvent>(of type: Event.Type) -> [Handler] {
        byType[ObjectIdentifier(type)] ?? []
    }
}

/// The handlers of a tenant's modules: what publishing an event runs.
public struct EventBus: Sendable {
    let handlers: EventHandlers

    public init(_ handlers: EventHandlers = EventHandlers()) {
        self.handlers = handlers
    }

    /// Runs every handler of `event`'s type, in order, in the context's transaction.
    public func publish<Event: DomainEvent>(_ event: Event, context: EventContext) async throws {
        for handler in handlers.handlers(of: Event.self) {
            try await handler(event, context)
        }
    }
}
