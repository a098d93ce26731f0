import Foundation
import GraphQL
@_exported import HTTPTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// GraphQL over HTTP to the test server's tenants, as an app sends it.
extension AccountsHarness {
    /// POSTs one operation to `/t/<slug>/graphql` (the first tenant's by default) as JSON, with
    /// the session `token` if any: the response's JSON.
    public func graphQL(
        _ query: String, _ variables: GraphQLObject = [:], token: String? = nil, tenant: TestTenant? = nil
    ) async throws -> GraphQLValue {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        let body = GraphQLValue.object(["query": .string(query), "variables": .object(variables)]).json
        let slug = (tenant ?? self.tenant).slug
        return try await client.execute(uri: "/t/\(slug)/graphql", method: .post, headers: headers, body: ByteBuffer(string: body)) {
            response in try response.json
        }
    }

    /// The root field `field` of what `query` answers `person`, which must answer without errors.
    public func data(
        _ query: String, _ field: String, _ variables: GraphQLObject = [:], as person: TestPerson,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> GraphQLValue {
        let response = try await graphQL(query, variables, token: person.token)
        #expect(response["errors"] == nil, "\(response.json)", sourceLocation: sourceLocation)
        return try #require(response["data"]?[field], "\(response.json)", sourceLocation: sourceLocation)
    }

    /// An operation whose variables `files` name uploads, sent as an app sends it (a GraphQL
    /// multipart request, with the preflight header): each file goes to the variable path
    /// `variables.<path>`.
    public func upload(
        _ query: String, _ variables: GraphQLObject, files: [(path: String, bytes: [UInt8], contentType: String)], token: String
    ) async throws -> GraphQLValue {
        var (headers, body) = GraphQLMultipart.request(query, variables, files: files)
        headers[.authorization] = "Bearer \(token)"
        return try await client.execute(
            uri: "/t/\(tenant.slug)/graphql", method: .post, headers: headers, body: ByteBuffer(bytes: body)
        ) { response in try response.json }
    }

    /// GETs `path` with the session `token` (if any) and extra headers.
    public func get(_ path: String, token: String?, headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: path, method: .get, headers: headers, body: nil) { $0 }
    }
}

/// What the tests read of a GraphQL response.
extension GraphQLValue {
    /// The `extensions.code` of a response's first error.
    public var errorCode: String? { self["errors"]?.listValue?.first?["extensions"]?["code"]?.stringValue }
    /// The first error's `extensions` (`field`, for BAD_USER_INPUT).
    public var errorExtensions: GraphQLValue? { self["errors"]?.listValue?.first?["extensions"] }
    /// The first error's message.
    public var errorMessage: String? { self["errors"]?.listValue?.first?["message"]?.stringValue }
    /// The nodes of a connection's edges.
    public var nodes: [GraphQLValue] { self["edges"]?.listValue?.compactMap { $0["node"] } ?? [] }
    /// An object's `id`.
    public var id: String? { self["id"]?.stringValue }
}

/// A GraphQL multipart request (the GraphQL multipart request specification) as an app sends it,
/// with the preflight header: each file goes to the variable path `variables.<path>`.
public enum GraphQLMultipart {
    /// Its headers (no token) and body.
    public static func request(
        _ query: String, _ variables: GraphQLObject, files: [(path: String, bytes: [UInt8], contentType: String)]
    ) -> (headers: HTTPFields, body: [UInt8]) {
        let boundary = "journal-test-boundary"
        var body: [UInt8] = []
        body.reserveCapacity(files.reduce(4096) { $0 + $1.bytes.count + 256 })
        func part(_ headers: String, _ content: [UInt8]) {
            body += Array("--\(boundary)\r\n\(headers)\r\n\r\n".utf8) + content + Array("\r\n".utf8)
        }
        part("Content-Disposition: form-data; name=\"operations\"",
             Array(GraphQLValue.object(["query": .string(query), "variables": .object(variables)]).json.utf8))
        var map = GraphQLObject()
        for (index, file) in files.enumerated() { map["\(index)"] = .list([.string("variables.\(file.path)")]) }
        part("Content-Disposition: form-data; name=\"map\"", Array(GraphQLValue.object(map).json.utf8))
        for (index, file) in files.enumerated() {
            part("Content-Disposition: form-data; name=\"\(index)\"; filename=\"file\(index)\"\r\nContent-Type: \(file.contentType)", file.bytes)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        let headers: HTTPFields = [
            .contentType: "multipart/form-data; boundary=\(boundary)", HTTPField.Name("GraphQL-Require-Preflight")!: "1",
        ]
        return (headers, body)
    }
}
