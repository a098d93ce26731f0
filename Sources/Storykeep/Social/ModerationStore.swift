public import Foundation
import GraphQL
public import Postgres
public import StorykeepCore

/// A report's reason, from the fixed list (the GraphQL enum `ReportReason`).
public enum ReportReason: String, Sendable, Hashable, CaseIterable {
    case bullying = "BULLYING", harassment = "HARASSMENT", hate = "HATE", selfHarm = "SELF_HARM"
    case sexualContent = "SEXUAL_CONTENT", violence = "VIOLENCE", spam = "SPAM"
    case personalInformation = "PERSONAL_INFORMATION", other = "OTHER"
}

/// One open report as a moderator reads it (the GraphQL type `Report`): never who made it.
public struct Report: Sendable, Hashable {
    public var reason: String
    public var text: String?
    public var createdAt: Date

    package init(reason: String, text: String?, createdAt: Date) {
        self.reason = reason
        self.text = text
        self.createdAt = createdAt
    }
}

/// A post or comment awaiting a moderator (the GraphQL type `ModerationItem`).
public struct ModerationItem: Sendable {
    public var contentID: UUID
    public var post: Post?
    public var comment: Comment?
    public var openReports: Int
    public var since: Date
    public var reports: [Report]
}

/// A place in the moderation queue: open reports (most first), since when, and the content's id.
public struct ModerationPosition: CursorPosition, Hashable {
    public var openReports: Int64
    public var since: PostgresTimestamp
    public var id: UUID

    public static var list: String { "moderationQueue" }
    public var fields: [String] { [String(openReports), String(since.microsecondsSince2000), id.lowercased] }

    public init(openReports: Int64, since: PostgresTimestamp, id: UUID) {
        self.openReports = openReports
        self.since = since
        self.id = id
    }

    public init?(fields: [Substring]) {
        guard fields.count == 3, let count = Int64(fields[0]), let since = Int64(fields[1]).flatMap(PostgresTimestamp.init(microsecondsSince2000:)),
            let id = UUID(uuidString: String(fields[2]))
        else { return nil }
        self.init(openReports: count, since: since, id: id)
    }

    /// Before the first item.
    static let start = ModerationPosition(openReports: .max, since: .latest, id: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!)
}

