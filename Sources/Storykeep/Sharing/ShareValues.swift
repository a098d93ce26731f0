public import Foundation
public import GraphQL
import Postgres
public import StorykeepCaseload
public import StorykeepCore
public import StorykeepJournals

/// An entry shared with the person reading it (the GraphQL type `Share`): the entry as its author
/// has it now, with what the author said and what the sharee did with it.
public struct Share: Sendable, Hashable, Identifiable {
    public let id: UUID
    public var entry: Entry
    public var message: String?
    public var sharedAt: Date
    /// When the sharee first saw it.
    public var seenAt: Date?
    /// The author changed the entry after sharing it.
    public var editedSinceShared: Bool
    /// The sharee's reply.
    public var reply: String?
    public var repliedAt: Date?
}

/// Someone an entry is shared with, as its author sees it (the GraphQL type `EntryShare`).
public struct EntryShare: Sendable, Hashable, Identifiable {
    public let id: UUID
    public var sharee: CaseloadPerson
    public var message: String?
    public var sharedAt: Date
    public var seenAt: Date?
    public var reply: String?
    public var repliedAt: Date?
}

/// What one young person shared with a sharee, in the order of `sharedWithMe`: (shared_at, id),
/// both descending.
public enum SharedWithMeList: MomentOrderedList {
    public static var name: String { "sharedWithMe" }
}

/// A place in `sharedWithMe`, what its cursors hold: `shared_at` exactly, and the id.
public typealias SharePosition = MomentPosition<SharedWithMeList>

/// How the rows of ``ShareStatements`` are read.
enum ShareRows {
    /// A row of a sharee's statement: the entry's columns (`EntryRows.decode`), then the
    /// share's id, message, shared_at, seen_at, reply, replied_at and whether the entry was
    /// edited since; the entry's media left empty for `EntryRows.attach`.
    static func decodeShare(_ row: PostgresRow) throws -> (share: Share, position: SharePosition) {
        let entry = try EntryRows.decode(row).entry
        let share = Share(
            id: try row.decode(UUID.self, at: 10), entry: entry, message: try row.decode(String?.self, at: 11),
            sharedAt: try row.decode(Date.self, at: 12), seenAt: try row.decode(Date?.self, at: 13),
            editedSinceShared: try row.decode(Bool.self, at: 16), reply: try row.decode(String?.self, at: 14),
            repliedAt: try row.decode(Date?.self, at: 15))
        return (share, SharePosition(moment: try row.decode(PostgresTimestamp.self, at: 12), id: share.id))
    }

    /// A row of ``ShareStatements/sharesOfEntries``: the entry's id and the share.
    static func decodeEntryShare(_ row: PostgresRow) throws -> (entryID: UUID, share: EntryShare) {
        let sharee = try CaseloadPerson(row, at: 7)
        return (
            try row.decode(UUID.self, at: 0),
            EntryShare(
                id: try row.decode(UUID.self, at: 1), sharee: sharee, message: try row.decode(String?.self, at: 2),
                sharedAt: try row.decode(Date.self, at: 3), seenAt: try row.decode(Date?.self, at: 4),
                reply: try row.decode(String?.self, at: 5), repliedAt: try row.decode(Date?.self, at: 6))
        )
    }
}

extension Share: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "entry": entry
        case "editedSinceShared": editedSinceShared
        default: shareValue(forField: name)
        }
    }
}

extension EntryShare: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        name == "person" ? sharee : shareValue(forField: name)
    }
}

/// What `Share` and `EntryShare` have alike: a share as the sharee and as the author see it.
protocol ShareFieldReadable {
    var id: UUID { get }
    var message: String? { get }
    var sharedAt: Date { get }
    var seenAt: Date? { get }
    var reply: String? { get }
    var repliedAt: Date? { get }
}

extension ShareFieldReadable {
    /// The value of the field `name` the two GraphQL types share; nil for any other.
    func shareValue(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "message": message
        case "sharedAt": DateTimeScalar.string(sharedAt)
        case "seenAt": seenAt.map(DateTimeScalar.string)
        case "reply": reply
        case "repliedAt": repliedAt.map(DateTimeScalar.string)
        default: nil
        }
    }
}

extension Share: ShareFieldReadable {}
extension EntryShare: ShareFieldReadable {}
