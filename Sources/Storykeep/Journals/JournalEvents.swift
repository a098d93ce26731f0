public import Foundation
public import GraphQL
public import Postgres
public import StorykeepCore

// What the journal tells the other modules (see `DomainEvent`): ids and small values, never an
// entry's text. (The coerced input of a write, text included, is there for the handlers of the
// same request only: it is left out of what an event encodes.)

/// A young person wrote a new entry (not a check-in: that is ``CheckedIn``).
public struct EntryCreated: DomainEvent {
    public static let name = "entryCreated"
    public var entryID: UUID
    public var authorID: UUID
    /// The day the entry is about.
    public var day: PostgresDate
    public var kind: EntryKind
    /// The `EntryInput` as the schema coerced it, with the fields other modules add to it
    /// (`promptId`, from prompts): for handlers in the request, never sent on (not `Codable`).
    public var input: GraphQLObject = [:]

    private enum CodingKeys: String, CodingKey { case entryID, authorID, day, kind }
}

/// An entry was changed by its author.
public struct EntryUpdated: DomainEvent {
    public static let name = "entryUpdated"
    public var entryID: UUID
    public var authorID: UUID
    /// The `EntryInput` as the schema coerced it (see ``EntryCreated/input``).
    public var input: GraphQLObject = [:]

    private enum CodingKeys: String, CodingKey { case entryID, authorID }
}

/// An entry was deleted: it is in the archive, restorable until purged.
public struct EntryArchived: DomainEvent {
    public static let name = "entryArchived"
    public var entryID: UUID
    public var authorID: UUID
}

/// A young person checked in with their mood for a day (the first time that day, or again).
public struct CheckedIn: DomainEvent {
    public static let name = "checkedIn"
    /// The day's MOOD entry.
    public var entryID: UUID
    public var personID: UUID
    /// The day, in the tenant's time zone.
    public var day: PostgresDate
    public var mood: String
}
