import Foundation
import StorykeepCore
import Postgres

/// How entries are read: the decoding of the rows of the statements that select entries, and
/// the loading of the media of a whole set of entries in one statement, whatever its size (no
/// statement per entry).
package enum EntryRows {
    /// Decodes a row whose columns from `first` on are `e.id, e.day, e.kind, e.body, e.mood,
    /// e.background, e.suggestion, e.created_at, e.updated_at, e.archived_at` of `entries e`, with
    /// its position in the journal's order; the media are left empty for `attach` to fill.
    package static func decode(_ row: PostgresRow, from first: Int = 0) throws -> (entry: Entry, position: EntryPosition) {
        let kindName = try row.decode(String.self, at: first + 2)
        guard let kind = EntryKind(rawValue: kindName) else {
            throw PostgresError(kind: .decoding, message: "unknown entry kind \(kindName)")
        }
        let entry = Entry(
            id: try row.decode(UUID.self, at: first), day: try row.decode(PostgresDate.self, at: first + 1), kind: kind,
            text: try row.decode(String?.self, at: first + 3), mood: try row.decode(String?.self, at: first + 4),
            background: try row.decode(String?.self, at: first + 5), suggestion: try row.decode(String?.self, at: first + 6),
            media: [], createdAt: try row.decode(Date.self, at: first + 7), updatedAt: try row.decode(Date.self, at: first + 8),
            archivedAt: try row.decode(Date?.self, at: first + 9))
        return (entry, EntryPosition(day: entry.day, createdAt: try row.decode(PostgresTimestamp.self, at: first + 7), id: entry.id))
    }

    /// Fills in the media of `entries`: one statement, whatever their number.
    package static func attach(to entries: inout [Entry], on database: some PostgresQueryable) async throws {
        guard !entries.isEmpty else { return }
        let media = try await media(ofEntries: entries.map(\.id), on: database)
        for index in entries.indices {
            entries[index].media = media[entries[index].id] ?? []
        }
    }

    /// The media of the entries `ids`, by entry, in each entry's order: one statement.
    package static func media(ofEntries ids: [UUID], on database: some PostgresQueryable) async throws -> [UUID: [MediaInfo]] {
        try await MediaRows.byOwner(JournalStatements.mediaOfEntries, ids, on: database)
    }
}

/// How media descriptions are read.
package enum MediaRows {
    /// Decodes the columns `id, content_type, byte_size, sha256, created_at` of `media`, from the
    /// row's column `first` on.
    package static func decode(_ row: PostgresRow, from first: Int = 0) throws -> MediaInfo {
        MediaInfo(
            id: try row.decode(UUID.self, at: first), contentType: try row.decode(String.self, at: first + 1),
            byteSize: try row.decode(Int.self, at: first + 2), sha256: try row.decode([UInt8].self, at: first + 3),
            createdAt: try row.decode(Date.self, at: first + 4))
    }
}

/// A place in the journal's order, (day, created_at, id), all descending: what the cursors of
/// `entries` and `search` hold (one list: search is the journal with a text filter).
public struct EntryPosition: CursorPosition, Hashable {
    public var day: PostgresDate
    /// `created_at` exactly, to the microsecond.
    public var createdAt: PostgresTimestamp
    public var id: UUID

    public static var list: String { "entries" }

    public var fields: [String] {
        [String(day.daysSince2000), String(createdAt.microsecondsSince2000), id.lowercased]
    }

    /// Past every entry a journal holds (the last day and moment PostgreSQL has, the greatest
    /// id): where the first page starts.
    static let start = EntryPosition(
        day: .latest, createdAt: .latest, id: UUID(uuidString: "ffffffff-ffff-ffff-ffff-ffffffffffff")!)

    public init(day: PostgresDate, createdAt: PostgresTimestamp, id: UUID) {
        self.day = day
        self.createdAt = createdAt
        self.id = id
    }

    public init?(fields: [Substring]) {
        guard fields.count == 3, let days = Int(fields[0]), PostgresDate.validDaysSince2000.contains(days),
            let createdAt = Int64(fields[1]).flatMap(PostgresTimestamp.init(microsecondsSince2000:)),
            let id = UUID(uuidString: String(fields[2]))
        else { return nil }
        self.init(day: PostgresDate(daysSince2000: days), createdAt: createdAt, id: id)
    }
}
