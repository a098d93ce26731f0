import Foundation
import GraphQL
import Postgres
public import StorykeepCore
import StorykeepJournals
import StorykeepNotifications
import StorykeepSocial

/// Private messages in the schema (Schema/messaging.graphql): conversations of two people, their
/// messages and read receipts, reports, and the moderators' removals. Switched on by `messaging`
/// in the tenant file; who messages whom (friends, and a young person and their current team) and
/// who reads a conversation (its two people) is the database's (Migrations/0042_messaging.sql).
///
/// A message tells its recipient (``receivedKind``, subject the `conversation`) when the sender's
/// earlier messages there were all read, so that a conversation in full flow is one notification,
/// not one a line; live apps follow `messageAdded`. A removal tells the sender (``removedKind``),
/// never who reported.
public struct MessagingModule: StorykeepModule {
    public init() {}

    public var name: String { "messaging" }
    public var switchedBy: TenantModule? { .messaging }
    public var tenantSettings: [any TenantSettings.Type] { [TenantSection<MessagingPolicy>.self] }

    /// The notification a person gets of a new message.
    public static let receivedKind = "messageReceived"
    /// The notification a sender gets when a moderator removes their message.
    public static let removedKind = "messageRemoved"

    static let mediaOfMessages = DataLoader<UUID, [MediaInfo]>.inTransaction("Message.media") { ids, _, tx in
        let media = try await MessageStore(tx).media(ofMessages: ids)
        return ids.map { media[$0] ?? [] }
    }
    static let lastMessages = DataLoader<UUID, Message?>.inTransaction("Conversation.lastMessage") { ids, _, tx in
        let messages = try await MessageStore(tx).messages(ids)
        return ids.map { messages[$0] }
    }

    public func register(_ module: inout ModuleRegistry) {
        registerReads(&module)
        registerWrites(&module)
        registerModeration(&module)
    }

    private func registerReads(_ module: inout ModuleRegistry) {
        module.field("Message.media", .sync { source, _, _, info in
            guard let message = source as? Message else { return [MediaInfo]() }
            return Self.mediaOfMessages.load(message.id, info)
        })
        module.field("Conversation.lastMessage", .sync { source, _, _, info in
            guard let id = (source as? Conversation)?.lastMessageID else { return nil }
            return Self.lastMessages.load(id, info)
        })
        module.query("conversations", access: .authenticated) { _, context in
            try await context.transaction { tx in try await MessageStore(tx).conversations() }
        }
        module.query("conversation", access: .authenticated) { arguments, context in
            guard let id = arguments["id"]?.stringValue.flatMap(UUID.init(uuidString:)) else { return nil }
            return try await context.transaction { tx in try await MessageStore(tx).conversation(id) }
        }
        module.query("messages", access: .authenticated) { arguments, context in
            let id = try arguments.id("conversationId")
            let before: MessagePosition?
            do {
                before = try context.cursors.position(after: arguments["before"]?.stringValue, of: MessagePosition.self)
            } catch {
                throw GraphQLError.badUserInput(field: "before", "before: that is not a cursor of this conversation. Ask for the first page again.")
            }
            return try await context.transaction { tx in
                try await MessageStore(tx).messages(in: id, first: arguments["first"]?.intValue ?? 30, before: before)
            }.connection(cursors: context.cursors, node: { $0 })
        }
        module.query("unreadMessageCount", access: .authenticated) { _, context in
            try await context.transaction { tx in try await MessageStore(tx).unreadCount() }
        }
        module.subscription("messageAdded", access: .authenticated, concerns: { event, viewer in event.people.contains(viewer.personID) }) {
            event, context in
            try await context.transaction { tx in try await MessageStore(tx).messages([event.id])[event.id] }
        }
    }

    private func registerWrites(_ module: inout ModuleRegistry) {
        module.mutation("sendMessage", access: .authenticated) { arguments, context in
            let input = try MessageInput(arguments)
            return try await context.transaction { tx in
                try await RateLimits.take("message", limit: context.tenant.file.messaging.messagesPerHour, in: tx)
                let sent = try await MessageStore(tx).send(input)
                if sent.firstUnread {
                    let name = try await MessageStore(tx).myName() ?? "Someone"
                    try await Notifications.notify(
                        [sent.recipientID], kind: Self.receivedKind, title: "\(name) sent you a message",
                        subject: NotificationSubject(kind: "conversation", id: sent.message.conversationID), in: tx)
                }
                return sent.message
            }
        }
        module.mutation("markConversationRead", access: .authenticated) { arguments, context in
            let id = try arguments.id("conversationId")
            return try await context.transaction { tx in try await MessageStore(tx).markRead(id) }
        }
        module.mutation("reportMessage", access: .authenticated) { arguments, context in
            let id = try arguments.id("messageId")
            let reason = arguments["reason"]?.stringValue.flatMap(ReportReason.init(rawValue:)) ?? .other
            return try await context.transaction { tx in
                try await MessageStore(tx).report(id, reason: reason, text: arguments["text"]?.stringValue)
                return true
            }
        }
    }

    private func registerModeration(_ module: inout ModuleRegistry) {
        let admins = FieldAccess.roles([.agencyAdmin])
        module.query("reportedMessages", access: admins) { arguments, context in
            let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: ReportedMessagePosition.self)
            return try await context.transaction { tx in
                try await MessageStore(tx).reported(first: arguments["first"]?.intValue ?? 20, after: after)
            }.connection(cursors: context.cursors, node: { $0 })
        }
        module.mutation("removeMessage", access: admins) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in
                let message = try await MessageStore(tx).remove(id, reason: arguments["reason"]?.stringValue ?? "")
                try await Notifications.notify(
                    [message.senderID], kind: Self.removedKind, title: "A moderator removed one of your messages",
                    subject: NotificationSubject(kind: "message", id: message.id), in: tx)
                return message
            }
        }
        module.mutation("dismissMessageReports", access: admins) { arguments, context in
            let id = try arguments.id("messageId")
            return try await context.transaction { tx in try await MessageStore(tx).dismissReports(of: id) }
        }
    }
}
