import Foundation
import HTTPTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GraphQLHTTP

/// A real client over a real socket: the PyPI `gql` client runs a query, a mutation, an upload
/// and a field error against a live server (Tests/GraphQLHTTPTests/Client/gql_client.py). Needs
/// python3 with `gql[requests]`, which `make test` installs; without them this test fails.
@Suite struct GraphQLHTTPClientTests {
    @Test func theGQLClientWorks() async throws {
        let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Client/gql_client.py")
        try await withGraphQLServer(try GraphQLHTTPTestSchema.handler(), setup: .live) { client in
            let port = try #require(client.port)
            let (status, output) = try await runProcess(["python3", script.path, "http://127.0.0.1:\(port)/graphql"])
            #expect(status == 0, "\(output)")
            #expect(output.contains("gql client: query, mutation, upload and field error OK"), "\(output)")
        }
    }
}
