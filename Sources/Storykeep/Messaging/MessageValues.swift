public import Foundation
public import GraphQL
import Postgres
public import StorykeepCore
public import StorykeepSocial

/// A conversation of two people as one of them reads it (the GraphQL type `Conversation`).
public struct Conversation: Sendable, Hashable {
    public var id: UUID
    /// The other person.
    public var personID: UUID
    /// The name the reader knows them by: their social profile's, or, for an adult or young
    /// person of a current assignment, the agency's name for them.
    public var displayName: String
    /// The other person is an adult of the agency.
    public var staff: Bool
    /// How many messages to the reader are unread.
    public var unreadCount: Int
    /// Whether the reader may send here now (still friends or assigned, not suspended).
    public var canSend: Bool
    public var createdAt: Date
    /// The newest message's id, if any (its message is loaded when asked for).
    public var lastMessageID: UUID?
    public var lastMessageAt: Date?
}

/// A message as the person reading sees it (the GraphQL type `Message`); its files are loaded per
/// page.
public struct Message: Sendable, Hashable {
    public var id: UUID
    public var conversationID: UUID
    public var senderID: UUID
    /// The reader sent it.
    public var mine: Bool
    public var text: String?
    public var createdAt: Date
    /// The read receipt: when the recipient read it.
    public var readAt: Date?
    /// Why a moderator removed it (its sender and moderators read it).
    public var removalReason: String?
}

/// A reported message as a moderator reads it (the GraphQL type `ReportedMessage`): the message,
/// its open reports (the GraphQL type `MessageReport`, read as the social module's `Report`:
/// why and when, never who).
public struct ReportedMessage: Sendable {
    public var message: Message
    public var openReports: [Report]
    public var since: Date
}

/// A conversation's messages, newest first: `before` resumes after the oldest of a page.
public enum MessageList: MomentOrderedList {
    public static var name: String { "messages" }
}

/// A place in a conversation's messages, what its cursors hold.
public typealias MessagePosition = MomentPosition<MessageList>

/// The moderators' list of reported messages, by their first open report, oldest first.
public enum ReportedMessageList: MomentOrderedList {
    public static var name: String { "reportedMessages" }
}

/// A place in the list of reported messages.
public typealias ReportedMessagePosition = MomentPosition<ReportedMessageList>

/// What `sendMessage` is given, checked: where to (a conversation or a person) and what.
public struct MessageInput: Sendable, Hashable {
    /// Where a message goes: a conversation of the sender's, or a person (whose conversation with
    /// the sender is started when there is none).
    public enum Target: Sendable, Hashable {
        case conversation(UUID)
        case person(UUID)
    }

    public var target: Target
    public var text: String?
    public var mediaIDs: [UUID]

    /// The most files a message holds (`messaging_message_media_position`, Migrations/0042_messaging.sql).
    public static let maxMedia = 10

    /// From the arguments of `sendMessage`, or BAD_USER_INPUT naming the argument: exactly one of
    /// `conversationId` and `personId`; text trimmed (blank is none) of ``TextLimit/messageText``;
    /// at most ``maxMedia`` files; text or a file.
    public init(_ arguments: GraphQLObject) throws {
        switch (arguments["conversationId"]?.stringValue, arguments["personId"]?.stringValue) {
        case (_?, nil): target = .conversation(try arguments.id("conversationId"))
        case (nil, _?): target = .person(try arguments.id("personId"))
        default: throw GraphQLError.badUserInput(field: "conversationId", "conversationId: give a conversation or a person (personId), not both.")
        }
        text = arguments["text"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        if let text, !TextLimit.messageText.admits(text) {
            throw GraphQLError.badUserInput(field: "text", "text: a message has \(TextLimit.messageText).")
        }
        mediaIDs = try arguments.ids("mediaIds", field: "mediaIds").uniqued()
        guard mediaIDs.count <= Self.maxMedia else {
            throw GraphQLError.badUserInput(field: "mediaIds", "mediaIds: a message holds at most \(Self.maxMedia) files.")
        }
        guard text != nil || !mediaIDs.isEmpty else {
            throw GraphQLError.badUserInput(field: "text", "text: a message needs text or a file.")
        }
    }
}

/// How the rows of ``MessageStatements`` are read.
enum MessageRows {
    /// A message from the columns of `MessageStatements.messageColumns`.
    static func message(_ row: PostgresRow, at index: Int = 0) throws -> (item: Message, position: MessagePosition) {
        let message = Message(
            id: try row.decode(UUID.self, at: index), conversationID: try row.decode(UUID.self, at: index + 1),
            senderID: try row.decode(UUID.self, at: index + 2), mine: try row.decode(Bool.self, at: index + 3),
            text: try row.decode(String?.self, at: index + 4), createdAt: try row.decode(Date.self, at: index + 5),
            readAt: try row.decode(Date?.self, at: index + 6), removalReason: try row.decode(String?.self, at: index + 7))
        return (message, MessagePosition(moment: try row.decode(PostgresTimestamp.self, at: index + 5), id: message.id))
    }

    /// A conversation from the columns of `MessageStatements.conversationColumns`.
    static func conversation(_ row: PostgresRow) throws -> Conversation {
        Conversation(
            id: try row.decode(UUID.self, at: 0), personID: try row.decode(UUID.self, at: 1),
            displayName: try row.decode(String.self, at: 2), staff: try row.decode(Bool.self, at: 3),
            unreadCount: try row.decode(Int.self, at: 4), canSend: try row.decode(Bool.self, at: 5),
            createdAt: try row.decode(Date.self, at: 6), lastMessageID: try row.decode(UUID?.self, at: 7),
            lastMessageAt: try row.decode(Date?.self, at: 8))
    }
}

extension Conversation: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "personId": personID.lowercased
        case "displayName": displayName
        case "staff": staff
        case "unreadCount": unreadCount
        case "canSend": canSend
        case "createdAt": DateTimeScalar.string(createdAt)
        case "lastMessageAt": lastMessageAt.map(DateTimeScalar.string)
        default: nil
        }
    }
}

extension Message: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "conversationId": conversationID.lowercased
        case "senderId": senderID.lowercased
        case "mine": mine
        case "text": text
        case "createdAt": DateTimeScalar.string(createdAt)
        case "readAt": readAt.map(DateTimeScalar.string)
        case "removed": removalReason != nil
        case "removalReason": removalReason
        default: nil
        }
    }
}

extension ReportedMessage: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "message": message
        case "openReports": openReports
        case "since": DateTimeScalar.string(since)
        default: nil
        }
    }
}
