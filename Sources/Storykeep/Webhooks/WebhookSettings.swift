import Foundation
public import StorykeepCore

extension TenantFile {
    /// `webhooks`: where the agency's own systems are told of events (none by default).
    public var webhooks: WebhookEndpoints {
        get { self[WebhookEndpoints.self] }
        set { self[WebhookEndpoints.self] = newValue }
    }
}

/// `webhooks:` in a tenant file: a list of at most ``maxCount`` webhooks.
///
/// ```yaml
/// webhooks:
///   - url: https://duty.example-agency.org/storykeep
///     events: [safetyAlert.raised, safetyAlert.escalated]
///     secretEnv: STORYKEEP_WEBHOOK_SECRET_DUTY
/// ```
public struct WebhookEndpoints: TenantFileValue {
    public static let tenantFileKey = "webhooks"
    public static let defaultValue = WebhookEndpoints()
    /// The most webhooks one agency may list.
    public static let maxCount = 10

    public var endpoints: [Webhook]

    public init(_ endpoints: [Webhook] = []) {
        self.endpoints = endpoints
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        endpoints = try container.decode([Webhook].self)
        guard endpoints.count <= Self.maxCount else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected at most \(Self.maxCount) webhooks")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(endpoints)
    }
}

/// One webhook of a tenant file: a receiver, the events it is sent, and its signing secret.
public struct Webhook: Codable, Sendable, Equatable {
    /// `url` (required): an `https://` (or, for a receiver on the agency's own network, `http://`)
    /// address of at most 2,000 characters, with a host.
    public var url: String
    /// `events` (required, at least one): which events it is sent.
    public var events: [WebhookEvent]
    /// `secretEnv` (required): the name of the environment variable of the server that holds the
    /// signing secret, Standard Webhooks' `whsec_<base64>` (or any other text, used as its bytes).
    /// The secret itself is never in the tenant file, nor in the database.
    public var secretEnv: String

    public init(url: String, events: [WebhookEvent], secretEnv: String) {
        self.url = url
        self.events = events
        self.secretEnv = secretEnv
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case url, events, secretEnv }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        url = try c.decode(String.self, forKey: .url)
        try c.require(Self.isReceiverAddress(url), at: .url, "an https:// or http:// address with a host, of at most 2000 characters")
        events = try c.decode([WebhookEvent].self, forKey: .events)
        try c.require(!events.isEmpty, at: .events, "at least one of: \(WebhookEvent.allCases.map(\.rawValue).joined(separator: ", "))")
        secretEnv = try c.decode(String.self, forKey: .secretEnv)
        try c.require(
            secretEnv.wholeMatch(of: /[A-Z_][A-Z0-9_]{0,127}/) != nil, at: .secretEnv,
            "the name of an environment variable (capital letters, digits and _), not the secret itself")
    }

    static func isReceiverAddress(_ text: String) -> Bool {
        guard text.count <= 2000, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty
        else { return false }
        return text.wholeMatch(of: /[hH][tT][tT][pP][sS]?:\/\/[^\s]+/) != nil
    }
}

/// What a webhook may be sent: its `type` in the body, and its name in `webhooks[].events`.
public enum WebhookEvent: String, Codable, Sendable, ClosedSetDecodable {
    /// A young person raised a safety alert: `data` has `safetyAlertId`, `youngPersonId`.
    case safetyAlertRaised = "safetyAlert.raised"
    /// Nobody acknowledged an alert in time, and the agency admins were told: the same `data`.
    case safetyAlertEscalated = "safetyAlert.escalated"
    /// A young person shared an entry with an adult: `shareId`, `entryId`, `youngPersonId`, `adultId`.
    case entryShared = "entry.shared"
}
