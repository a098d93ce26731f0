import GraphQL
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GraphQLHTTP

/// Runs `test` against an application that serves `handler` at `/graphql`, in process.
func withGraphQLServer<Executor: GraphQLHTTPExecutor>(
    _ handler: GraphQLHTTPHandler<Executor>, setup: TestingSetup = .router,
    _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
) async throws where Executor.Context == BasicRequestContext {
    let router = Router()
    router.addGraphQLRoutes(handler)
    router.get("/ping") { _, _ in "pong" }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(setup) { client in try await test(client) }
}

extension TestClientProtocol {
    /// POSTs a body to `/graphql`.
    func post(
        _ body: String, contentType: String? = "application/json", accept: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if let contentType { headers[.contentType] = contentType }
        if let accept { headers[.accept] = accept }
        return try await execute(uri: "/graphql", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    /// POSTs `{"query": query}` as JSON.
    func post(query: String, accept: String? = nil) async throws -> TestResponse {
        try await post(GraphQLValue.object(["query": .string(query)]).json, accept: accept)
    }

    /// GETs `/graphql` with form-encoded parameters.
    func get(_ parameters: [(String, String)], accept: String? = nil) async throws -> TestResponse {
        let query = parameters.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
        var headers: HTTPFields = [:]
        if let accept { headers[.accept] = accept }
        return try await execute(uri: "/graphql?" + query, method: .get, headers: headers)
    }

    /// Whether the server still answers.
    func expectAlive() async throws {
        try await execute(uri: "/ping", method: .get) { response in
            #expect(response.status == .ok)
        }
    }
}

extension TestResponse {
    /// The body as JSON.
    var json: GraphQLValue {
        get throws { try GraphQLValue(json: body.readableBytesView) }
    }

    /// The messages of the body's `errors`.
    var errorMessages: [String] {
        ((try? json)?["errors"]?.listValue ?? []).compactMap { $0["message"]?.stringValue }
    }

    var contentType: String? { headers[.contentType] }
}

/// Percent-encodes for a query string the way URLSearchParams does (space as `+`).
func formEncode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "*"):
            out.unicodeScalars.append(Unicode.Scalar(byte))
        case UInt8(ascii: " "): out += "+"
        default: out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }
    }
    return out
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
