import Foundation
import GraphQL
import Testing

// Prompts from adults and safety alerts as an app sends them (Schema/prompts.graphql,
// Schema/safety.graphql), for any test that needs one sent or raised over HTTP.

/// The prompts' operations.
public enum PromptsHTTP {
    /// The fields of a `SentPrompt` the tests read back.
    public static let sentFields = "id text status sentAt answeredAt youngPerson { id displayName }"
    /// The fields of a `Prompt` the tests read back.
    public static let promptFields = "id text status sentAt answeredAt dismissedAt from { id displayName } entry { id text }"
    public static let send = "mutation($y: ID!, $t: String!) { sendPrompt(youngPersonId: $y, text: $t) { \(sentFields) } }"
    public static let sent = "query($y: ID!, $first: Int) { sentPrompts(youngPersonId: $y, first: $first) { \(sentFields) } }"
    public static let prompts = "query($open: Boolean) { prompts(open: $open) { \(promptFields) } }"
    public static let dismiss = "mutation($id: ID!) { dismissPrompt(id: $id) { \(promptFields) } }"
}

/// The safety alert's operations.
public enum SafetyHTTP {
    /// The fields of a `SafetyAlert` the tests read back.
    public static let alertFields = """
        id message raisedAt status acknowledgedAt resolvedAt escalatedAt youngPerson { id displayName }
        acknowledgedBy { id displayName } resolvedBy { id displayName } notes { action by { id displayName } note at }
        """
    public static let raise = "mutation($m: String) { raiseSafetyAlert(message: $m) { id message raisedAt status acknowledgedAt resolvedAt } }"
    public static let mine = "{ mySafetyAlerts { id message raisedAt status acknowledgedAt resolvedAt } }"
    public static let alerts = "query($s: SafetyAlertStatus) { safetyAlerts(status: $s) { \(alertFields) } }"
    public static let acknowledge = "mutation($id: ID!, $n: String) { acknowledgeSafetyAlert(id: $id, note: $n) { \(alertFields) } }"
    public static let resolve = "mutation($id: ID!, $n: String) { resolveSafetyAlert(id: $id, note: $n) { \(alertFields) } }"
}

extension AccountsHarness {
    /// Sends `text` from `adult` to `youngPerson` over HTTP, which must succeed: the `SentPrompt`.
    @discardableResult
    public func sendPrompt(_ text: String, to youngPerson: TestPerson, from adult: TestPerson) async throws -> GraphQLValue {
        try await data(PromptsHTTP.send, "sendPrompt", ["y": youngPerson.idValue, "t": .string(text)], as: adult)
    }

    /// Raises an alert as `youngPerson` over HTTP, which must succeed: the `MySafetyAlert`.
    @discardableResult
    public func raiseAlert(_ message: String? = "I need help", as youngPerson: TestPerson) async throws -> GraphQLValue {
        try await data(SafetyHTTP.raise, "raiseSafetyAlert", ["m": message.map(GraphQLValue.string) ?? .null], as: youngPerson)
    }

    /// The kinds and titles of `person`'s notifications, newest first.
    public func notices(of person: TestPerson) async throws -> [(kind: String, title: String, subject: String?, actor: String?)] {
        try await data("{ notifications(first: 100) { edges { node { kind title subjectId actorId } } } }", "notifications", as: person)
            .nodes.map { node in
                (node["kind"]?.stringValue ?? "", node["title"]?.stringValue ?? "", node["subjectId"]?.stringValue, node["actorId"]?.stringValue)
            }
    }
}
