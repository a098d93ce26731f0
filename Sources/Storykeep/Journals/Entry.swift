import Foundation
import StorykeepCore
import Postgres

/// What an entry mainly is; the apps choose how to show it. Any kind may carry text and media
/// (a TEXT entry can gain a photo later, and vice versa).
public enum EntryKind: String, Sendable, Hashable, CaseIterable, Codable {
    case text = "TEXT"
    case audio = "AUDIO"
    case video = "VIDEO"
    case drawing = "DRAWING"
    case image = "IMAGE"
    /// A daily mood check-in: one a day per person (see `CheckInStore`), always with a mood.
    case mood = "MOOD"
}

/// One entry of a young person's journal, with its media in order (its tags are the tags
/// module's to tell).
public struct Entry: Sendable, Hashable, Identifiable {
    public let id: UUID
    /// The day the entry is about, which may differ from when it was written.
    public var day: PostgresDate
    public var kind: EntryKind
    public var text: String?
    /// A label of the person's mood icons.
    public var mood: String?
    /// A colour or pattern name the apps know.
    public var background: String?
    /// The smart-suggestion prompt the entry answers.
    public var suggestion: String?
    /// The entry's files, in the order the person gave them.
    public var media: [MediaInfo]
    public var createdAt: Date
    public var updatedAt: Date
    /// When the entry was deleted into the archive; `nil` for a live entry.
    public var archivedAt: Date?
}

/// A stored file's description, without its bytes.
public struct MediaInfo: Sendable, Hashable, Identifiable {
    public let id: UUID
    /// The type its bytes were recognised as (see `MediaSniffer`), not the one the client declared.
    public var contentType: String
    public var byteSize: Int
    /// The SHA-256 of the bytes, computed by the database (the HTTP `ETag`).
    public var sha256: [UInt8]
    public var createdAt: Date

    /// The SHA-256 in lowercase hexadecimal (the API's `sha256`, the HTTP `ETag`).
    public var sha256Hex: String { Crypto.hex(sha256) }
}

/// What a person writes: the whole of an entry (create), or what it becomes (update).
public struct EntryInput: Sendable, Hashable {
    /// Required; `nil` is refused with the field `date`.
    public var day: PostgresDate?
    /// Required; `nil` is refused with the field `kind`.
    public var kind: EntryKind?
    public var text: String?
    /// Required for a `MOOD` entry.
    public var mood: String?
    public var background: String?
    public var suggestion: String?
    /// The person's own tags; duplicates count once.
    public var tagIDs: [UUID]
    /// The person's own files, in order, each not already attached to another entry.
    public var mediaIDs: [UUID]

    public init(
        day: PostgresDate?, kind: EntryKind?, text: String? = nil, mood: String? = nil, background: String? = nil,
        suggestion: String? = nil, tagIDs: [UUID] = [], mediaIDs: [UUID] = []
    ) {
        self.day = day
        self.kind = kind
        self.text = text
        self.mood = mood
        self.background = background
        self.suggestion = suggestion
        self.tagIDs = tagIDs
        self.mediaIDs = mediaIDs
    }
}

/// Which entries a page of the journal shows. Conditions combine with AND; each absent one (or
/// empty list) does not restrict.
public struct EntryFilter: Sendable, Hashable {
    /// Entries with at least one of these tags.
    public var tagIDs: [UUID]?
    /// Entries of one of these kinds.
    public var kinds: [EntryKind]?
    /// Entries about this day or later.
    public var from: PostgresDate?
    /// Entries about this day or earlier.
    public var to: PostgresDate?
    /// A full-text search over the text and tag names (web-search syntax: words, "a phrase",
    /// -not, or), in the language-neutral 'simple' configuration.
    public var text: String?

    public init(
        tagIDs: [UUID]? = nil, kinds: [EntryKind]? = nil, from: PostgresDate? = nil, to: PostgresDate? = nil,
        text: String? = nil
    ) {
        self.tagIDs = tagIDs
        self.kinds = kinds
        self.from = from
        self.to = to
        self.text = text
    }
}

/// One day of the calendar.
public struct CalendarDay: Sendable, Hashable {
    public var day: PostgresDate
    /// Live entries about that day.
    public var entryCount: Int
    /// The moods of those entries, in the order they were written.
    public var moods: [String]
}
