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

    /// `Basic <base64(id:secret)>`, each form-encoded (RFC 6749 §2.3.1).
    static func basic(_ id: String, _ secret: String) -> String {
        "Basic " + Data("\(formEncode(id)):\(formEncode(secret))".utf8).base64EncodedString()
    }
}
