import GraphQL
import HTTPTestSupport
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
        var headers: HTTPFields = [:]
        if let accept { headers[.accept] = accept }
        return try await execute(uri: "/graphql?" + formQuery(parameters), method: .get, headers: headers)
    }

    /// Whether the server still answers.
    func expectAlive() async throws {
        try await execute(uri: "/ping", method: .get) { response in
            #expect(response.status == .ok)
        }
    }
}
