import GraphQL

/// A field of `Subscription`, as a module registers it (``ModuleRegistry/subscription(_:access:concerns:_:)``):
/// who may subscribe, which ``LiveEvent``s it follows, and how an event becomes the field's value
/// for one subscriber.
public struct LiveSubscriptionField: Sendable {
    public var access: FieldAccess
    /// The event kinds it follows.
    public var kinds: Set<String>
    /// Whether an event may concern the subscriber, judged from its ids alone (a notification's
    /// recipient): a cheap filter before the database is asked.
    public var concerns: @Sendable (LiveEvent, Viewer) -> Bool
    /// The field's value for the event, read in the subscriber's transaction, as them (so under
    /// their row-level security); nil when they do not see it: they are sent nothing.
    public var load: @Sendable (LiveEvent, ResolverContext) async throws -> (any Sendable)?
}

extension ModuleRegistry {
    /// `Subscription.<name>`, following the events of kind `name` (Migrations/0020_live_events.sql
    /// sends them): `load` reads what one is about as the subscriber, or nil when they do not see
    /// it; `concerns` passes on only events that may be the subscriber's (by default, all of the
    /// tenant's).
    public mutating func subscription(
        _ name: String, access: FieldAccess,
        concerns: @escaping @Sendable (LiveEvent, Viewer) -> Bool = { _, _ in true },
        _ load: @escaping @Sendable (LiveEvent, ResolverContext) async throws -> (any Sendable)?
    ) {
        subscriptions["Subscription." + name] = LiveSubscriptionField(access: access, kinds: [name], concerns: concerns, load: load)
    }
}
