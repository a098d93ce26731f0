import GraphQL
import HTTPTypes
import Storykeep
import StorykeepTestSupport
import Testing

/// Issue 17, the schema for code generators: `GET /t/<slug>/schema.graphql` gives the tenant's
/// SDL to its agency admins only.
@Suite("The schema for code generators")
struct SchemaEndpointHTTPTests {
    @Test func anAdminReadsTheTenantsSchemaOthersAreRefused() async throws {
        try await withAccounts(tenants: 2) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let other = try await h.person(.agencyAdmin, "otto", tenant: h.tenants[1])
            let uri = "/t/\(h.tenant.slug)/schema.graphql"
            func get(_ token: String?) async throws -> (HTTPResponse.Status, String, HTTPFields) {
                var headers = HTTPFields()
                if let token { headers[.authorization] = "Bearer \(token)" }
                return try await h.client.execute(uri: uri, method: .get, headers: headers) { response in
                    (response.status, String(buffer: response.body), response.headers)
                }
            }
            let (status, sdl, headers) = try await get(ada.token)
            #expect(status == .ok)
            #expect(headers[.contentType] == "text/plain; charset=utf-8")
            let expected = printSchema(try h.engine.schemas.schema(for: h.tenant.file).schema)
            #expect(sdl == expected + "\n")
            #expect(sdl.contains("type Query {"))

            let (anonymous, _, challenge) = try await get(nil)
            #expect(anonymous == .unauthorized)
            #expect(challenge[.wwwAuthenticate] == "Bearer")
            #expect(try await get("not-a-token").0 == .unauthorized)
            #expect(try await get(sam.token).0 == .forbidden)
            // Another tenant's admin has no session here.
            #expect(try await get(other.token).0 == .unauthorized)
        }
    }
}
