import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storykeep
import StorykeepTestSupport
import Testing

/// What the export module's tests over HTTP share: its operations, its clients and their tokens.
enum ExportHTTP {
    /// A tenant with tags, sharing, the archive and the export on.
    static let tenant: @Sendable (Int, inout TenantFile) -> Void = { _, file in
        file.modules = [.tags, .sharing, .archive, .export]
    }

    static let clientFields = "id name createdAt rotatedAt previousSecretValidUntil revokedAt"
    static let createClient = "mutation($n: String!) { createCmsClient(name: $n) { client { \(clientFields) } clientSecret } }"
    static let rotate = "mutation($id: ID!) { rotateCmsClientSecret(id: $id) { client { \(clientFields) } clientSecret } }"
    static let revoke = "mutation($id: ID!) { revokeCmsClient(id: $id) { \(clientFields) } }"
    static let clients = "{ cmsClients { \(clientFields) } }"
    static let whoAmI = "{ export { client { id name } } }"
    static let entryFields = """
        id revision date kind text mood tags background createdAt updatedAt youngPerson { id externalRef displayName }
        sharedWith { person { id displayName } relationship sharedAt message } media { id contentType byteSize sha256 url }
        """
    static let changes = """
        query($after: String, $first: Int) {
          export { changes(after: $after, first: $first) { items { op sequence entryId entry { \(entryFields) } } cursor hasMore } }
        }
        """
    static let document = """
        query($after: String) { export { changes(after: $after) { items { entryId entry { document { html contentType } } } cursor } } }
        """
}

/// What a client has pulled: the changes in order, and where to go on from.
struct Pulled {
    var items: [GraphQLValue] = []
    var cursor: String?

    /// The ops and entries, in order.
    var ops: [String] { items.map { "\($0["op"]?.stringValue ?? "?") \($0["entryId"]?.stringValue ?? "?")" } }
}

/// A client's credentials, as an admin handed them over.
struct TestClient: Sendable {
    let id: String
    let secret: String
}

extension AccountsHarness {
    /// A new client called `name`, created by `admin`.
    func cmsClient(_ name: String = "Mosaic", admin: TestPerson) async throws -> TestClient {
        let created = try await data(ExportHTTP.createClient, "createCmsClient", ["n": .string(name)], as: admin)
        return TestClient(id: try #require(created["client"]?.id), secret: try #require(created["clientSecret"]?.stringValue))
    }

    /// POSTs `form` to the tenant's `oauth/token` with `headers` (a form's content type unless
    /// they name another).
    func tokenRequest(_ form: String, headers extra: HTTPFields = [:], tenant: TestTenant? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        for field in extra { headers[field.name] = field.value }
        return try await client.execute(
            uri: "/t/\((tenant ?? self.tenant).slug)/oauth/token", method: .post, headers: headers, body: ByteBuffer(string: form)
        ) { $0 }
    }

    /// Asks for a token for `cms` with HTTP Basic, as a case management system does.
    func tokenRequest(for cms: TestClient, secret: String? = nil, tenant: TestTenant? = nil) async throws -> TestResponse {
        try await tokenRequest(
            "grant_type=client_credentials", headers: [.authorization: Self.basic(cms.id, secret ?? cms.secret)], tenant: tenant)
    }

    /// A token for `cms`, which must be issued.
    func clientToken(_ cms: TestClient) async throws -> String {
        let response = try await tokenRequest(for: cms)
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        return try #require(try response.json["access_token"]?.stringValue)
    }

    /// One page of the feed after `after`, as the client with `token`, which must answer.
    func pull(_ token: String, after: String?, first: Int = 100) async throws -> GraphQLValue {
        let response = try await graphQL(ExportHTTP.changes, ["after": after.map(GraphQLValue.string) ?? .null, "first": .int(first)], token: token)
        #expect(response["errors"] == nil, "\(response.json)")
        return try #require(response["data"]?["export"]?["changes"], "\(response.json)")
    }

    /// Pulls from `after` until `enough` says the changes pulled are (the newest changes appear
    /// once every transaction older than theirs has ended, which other tests' may delay by a
    /// moment), then on to the end of the feed: all it pulled.
    func pull(_ token: String, after: String?, until enough: (Pulled) -> Bool) async throws -> Pulled {
        var pulled = Pulled(cursor: after)
        for _ in 0..<200 {
            let page = try await pull(token, after: pulled.cursor)
            pulled.items += page["items"]?.listValue ?? []
            pulled.cursor = page["cursor"]?.stringValue
            if enough(pulled), page["hasMore"] == .bool(false) { return pulled }
            if page["hasMore"] != .bool(true) { try await Task.sleep(for: .milliseconds(25)) }
        }
        Issue.record("the feed never held what was expected: \(pulled.ops)")
        return pulled
    }

    /// `Basic <base64(id:secret)>`, each form-encoded (RFC 6749 §2.3.1).
    static func basic(_ id: String, _ secret: String) -> String {
        "Basic " + Data("\(formEncode(id)):\(formEncode(secret))".utf8).base64EncodedString()
    }
}
