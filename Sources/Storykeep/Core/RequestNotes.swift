import Synchronization

/// What the event handlers of one request leave for the fields of its response to read: the
/// rewards module notes the stars an entry earned when it handles ``DomainEvent``s published by
/// `createEntry` or `checkIn`, and `Entry.rewardsEarned` reads them on that mutation's result.
///
/// One per request (``ResolverContext/notes``), handed to every handler the request's events run
/// (``EventContext/notes``); it lives as long as the request, and nothing in it is stored. Each
/// module keys its notes by a type of its own, so no module reads another's. What is noted is
/// what the request's transaction wrote: if a later field fails the request, the transaction
/// rolls back and the response says so with its errors, as for every other field.
public final class RequestNotes: Sendable {
    private let notes = Mutex<[ObjectIdentifier: any Sendable]>([:])

    public init() {}

    /// Changes the note of type `Note`, which `initial` makes when there is none yet.
    public func update<Note: Sendable>(_ initial: @autoclosure () -> Note, _ change: (inout Note) -> Void) {
        notes.withLock { notes in
            var note = notes[ObjectIdentifier(Note.self)] as? Note ?? initial()
            change(&note)
            notes[ObjectIdentifier(Note.self)] = note
        }
    }

    /// The note of type `Note`, if a handler left one.
    public func read<Note: Sendable>(_: Note.Type) -> Note? {
        notes.withLock { $0[ObjectIdentifier(Note.self)] as? Note }
    }
}
