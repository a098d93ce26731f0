import Foundation
import GraphQL
import Postgres
import StorykeepCore

// The export feed as GraphQL sees it (Schema/export.graphql): what a case management system
// files, by shape only what it needs (no username, email or reply; no rewards).

/// A person as a case management system knows them (`ExportPerson`).
struct ExportPerson: Sendable, Hashable, GraphQLFieldReadable {
    var id: UUID
    var externalRef: String?
    var displayName: String

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "externalRef": externalRef
        case "displayName": displayName
        default: nil
        }
    }
}

/// A file of an exported entry (`ExportMedia`), with its signed link.
struct ExportFile: Sendable, Hashable, GraphQLFieldReadable {
    var id: UUID
    var contentType: String
    var byteSize: Int
    var sha256Hex: String
    var url: String

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "contentType": contentType
        case "byteSize": byteSize
        case "sha256": sha256Hex
        case "url": url
        default: nil
        }
    }
}

/// Someone an exported entry is shared with (`ExportShare`).
struct ExportShare: Sendable, Hashable, GraphQLFieldReadable {
    var person: ExportPerson
    var relationship: String
    var sharedAt: Date
    var message: String?

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "person": person
        case "relationship": relationship
        case "sharedAt": DateTimeScalar.string(sharedAt)
        case "message": message
        default: nil
        }
    }
}

/// An entry as a client may hold it (`ExportEntry`); its `document` is rendered by a loader.
struct ExportEntry: Sendable, Hashable, GraphQLFieldReadable {
    var id: UUID
    var youngPerson: ExportPerson
    var day: PostgresDate
    var kind: String
    var text: String?
    var mood: String?
    var background: String?
    var createdAt: Date
    var updatedAt: Date
    var tags: [String] = []
    var sharedWith: [ExportShare] = []
    var media: [ExportFile] = []

    /// Changes whenever anything the client holds of the entry does (a SHA-256 of it all but
    /// the files' links, which are signed anew each time), so that a client can skip refiling an
    /// entry it has.
    var revision: String {
        var parts = [id.lowercased, youngPerson.externalRef ?? "", youngPerson.displayName, "\(day)", kind, text ?? "", mood ?? "",
                     background ?? "", DateTimeScalar.string(updatedAt)]
        parts += tags
        parts += sharedWith.map { "\($0.person.id.lowercased)|\($0.relationship)|\(DateTimeScalar.string($0.sharedAt))|\($0.message ?? "")" }
        parts += media.map { "\($0.id.lowercased)|\($0.sha256Hex)" }
        return Crypto.hex(Array(Crypto.sha256(Array(parts.joined(separator: "\u{1F}").utf8)).prefix(16)))
    }

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "revision": revision
        case "youngPerson": youngPerson
        case "date": day
        case "kind": kind
        case "text": text
        case "mood": mood
        case "background": background
        case "tags": tags
        case "sharedWith": sharedWith
        case "media": media
        case "createdAt": DateTimeScalar.string(createdAt)
        case "updatedAt": DateTimeScalar.string(updatedAt)
        default: nil
        }
    }
}

/// What a client is told of one change (`ExportChange`).
struct ExportChange: Sendable, GraphQLFieldReadable {
    enum Op: String { case upsert = "UPSERT", tombstone = "TOMBSTONE" }

    var op: Op
    var sequence: Int64
    var entryID: UUID
    /// The entry as it is now, for an UPSERT.
    var entry: ExportEntry?

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "op": op.rawValue
        case "sequence": String(sequence)
        case "entryId": entryID.lowercased
        case "entry": entry
        default: nil
        }
    }
}

/// A page of the feed (`ExportChanges`).
struct ExportChanges: Sendable, GraphQLFieldReadable {
    var items: [ExportChange]
    var cursor: String
    var hasMore: Bool

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "items": items
        case "cursor": cursor
        case "hasMore": hasMore
        default: nil
        }
    }
}

/// A young person of the agency, for a client to map to its cases (`ExportYoungPerson`).
struct ExportYoungPerson: Sendable, GraphQLFieldReadable {
    var person: ExportPerson
    var socialWorker: ExportPerson?

    func value(forField name: String) -> (any Sendable)? {
        name == "assignedSocialWorker" ? socialWorker : person.value(forField: name)
    }
}

/// A place in the feed, what its cursors hold: the last change read, by its transaction's id
/// and its sequence (THE CURSOR in Migrations/0018_export_feed.sql).
struct ExportPosition: CursorPosition, Equatable {
    static let list = "exportChanges"
    /// The transaction's id (xid8), in decimal.
    var xid: UInt64
    var sequence: Int64

    static let start = ExportPosition(xid: 0, sequence: 0)

    init(xid: UInt64, sequence: Int64) {
        self.xid = xid
        self.sequence = sequence
    }

    var fields: [String] { [String(xid), String(sequence)] }

    init?(fields: [Substring]) {
        guard fields.count == 2, let xid = UInt64(fields[0]), let sequence = Int64(fields[1]), sequence >= 0 else { return nil }
        self.init(xid: xid, sequence: sequence)
    }
}
