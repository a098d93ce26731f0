import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

/// What the messaging module's tests over HTTP share: its operations, and tenants with it on.
enum MessagingHTTP {
    /// Tenants with the social and messaging modules on.
    static let tenant: @Sendable (Int, inout TenantFile) -> Void = { _, file in file.modules = [.social, .messaging] }

    static let messageFields = "id conversationId senderId mine text media { id url } readAt removed removalReason"
    static let sendTo = "mutation($p: ID!, $t: String) { sendMessage(personId: $p, text: $t) { \(messageFields) } }"
    static let sendInto = "mutation($c: ID!, $t: String) { sendMessage(conversationId: $c, text: $t) { \(messageFields) } }"
    static let conversations = "{ conversations { id personId displayName staff unreadCount canSend lastMessage { text } } }"
    static let conversation = "query($c: ID!) { conversation(id: $c) { id unreadCount } }"
    static let messages = """
        query($c: ID!, $first: Int, $before: String) { messages(conversationId: $c, first: $first, before: $before) {
          edges { cursor node { \(messageFields) } } pageInfo { hasNextPage endCursor } } }
        """
    static let markRead = "mutation($c: ID!) { markConversationRead(conversationId: $c) { id unreadCount } }"
    static let report = "mutation($m: ID!) { reportMessage(messageId: $m, reason: HARASSMENT, text: \"not nice\") }"
    static let reported = "{ reportedMessages { edges { node { message { id text } openReports { reason text } } } } }"
}

extension AccountsHarness {
    /// `sender` messages `recipient` `text`, which must succeed: the message.
    @discardableResult
    func message(_ text: String, to recipient: TestPerson, as sender: TestPerson) async throws -> GraphQLValue {
        try await data(MessagingHTTP.sendTo, "sendMessage", ["p": recipient.idValue, "t": .string(text)], as: sender)
    }

    /// The texts of the messages of the conversation `id` that `person` reads, newest first.
    func messageTexts(_ id: String, as person: TestPerson) async throws -> [String] {
        try await data(MessagingHTTP.messages, "messages", ["c": .string(id), "first": 100], as: person).nodes.compactMap { $0["text"]?.stringValue }
    }
}

extension GraphQLValue {
    /// The element `index` of a list, nil past its end or for anything else.
    subscript(index: Int) -> GraphQLValue? {
        guard let list = listValue, list.indices.contains(index) else { return nil }
        return list[index]
    }
}
