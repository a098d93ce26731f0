public import Foundation
import GraphQL
public import Postgres
public import StorykeepCore
import StorykeepJournals
public import StorykeepSocial

/// Conversations, messages, read receipts, reports and removals, in the transaction it is given,
/// for the person it runs as. What they read and write is what the policies of
/// Migrations/0042_messaging.sql let them; the store checks first, so that a refusal is a coded
/// `GraphQLError` and changes nothing: BAD_USER_INPUT naming the argument, NOT_FOUND for a
/// conversation, message or person they may not see or message (never told apart), FORBIDDEN
/// while they are suspended.
public struct MessageStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    // MARK: Reading

    /// The person's conversations, the latest active first: one statement.
    public func conversations() async throws -> [Conversation] {
        try await database.query(MessageStatements.conversations).map(MessageRows.conversation)
    }

    /// The person's conversation `id`, when they read it.
    public func conversation(_ id: UUID) async throws -> Conversation? {
        try await database.query(MessageStatements.conversation, id).first.map(MessageRows.conversation)
    }

    /// A page of the conversation `id`'s messages, newest first, before `before`. NOT_FOUND for a
    /// conversation the person does not read; BAD_USER_INPUT on `first` outside 0 to ``PageSize/max``.
    public func messages(in id: UUID, first: Int, before: MessagePosition?) async throws -> Page<Message, MessagePosition> {
        try PageSize.check(first)
        guard try await database.query(MessageStatements.otherPerson, id).first != nil else { throw GraphQLError.notFound() }
        let position = before ?? .pastNewest
        let rows = try await database.query(MessageStatements.messages, position.moment, position.id, first + 1, id)
        return Page(items: try rows.prefix(first).map { try MessageRows.message($0) }, hasNextPage: rows.count > first)
    }

    /// The messages among `ids` the person reads, by id: one statement.
    public func messages(_ ids: [UUID]) async throws -> [UUID: Message] {
        let rows = try await database.query(MessageStatements.messagesByID, ids.uniqued())
        return Dictionary(uniqueKeysWithValues: try rows.map { let m = try MessageRows.message($0).item; return (m.id, m) })
    }

    /// The files of each of `messageIDs` the person reads, in order: one statement.
    public func media(ofMessages messageIDs: [UUID]) async throws -> [UUID: [MediaInfo]] {
        try await MediaRows.byOwner(MessageStatements.mediaOfMessages, messageIDs, on: database)
    }

    /// How many messages to the person are unread.
    public func unreadCount() async throws -> Int {
        try await database.query(MessageStatements.unreadTotal)[0].decode(Int.self, at: 0)
    }

    /// The name the person goes by with the people they message: their social profile's, else
    /// the agency's name for them.
    public func myName() async throws -> String? {
        try await database.query(MessageStatements.myName).first?.decode(String?.self, at: 0)
    }

    // MARK: Sending

    /// What sending did: the message, who it went to, and whether the recipient had read the
    /// sender's earlier messages there (so that this one is news to tell them of).
    public struct Sent: Sendable {
        public var message: Message
        public var recipientID: UUID
        public var firstUnread: Bool
    }

    /// Sends `input` as the person: into their conversation, or to a person (starting their
    /// conversation). NOT_FOUND for a conversation they do not read or someone they may not
    /// message (not a friend, not of their current team, blocked either way, ended); FORBIDDEN
    /// (with `extensions.suspendedUntil`) while suspended; BAD_USER_INPUT on `mediaIds` naming a
    /// file that is not theirs. The caller counts the rate limit first.
    public func send(_ input: MessageInput) async throws -> Sent {
        let recipient: UUID
        switch input.target {
        case .conversation(let id):
            guard let other = try await database.query(MessageStatements.otherPerson, id).first else { throw GraphQLError.notFound() }
            recipient = try other.decode(UUID.self, at: 0)
        case .person(let id):
            recipient = id
        }
        let may = try await database.query(MessageStatements.mayMessage, recipient)[0]
        if try may.decode(Bool.self, at: 1) { try await ModerationStore(database).requireNotSuspended() }
        guard try may.decode(Bool.self, at: 0) else { throw GraphQLError.notFound() }
        if !input.mediaIDs.isEmpty,
            let stranger = try await database.query(PostStatements.notMyMedia, input.mediaIDs)[0].decode([UUID].self, at: 0).first
        {
            throw GraphQLError.badUserInput(field: "mediaIds", "mediaIds: \(stranger.lowercased) is not one of your files.")
        }
        let conversation: UUID
        switch input.target {
        case .conversation(let id): conversation = id
        case .person: conversation = try await database.query(MessageStatements.start, recipient)[0].decode(UUID.self, at: 0)
        }
        let firstUnread = try await database.query(MessageStatements.allMineRead, conversation)[0].decode(Bool.self, at: 0)
        let message = try MessageRows.message(try await database.query(MessageStatements.send, conversation, recipient, input.text)[0]).item
        if !input.mediaIDs.isEmpty {
            try await database.execute(MessageStatements.attachMedia, message.id, input.mediaIDs)
        }
        return Sent(message: message, recipientID: recipient, firstUnread: firstUnread)
    }

    /// Marks the messages to the person in the conversation `id` read: the conversation.
    /// NOT_FOUND for a conversation they do not read.
    public func markRead(_ id: UUID) async throws -> Conversation {
        guard try await database.query(MessageStatements.otherPerson, id).first != nil else { throw GraphQLError.notFound() }
        try await database.execute(MessageStatements.markRead, id)
        guard let conversation = try await conversation(id) else { throw GraphQLError.notFound() }
        return conversation
    }

    // MARK: Reports and moderation

    /// Reports the message `id`, sent to the person, for `reason` with `text` (trimmed, blank is
    /// none). NOT_FOUND unless it was sent to them and they read it; BAD_USER_INPUT on `text`.
    public func report(_ id: UUID, reason: ReportReason, text: String?) async throws {
        let text = try ModerationStore<Database>.reason(text, field: "text", limit: .messageReportText, required: false)
        guard try await database.query(MessageStatements.sentToMe, id)[0].decode(Bool.self, at: 0) else { throw GraphQLError.notFound() }
        try await database.execute(MessageStatements.markReported, id)
        try await database.execute(MessageStatements.report, id, reason.rawValue, text)
    }

    /// A page of the reported messages (open reports), newest first by their first report, with
    /// their open reports: two statements whatever `first` is.
    public func reported(first: Int, after: ReportedMessagePosition?) async throws -> Page<ReportedMessage, ReportedMessagePosition> {
        try PageSize.check(first)
        let position = after ?? .pastNewest
        let rows = try await database.query(MessageStatements.reported, position.moment, position.id, first + 1)
        let listed = try rows.prefix(first).map { row in
            (message: try MessageRows.message(row).item, since: try row.decode(PostgresTimestamp.self, at: 8), date: try row.decode(Date.self, at: 8))
        }
        var reports: [UUID: [Report]] = [:]
        for row in try await database.query(MessageStatements.openReports, listed.map(\.message.id)) {
            reports[try row.decode(UUID.self, at: 0), default: []].append(
                Report(reason: try row.decode(String.self, at: 1), text: try row.decode(String?.self, at: 2), createdAt: try row.decode(Date.self, at: 3)))
        }
        return Page(
            items: listed.map {
                (ReportedMessage(message: $0.message, openReports: reports[$0.message.id] ?? [], since: $0.date),
                 ReportedMessagePosition(moment: $0.since, id: $0.message.id))
            },
            hasNextPage: rows.count > first)
    }

    /// Removes the reported message `id` for `reason` and closes its open reports: the message.
    /// NOT_FOUND unless it was reported and is not removed yet; BAD_USER_INPUT on `reason`.
    public func remove(_ id: UUID, reason: String) async throws -> Message {
        let row = try await ModerationStore(database).removeReported(
            id, reason: reason, limit: .messageRemovalReason, remove: MessageStatements.remove, resolve: MessageStatements.resolve)
        return try MessageRows.message(row).item
    }

    /// Dismisses the open reports of the message `id`: how many. NOT_FOUND when it has none.
    public func dismissReports(of id: UUID) async throws -> Int {
        try await ModerationStore(database).dismissReports(of: id, resolve: MessageStatements.resolve)
    }
}
