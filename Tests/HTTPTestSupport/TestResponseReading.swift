import Foundation
import GraphQL
import HummingbirdTesting

/// What the HTTP tests read of a response, free of the domain: GraphQLHTTPTests use it, and
/// StorykeepTestSupport passes it on to the tests of the application.
extension TestResponse {
    /// The body as JSON.
    public var json: GraphQLValue {
        get throws { try GraphQLValue(json: body.readableBytesView) }
    }

    /// The body as JSON, in Foundation's terms.
    public var jsonObject: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8))) as? [String: Any]
    }

    /// The message of a Hummingbird JSON error body, `{"error":{"message":"..."}}`.
    public var errorMessage: String? {
        (jsonObject?["error"] as? [String: Any])?["message"] as? String
    }

    /// The messages of the body's GraphQL `errors`.
    public var errorMessages: [String] {
        ((try? json)?["errors"]?.listValue ?? []).compactMap { $0["message"]?.stringValue }
    }

    public var contentType: String? { headers[.contentType] }
}
