public import Foundation

/// What a committed change tells live subscribers (Migrations/0020_live_events.sql): ids only,
/// never content. Subscribers read what it is about again, as themselves.
public struct LiveEvent: Sendable, Equatable, Decodable {
    /// The channel the database sends them on.
    public static let channel = "storykeep_live"

    public var tenantID: UUID
    /// What happened: a subscription's field name (`notificationAdded`), or what ends a session
    /// (``sessionRevoked``, ``personDisabled``).
    public var kind: String
    /// The row it is about.
    public var id: UUID
    /// The people it is about (a notification's recipient, an alert's young person).
    public var people: [UUID]

    /// A session was ended (logout, password change): `id` is the session.
    public static let sessionRevoked = "sessionRevoked"
    /// A person was disabled: `id` is the person.
    public static let personDisabled = "personDisabled"

    public init(tenantID: UUID, kind: String, id: UUID, people: [UUID]) {
        self.tenantID = tenantID
        self.kind = kind
        self.id = id
        self.people = people
    }

    /// The event of a notification's payload; nil for anything else.
    public init?(payload: String) {
        guard let event = try? JSONDecoder().decode(LiveEvent.self, from: Data(payload.utf8)) else { return nil }
        self = event
    }

    /// Whether the event ends the session `sessionID` of `personID`.
    public func ends(session sessionID: UUID, of personID: UUID) -> Bool {
        (kind == Self.sessionRevoked && id == sessionID) || (kind == Self.personDisabled && id == personID)
    }

    private enum CodingKeys: String, CodingKey {
        case tenantID = "tenant", kind, id, people
    }
}

/// What a live subscriber receives.
public enum LiveDelivery: Sendable, Equatable {
    case event(LiveEvent)
    /// Events may have been missed (the server's listener lost its database connection): read
    /// again what the subscription follows.
    case refetch
}
