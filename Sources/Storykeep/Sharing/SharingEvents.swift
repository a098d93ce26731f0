public import Foundation
public import StorykeepCore

// What sharing tells the other modules (see `DomainEvent`): ids only, never an entry's text, a
// message or a reply. `EntryShared`, which the rewards module pays on, is declared in the core
// (Sources/Storykeep/Core/SharingEvents.swift), so that rewards needs no dependency on sharing.

/// A young person stopped sharing an entry with some adults.
public struct EntryUnshared: DomainEvent {
    public static let name = "entryUnshared"
    public var entryID: UUID
    public var authorID: UUID
    /// Those it is no longer shared with, never empty.
    public var shareeIDs: [UUID]
}

/// An adult saw, for the first time, an entry shared with them.
public struct ShareSeen: DomainEvent {
    public static let name = "shareSeen"
    public var shareID: UUID
    public var entryID: UUID
    public var authorID: UUID
    public var shareeID: UUID
}

/// An adult replied to an entry shared with them (again, when they change their reply).
public struct ShareReplied: DomainEvent {
    public static let name = "shareReplied"
    public var shareID: UUID
    public var entryID: UUID
    public var authorID: UUID
    public var shareeID: UUID
}
