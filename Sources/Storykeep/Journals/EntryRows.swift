import Foundation
import StorykeepCore
import Postgres

/// How entries are read: the columns every query selects, and the loading of the media of a whole
/// set of entries in one statement, whatever its size (no statement per entry).
package enum EntryRows {
    /// The columns of `entries e` that `decode` reads, in order; the last is `created_at` in
    /// microseconds since 1970, exact, for cursors.
    package static let columns = """
        e.id, e.day, e.kind, e.body, e.mood, e.background, e.suggestion, e.created_at, e.updated_at, \
        e.archived_at, (extract(epoch from e.created_at) * 1000000)::int8
        """

    /// Decodes a row of `columns`; the media are left empty for `attach` to fill.
    package static func decode(_ row: PostgresRow) throws -> (entry: Entry, createdMicros: Int64) {
        let kindName = try row.decode(String.self, at: 2)
        guard let kind = EntryKind(rawValue: kindName) else {
            throw PostgresError(kind: .decoding, message: "unknown entry kind \(kindName)")
        }
        let entry = Entry(
            id: try row.decode(UUID.self, at: 0), day: try row.decode(PostgresDate.self, at: 1), kind: kind,
            text: try row.decode(String?.self, at: 3), mood: try row.decode(String?.self, at: 4),
            background: try row.decode(String?.self, at: 5), suggestion: try row.decode(String?.self, at: 6),
            media: [], createdAt: try row.decode(Date.self, at: 7), updatedAt: try row.decode(Date.self, at: 8),
            archivedAt: try row.decode(Date?.self, at: 9))
        return (entry, try row.decode(Int64.self, at: 10))
    }

    /// Fills in the media of `entries`: one statement, whatever their number.
    package static func attach(to entries: inout [Entry], on database: some PostgresQueryable) async throws {
        guard !entries.isEmpty else { return }
        let ids = entries.map(\.id)
        var media: [UUID: [MediaInfo]] = [:]
        for row in try await database.query(
            """
            select em.entry_id, \(MediaRows.columns)
            from entry_media em join media m on m.tenant_id = em.tenant_id and m.id = em.media_id
            where em.tenant_id = current_tenant_id() and em.entry_id = any($1::uuid[])
            order by em.entry_id, em.position
            """, ids)
        {
            media[try row.decode(UUID.self, at: 0), default: []].append(try MediaRows.decode(row, from: 1))
        }
        for index in entries.indices {
            entries[index].media = media[entries[index].id] ?? []
        }
    }

    /// The SQL of the space-separated names of the tags `idsParameter` (a `uuid[]` placeholder)
    /// of the current person: what `entries.tag_names` holds for search.
    package static func tagNames(of idsParameter: String) -> String {
        """
        coalesce((select string_agg(t.name, ' ' order by t.name_key) from tags t
                  where t.tenant_id = current_tenant_id() and t.owner_id = current_person_id()
                    and t.id = any(\(idsParameter)::uuid[])), '')
        """
    }
}

/// How media descriptions are read.
package enum MediaRows {
    /// The columns of `media m` that `decode` reads, in order.
    package static let columns = "m.id, m.content_type, m.byte_size, m.sha256, m.created_at"

    package static func decode(_ row: PostgresRow, from first: Int = 0) throws -> MediaInfo {
        MediaInfo(
            id: try row.decode(UUID.self, at: first), contentType: try row.decode(String.self, at: first + 1),
            byteSize: try row.decode(Int.self, at: first + 2), sha256: try row.decode([UInt8].self, at: first + 3),
            createdAt: try row.decode(Date.self, at: first + 4))
    }
}

/// The opaque cursors of the connections: a position in an order, base64url-encoded so that
/// clients treat it as a token and never build one.
package enum Cursor {
    /// The journal's order: (day, created_at, id), all descending.
    package static func entry(day: PostgresDate, createdMicros: Int64, id: UUID) -> String {
        encode("e|\(day)|\(createdMicros)|\(id.uuidString)")
    }

    package static func decodeEntry(_ cursor: String) throws -> (day: PostgresDate, createdMicros: Int64, id: UUID) {
        let parts = try decode(cursor, prefix: "e", count: 3)
        guard let day = PostgresDate(parts[0]), let micros = Int64(parts[1]), let id = UUID(uuidString: parts[2]) else {
            throw invalid
        }
        return (day, micros, id)
    }

    /// The archive's order: (archived_at, id), both descending.
    package static func archived(archivedMicros: Int64, id: UUID) -> String {
        encode("a|\(archivedMicros)|\(id.uuidString)")
    }

    package static func decodeArchived(_ cursor: String) throws -> (archivedMicros: Int64, id: UUID) {
        let parts = try decode(cursor, prefix: "a", count: 2)
        guard let micros = Int64(parts[0]), let id = UUID(uuidString: parts[1]) else { throw invalid }
        return (micros, id)
    }

    private static let invalid = JournalError.badInput(field: "after", message: "not a cursor of this list")

    private static func encode(_ text: String) -> String {
        Crypto.base64URL(text.utf8)
    }

    private static func decode(_ cursor: String, prefix: String, count: Int) throws -> [String] {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard cursor.count <= 200, let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8)
        else { throw invalid }
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == count + 1, parts[0] == prefix else { throw invalid }
        return Array(parts.dropFirst())
    }
}
