public import Foundation
public import Postgres
public import StorykeepCore
import GraphQL

/// A notification as its recipient sees it (the GraphQL type `Notification`).
public struct Notification: Sendable, Hashable {
    public var id: UUID
    /// What happened, as the module that notified names it (`assignmentStarted`).
    public var kind: String
    /// Who and what, in words: never an entry's text.
    public var title: String
    /// Who acted; nil for the server's own work.
    public var actorID: UUID?
    public var subject: NotificationSubject?
    public var createdAt: Date
    public var readAt: Date?
}

/// A person's notifications in the order of `notifications`: (created_at, id), both descending.
public enum NotificationList: MomentOrderedList {
    public static var name: String { "notifications" }
}

/// A place in `notifications`, what its cursors hold: `created_at` exactly, and the id.
public typealias NotificationPosition = MomentPosition<NotificationList>

/// The notifications of the person the transaction runs as: listing, counting and marking them
/// read. Each function is one statement of NotificationStatements (marking, two); the policies of
/// Migrations/0011_notifications.sql show a person their own and nobody else's.
public struct NotificationStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// A page of the person's notifications, newest first; with `unreadOnly`, those not read yet.
    public func notifications(
        first: Int, after: NotificationPosition? = nil, unreadOnly: Bool = false
    ) async throws -> Page<Notification, NotificationPosition> {
        try PageSize.check(first)
        let position = after ?? .pastNewest
        let rows = try await database.query(
            unreadOnly ? NotificationStatements.unreadPage : NotificationStatements.page, position.moment, position.id, first + 1)
        return Page(
            items: try rows.prefix(first).map { row in
                let notification = try Self.decode(row)
                return (notification, NotificationPosition(moment: try row.decode(PostgresTimestamp.self, at: 6), id: notification.id))
            },
            hasNextPage: rows.count > first)
    }

    /// The person's notification `id`; nil when it is not theirs.
    public func notification(id: UUID) async throws -> Notification? {
        try await database.query(NotificationStatements.byID, id).first.map(Self.decode)
    }

    /// How many of the person's notifications are not read yet.
    public func unreadCount() async throws -> Int {
        try await database.query(NotificationStatements.unreadCount)[0].decode(Int.self, at: 0)
    }

    /// Marks the person's notifications `ids` read (all of them when nil; those already read keep
    /// when they were read) and returns how many stay unread. Refused, changing nothing, when
    /// `ids` has more ids than a page holds, ``PageSize/max`` (BAD_USER_INPUT on `ids`), or one
    /// that is not the person's (NOT_FOUND).
    public func markRead(ids: [UUID]?) async throws -> Int {
        if let ids {
            let ids = Array(Set(ids))
            guard ids.count <= PageSize.max else {
                throw GraphQLError.badUserInput(field: "ids", "ids: at most \(PageSize.max) at a time.")
            }
            // One statement: the update runs only if every id is the person's.
            let found = try await database.query(NotificationStatements.markRead, ids, ids.count)[0].decode(Int.self, at: 0)
            guard found == ids.count else {
                throw GraphQLError.notFound("No notification of yours has one of these ids.")
            }
        } else {
            try await database.execute(NotificationStatements.markAllRead)
        }
        return try await unreadCount()
    }

    private static func decode(_ row: PostgresRow) throws -> Notification {
        let subjectKind = try row.decode(String?.self, at: 4)
        let subjectID = try row.decode(UUID?.self, at: 5)
        return Notification(
            id: try row.decode(UUID.self, at: 0), kind: try row.decode(String.self, at: 1), title: try row.decode(String.self, at: 2),
            actorID: try row.decode(UUID?.self, at: 3),
            subject: both(subjectKind, subjectID).map { NotificationSubject(kind: $0, id: $1) },
            createdAt: try row.decode(Date.self, at: 6), readAt: try row.decode(Date?.self, at: 7))
    }
}

/// Both values, or nil.
private func both<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
