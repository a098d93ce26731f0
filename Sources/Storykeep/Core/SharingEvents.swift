public import Foundation

/// A young person shared an entry with some adults of their team (those it was not shared with
/// already): published by the sharing module, paid for by the rewards module's `entryShared`
/// rules.
///
/// Declared in the core rather than beside its publisher, so that rewards handles it without
/// depending on sharing's target (and sharing publishes it without knowing of rewards).
public struct EntryShared: DomainEvent {
    public static let name = "entryShared"
    public var entryID: UUID
    public var authorID: UUID
    /// Those it is newly shared with, never empty.
    public var shareeIDs: [UUID]

    public init(entryID: UUID, authorID: UUID, shareeIDs: [UUID]) {
        self.entryID = entryID
        self.authorID = authorID
        self.shareeIDs = shareeIDs
    }
}
