import Foundation
import GraphQL
import Postgres
import StorykeepCore
import StorykeepNotifications

/// Moderation in the schema: reporting posts and comments, and, for agency admins, the queue and
/// their decisions. The author of removed content is told (``removedKind``, the subject is the
/// `post` or `comment`), never who reported it; a suspended person is told until when
/// (``suspendedKind``).
extension SocialModule {
    /// The notification an author gets when a moderator removes their post or comment.
    public static let removedKind = "contentRemoved"
    /// The notification a person gets when a moderator suspends their posting and commenting.
    public static let suspendedKind = "socialSuspended"

    func registerModeration(_ module: inout ModuleRegistry) {
        for (name, argument, isPost) in [("reportPost", "postId", true), ("reportComment", "commentId", false)] {
            module.mutation(name, access: .authenticated) { arguments, context in
                _ = try Self.participant(context)
                let id = try arguments.id(argument)
                let reason = arguments["reason"]?.stringValue.flatMap(ReportReason.init(rawValue:)) ?? .other
                return try await context.transaction { tx in
                    try await ModerationStore(tx).report(id, isPost: isPost, reason: reason, text: arguments["text"]?.stringValue)
                    return true
                }
            }
        }
        module.query("mySuspension", access: .authenticated) { _, context in
            _ = try Self.participant(context)
            return try await context.transaction { tx -> GraphQLValue in
                guard let suspension = try await ModerationStore(tx).mySuspension() else { return .null }
                return .object(["until": .string(DateTimeScalar.string(suspension.until)), "reason": .string(suspension.reason)])
            }
        }
        registerModerators(&module)
    }

    private func registerModerators(_ module: inout ModuleRegistry) {
        let admins = FieldAccess.roles([.agencyAdmin])
        module.query("moderationQueue", access: admins) { arguments, context in
            let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: ModerationPosition.self)
            return try await context.transaction { tx in
                try await ModerationStore(tx).queue(first: arguments["first"]?.intValue ?? 20, after: after)
            }.connection(cursors: context.cursors, node: { $0 })
        }
        module.mutation("removePost", access: admins) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in
                let post = try await ModerationStore(tx).removePost(id, reason: arguments["reason"]?.stringValue ?? "")
                try await Notifications.notify(
                    [post.authorID], kind: Self.removedKind, title: "A moderator removed one of your posts",
                    subject: NotificationSubject(kind: "post", id: post.id), in: tx)
                return post
            }
        }
        module.mutation("restorePost", access: admins) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in try await ModerationStore(tx).restorePost(id) }
        }
        module.mutation("removeComment", access: admins) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in
                let comment = try await ModerationStore(tx).removeComment(id, reason: arguments["reason"]?.stringValue ?? "")
                try await Notifications.notify(
                    [comment.authorID], kind: Self.removedKind, title: "A moderator removed one of your comments",
                    subject: NotificationSubject(kind: "comment", id: comment.id), in: tx)
                return comment
            }
        }
        module.mutation("dismissReports", access: admins) { arguments, context in
            let id = try arguments.id("contentId")
            return try await context.transaction { tx in try await ModerationStore(tx).dismissReports(of: id) }
        }
        module.mutation("suspendPerson", access: admins) { arguments, context in
            let personID = try arguments.id("personId")
            guard let until = arguments["until"]?.stringValue.flatMap(Self.moment) else {
                throw GraphQLError.badUserInput(field: "until", "until: a date and time.")
            }
            return try await context.transaction { tx in
                try await ModerationStore(tx).suspend(personID, until: until, now: context.services.now(), reason: arguments["reason"]?.stringValue ?? "")
                try await Notifications.notify(
                    [personID], kind: Self.suspendedKind,
                    title: "A moderator paused your posting and commenting until \(DateTimeScalar.string(until))", in: tx)
                return true
            }
        }
    }
}

extension SocialModule {
    /// An ISO 8601 date and time (`2026-12-01T18:00:00Z`, fractional seconds or not), as `DateTime`
    /// arguments are written.
    static func moment(_ text: String) -> Date? {
        (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
    }
}

extension ModerationItem: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "contentId": contentID.lowercased
        case "post": post
        case "comment": comment
        case "openReports": openReports
        case "since": DateTimeScalar.string(since)
        case "reports": reports
        default: nil
        }
    }
}

extension Report: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "reason": reason
        case "text": text
        case "createdAt": DateTimeScalar.string(createdAt)
        default: nil
        }
    }
}
