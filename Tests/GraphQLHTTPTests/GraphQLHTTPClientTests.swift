import Foundation
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
            let (status, output) = try await run(["python3", script.path, "http://127.0.0.1:\(port)/graphql"])
            #expect(status == 0, "\(output)")
            #expect(output.contains("gql client: query, mutation, upload and field error OK"), "\(output)")
        }
    }

    /// Runs a command and waits for it without blocking a thread of the concurrency pool (the
    /// server under test needs them).
    func run(_ arguments: [String]) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (status, output)
    }
}