/// Reports, the moderation queue and the moderators' decisions, in the transaction it is given
/// (Migrations/0034_social_moderation.sql). Refusals throw a coded `GraphQLError` and change
/// nothing: NOT_FOUND for content the person may not see, BAD_USER_INPUT naming the argument.
public struct ModerationStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// Reports the post (`isPost`) or comment `id`, which the person reads, for `reason` with
    /// `text` (trimmed, blank is none). NOT_FOUND when they may not read it; BAD_USER_INPUT on
    /// `text` past 500 characters.
    public func report(_ id: UUID, isPost: Bool, reason: ReportReason, text: String?) async throws {
        let text = try Self.reason(text, field: "text", limit: .socialReportText, required: false)
        if isPost {
            guard try await PostStore(database).post(id) != nil else { throw GraphQLError.notFound() }
        } else {
            guard try await database.query(ModerationStatements.readsComment, id)[0].decode(Bool.self, at: 0) else {
                throw GraphQLError.notFound()
            }
        }
        try await database.execute(
            ModerationStatements.report, isPost ? id : nil, isPost ? nil : id, reason.rawValue, text)
    }

    /// A page of the queue: reported content by open reports then age, then content held for
    /// review; four statements whatever `first` is.
    public func queue(first: Int, after: ModerationPosition?) async throws -> Page<ModerationItem, ModerationPosition> {
        try PageSize.check(first)
        let position = after ?? .start
        let rows = try await database.query(ModerationStatements.queue, position.openReports, position.since, position.id, first + 1)
        let listed = try rows.prefix(first).map { row in
            (id: try row.decode(UUID.self, at: 0), isPost: try row.decode(Bool.self, at: 1), count: try row.decode(Int64.self, at: 2),
             since: try row.decode(PostgresTimestamp.self, at: 3), sinceDate: try row.decode(Date.self, at: 3))
        }
        let postIDs = listed.filter(\.isPost).map(\.id), commentIDs = listed.filter { !$0.isPost }.map(\.id)
        let posts = Dictionary(uniqueKeysWithValues: try await database.query(ModerationStatements.postsByID, postIDs).map {
            let post = try PostRows.post($0).item
            return (post.id, post)
        })
        let comments = Dictionary(uniqueKeysWithValues: try await database.query(ModerationStatements.commentsByID, commentIDs).map {
            let comment = try PostRows.comment($0).item
            return (comment.id, comment)
        })
        var reports: [UUID: [Report]] = [:]
        for row in try await database.query(ModerationStatements.openReports, listed.map(\.id)) {
            reports[try row.decode(UUID.self, at: 0), default: []].append(
                Report(reason: try row.decode(String.self, at: 1), text: try row.decode(String?.self, at: 2), createdAt: try row.decode(Date.self, at: 3)))
        }
        return Page(
            items: listed.map { item in
                (ModerationItem(
                    contentID: item.id, post: posts[item.id], comment: comments[item.id], openReports: Int(item.count), since: item.sinceDate,
                    reports: reports[item.id] ?? []),
                 ModerationPosition(openReports: item.count, since: item.since, id: item.id))
            },
            hasNextPage: rows.count > first)
    }

    /// Removes the post `id` for `reason` and closes its open reports. NOT_FOUND when there is no
    /// such post (or it was deleted); BAD_USER_INPUT on `reason`.
    public func removePost(_ id: UUID, reason: String) async throws -> Post {
        let row = try await removeReported(
            id, reason: reason, limit: .socialRemovalReason, remove: ModerationStatements.removePost, resolve: ModerationStatements.resolve)
        return try PostRows.post(row).item
    }

    /// Publishes the removed or held post `id` (a published one stays as it is). NOT_FOUND when
    /// there is no such post (or it was deleted).
    public func restorePost(_ id: UUID) async throws -> Post {
        guard let row = try await database.query(ModerationStatements.restorePost, id).first else { throw GraphQLError.notFound() }
        return try PostRows.post(row).item
    }

    /// Removes the comment `id` for `reason` and closes its open reports.
    public func removeComment(_ id: UUID, reason: String) async throws -> Comment {
        let row = try await removeReported(
            id, reason: reason, limit: .socialCommentRemovalReason, remove: ModerationStatements.removeComment,
            resolve: ModerationStatements.resolve)
        return try PostRows.comment(row).item
    }

    /// Dismisses the open reports of the post or comment `id`: how many. NOT_FOUND when it has none.
    public func dismissReports(of id: UUID) async throws -> Int {
        try await dismissReports(of: id, resolve: ModerationStatements.resolve)
    }

    /// Takes down the reported content `id` with the statement `remove` ($1 the id, $2 `reason`,
    /// checked against `limit`), then closes its open reports as REMOVED with `resolve` (the
    /// shape of ``ModerationStatements/resolve``): the row `remove` returned. NOT_FOUND when it
    /// returned none; BAD_USER_INPUT on `reason`. What removing a post, a comment or a message is.
    package func removeReported(
        _ id: UUID, reason: String, limit: TextLimit, remove: String, resolve: String
    ) async throws -> PostgresRow {
        let reason = try Self.reason(reason, field: "reason", limit: limit, required: true)
        guard let row = try await database.query(remove, id, reason).first else { throw GraphQLError.notFound() }
        try await database.execute(resolve, id, "REMOVED")
        return row
    }

    /// Closes the open reports of `id` as DISMISSED with `resolve` (the shape of
    /// ``ModerationStatements/resolve``): how many. NOT_FOUND when it has none.
    package func dismissReports(of id: UUID, resolve: String) async throws -> Int {
        let count = try await database.query(resolve, id, "DISMISSED")[0].decode(Int.self, at: 0)
        guard count > 0 else { throw GraphQLError.notFound() }
        return count
    }

    /// Suspends `personID` from posting and commenting until `until` (after `now`) for `reason`.
    /// NOT_FOUND for nobody of the agency (or an admin); BAD_USER_INPUT on `until` or `reason`.
    public func suspend(_ personID: UUID, until: Date, now: Date, reason: String) async throws {
        let reason = try Self.reason(reason, field: "reason", limit: .socialSuspensionReason, required: true)
        guard until > now else { throw GraphQLError.badUserInput(field: "until", "until: must be in the future.") }
        guard try await database.query(ModerationStatements.suspendable, personID)[0].decode(Bool.self, at: 0) else {
            throw GraphQLError.notFound()
        }
        try await database.execute(ModerationStatements.suspend, personID, until, reason)
    }

    /// Until when, and why, the person is suspended now; nil when they are not.
    public func mySuspension() async throws -> (until: Date, reason: String)? {
        try await database.query(ModerationStatements.mySuspension).first.map {
            (try $0.decode(Date.self, at: 0), try $0.decode(String.self, at: 1))
        }
    }

    /// FORBIDDEN (with `extensions.suspendedUntil`) while the person is suspended.
    public func requireNotSuspended() async throws {
        guard let suspension = try await mySuspension() else { return }
        var error = GraphQLError(message: "A moderator paused your posting and commenting until \(DateTimeScalar.string(suspension.until)).")
        error.extensions = ["code": .string("FORBIDDEN"), "suspendedUntil": .string(DateTimeScalar.string(suspension.until))]
        throw error
    }

    /// `text` trimmed, nil when blank and not `required`; BAD_USER_INPUT on `field` when blank
    /// and required, or past `limit`.
    package static func reason(_ text: String?, field: String, limit: TextLimit, required: Bool) throws -> String? {
        let text = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if text.isEmpty && !required { return nil }
        guard limit.admits(text) else { throw GraphQLError.badUserInput(field: field, "\(field): must have \(limit).") }
        return text
    }
}

/// Per-person rate limits of the social module, counted in the database
/// (`social_rate_events`, Migrations/0034_social_moderation.sql) so that they hold across
/// servers: within one hour, a person does each action at most the tenant file's number of times.
package enum RateLimits {
    /// The window every limit counts in.
    static let windowSeconds = 3600

    /// Counts `action` for the person, or throws RATE_LIMITED with `extensions.retryAfterSeconds`
    /// when they did it `limit` times in the window. Three statements.
    package static func take(_ action: String, limit: Int, in tx: some PostgresQueryable) async throws {
        try await tx.execute(ModerationStatements.lockAction, action)
        try await tx.execute(ModerationStatements.forgetActions, action, windowSeconds)
        let row = try await tx.query(ModerationStatements.takeAction, action, windowSeconds, limit)[0]
        guard try row.decode(Bool.self, at: 0) else {
            let seconds = try row.decode(Int.self, at: 1)
            var error = GraphQLError(message: "You are doing that a lot. Please wait \(seconds) seconds and try again.")
            error.extensions = ["code": .string("RATE_LIMITED"), "retryAfterSeconds": .int(seconds)]
            throw error
        }
    }
}
