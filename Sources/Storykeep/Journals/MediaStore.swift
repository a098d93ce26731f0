import Foundation
import StorykeepCore
import Postgres

/// A person's files (audio, video, images, drawings), stored in PostgreSQL, in the transaction it
/// is given, for the person that transaction runs as. A file is uploaded first, then attached to
/// an entry (`EntryInput.mediaIDs`); only its owner reads it (Migrations/0003_journals.sql).
public struct MediaStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// Stores `bytes` as a file of the person's. Refused (field `file`) when empty, larger than
    /// `maxBytes` (the tenant's upload limit), or not one of the accepted audio, video and image
    /// formats by its content, whatever `declaredType` says (`MediaSniffer`). The stored type
    /// is the one recognised; the size and SHA-256 are computed by the database.
    public func upload(_ bytes: [UInt8], declaredType: String?, maxBytes: Int) async throws -> MediaInfo {
        guard !bytes.isEmpty else { throw JournalError.badInput(field: "file", message: "the file is empty") }
        guard bytes.count <= maxBytes else {
            throw JournalError.badInput(
                field: "file", message: "the file is larger than the limit of \(Self.describe(bytes: maxBytes))")
        }
        guard let contentType = MediaSniffer.sniff(bytes, declared: declaredType) else {
            throw JournalError.badInput(
                field: "file", message: "not an audio, video or image file of a kind Storykeep accepts")
        }
        let rows = try await database.query(MediaStatements.upload, contentType, bytes)
        return try MediaRows.decode(rows[0])
    }

    /// The descriptions of the person's files among `ids`, in the order of `ids`: one statement.
    public func media(ids: [UUID]) async throws -> [MediaInfo] {
        let found = try await database.query(MediaStatements.mediaByID, ids).map { try MediaRows.decode($0) }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    /// `length` bytes of the file `id` from `offset` (fewer at its end), for HTTP Range requests:
    /// PostgreSQL reads only the chunks needed (the bytes are stored uncompressed). `nil` if the
    /// person may not read the file.
    public func bytes(id: UUID, offset: Int = 0, length: Int? = nil) async throws -> [UInt8]? {
        precondition(offset >= 0 && (length ?? 0) >= 0, "a range within the file")
        let rows = try await database.query(MediaStatements.bytes, id, offset, length)
        return try rows.first?.decode([UInt8].self, at: 0)
    }

    private static func describe(bytes: Int) -> String {
        bytes % 1_048_576 == 0 ? "\(bytes / 1_048_576) MB" : "\(bytes) bytes"
    }
}

extension MediaRows {
    /// The files of each of `ownerIDs`, by owner, in order: one statement, `statement`, made by
    /// ``MediaStatements/attached(in:owner:)``.
    package static func byOwner(_ statement: String, _ ownerIDs: [UUID], on database: some PostgresQueryable) async throws -> [UUID: [MediaInfo]] {
        var media: [UUID: [MediaInfo]] = [:]
        for row in try await database.query(statement, ownerIDs) {
            media[try row.decode(UUID.self, at: 0), default: []].append(try decode(row, from: 1))
        }
        return media
    }
}
