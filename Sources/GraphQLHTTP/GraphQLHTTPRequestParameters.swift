import GraphQL
import Hummingbird

/// A request the HTTP layer refuses before GraphQL sees it: malformed JSON, a wrong content
/// type, a body too large, a persisted-query hash that does not match. It is answered with its
/// own status code whatever the response media type, and a GraphQL-shaped body
/// (`{"errors":[{"message":…,"extensions":{"code":…}}]}`).
struct GraphQLHTTPFailure: Error, Equatable {
    var status: HTTPResponse.Status
    var message: String
    var code: String
    var headers: HTTPFields = [:]
    /// More of the error's `extensions`, beside `code` (``GraphQLHTTPExecutor/errorExtensions(for:context:)``).
    var extensions: GraphQLObject = [:]

    static func badRequest(_ message: String, code: String = "BAD_REQUEST") -> Self {
        Self(status: .badRequest, message: message, code: code)
    }

    static func tooLarge(_ message: String) -> Self {
        Self(status: .contentTooLarge, message: message, code: "PAYLOAD_TOO_LARGE")
    }

    /// The response body: one error, no `data`.
    var body: GraphQLValue {
        .object([
            "errors": .list([.object(["message": .string(message), "extensions": .object((["code": .string(code)] as GraphQLObject).adding(extensions))])])
        ])
    }
}

/// The parameters of one GraphQL-over-HTTP request (`query`, `operationName`, `variables`,
/// `extensions`, and `documentId` of the persisted-documents proposal), checked for type;
/// `query` may still be missing when a persisted query or a document id names the document.
struct GraphQLHTTPParameters: Equatable {
    var query: String?
    /// The id of a registered document to run instead of a `query` (graphql-codegen's client
    /// preset and the GraphQL-over-HTTP persisted documents proposal send it).
    var documentID: String?
    var operationName: String?
    var variables: GraphQLObject = [:]
    var extensions: GraphQLObject = [:]

    /// From a JSON object (a POST body or a multipart `operations` field). A `null` parameter
    /// is the same as a missing one; other keys are ignored.
    init(json: GraphQLValue) throws(GraphQLHTTPFailure) {
        guard case .object(let object) = json else {
            throw .badRequest("A GraphQL request must be a JSON object.")
        }
        switch object["query"] ?? .null {
        case .null: query = nil
        case .string(let text): query = text
        default: throw .badRequest("The `query` parameter must be a string.")
        }
        switch object["documentId"] ?? .null {
        case .null: documentID = nil
        case .string(let id): documentID = id
        default: throw .badRequest("The `documentId` parameter must be a string.")
        }
        switch object["operationName"] ?? .null {
        case .null: operationName = nil
        case .string(let name): operationName = name.isEmpty ? nil : name
        default: throw .badRequest("The `operationName` parameter must be a string.")
        }
        variables = try Self.object(object["variables"], named: "variables")
        extensions = try Self.object(object["extensions"], named: "extensions")
    }

    /// From a GET request's query string (form-urlencoded, `variables` and `extensions` as
    /// JSON text).
    init(queryString: String?, maxJSONDepth: Int) throws(GraphQLHTTPFailure) {
        var fields: [String: String] = [:]
        for pair in (queryString ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.formDecode(parts[0]), let value = Self.formDecode(parts.count > 1 ? parts[1] : "")
            else { throw .badRequest("The query string is not valid form-urlencoded UTF-8.") }
            guard fields[name] == nil else { throw .badRequest("The query string repeats `\(name)`.") }
            fields[name] = value
        }
        query = fields["query"]
        documentID = fields["documentId"]
        operationName = fields["operationName"].flatMap { $0.isEmpty ? nil : $0 }
        variables = try Self.object(Self.json(fields["variables"], named: "variables", maxDepth: maxJSONDepth), named: "variables")
        extensions = try Self.object(
            Self.json(fields["extensions"], named: "extensions", maxDepth: maxJSONDepth), named: "extensions")
    }

    private static func object(_ value: GraphQLValue?, named name: String) throws(GraphQLHTTPFailure) -> GraphQLObject {
        switch value ?? .null {
        case .null: return [:]
        case .object(let object): return object
        default: throw .badRequest("The `\(name)` parameter must be an object.")
        }
    }

    private static func json(_ text: String?, named name: String, maxDepth: Int) throws(GraphQLHTTPFailure) -> GraphQLValue? {
        guard let text, !text.isEmpty else { return nil }
        do {
            return try GraphQLValue(json: text, maxDepth: maxDepth)
        } catch {
            throw .badRequest("The `\(name)` parameter is not valid JSON: \(error.message).")
        }
    }

    /// Decodes one `application/x-www-form-urlencoded` name or value: `+` is a space, `%XX` a
    /// byte; the bytes must be UTF-8.
    static func formDecode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
