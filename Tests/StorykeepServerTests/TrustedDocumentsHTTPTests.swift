import Foundation
import GraphQL
import HTTPTypes
import NIOCore
import Storykeep
import StorykeepCore
import StorykeepServer
import StorykeepTestSupport
import Testing

/// Issue 17, trusted documents: the operations registered for a tenant's apps run by their id,
/// and a tenant with `graphql.trustedDocumentsOnly` runs nothing else.
@Suite("Trusted documents over HTTP")
struct TrustedDocumentsHTTPTests {
    static let activate =
        "mutation($c: String!, $u: String, $p: String!) { activateAccount(code: $c, username: $u, password: $p) { token } }"
    static let me = "query Me { me { id displayName } }"

    /// Posts `body` (a GraphQL-over-HTTP request object) to `tenant` as `token`.
    static func post(_ h: AccountsHarness, _ body: GraphQLObject, token: String, tenant: TestTenant) async throws -> GraphQLValue {
        let headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(token)"]
        return try await h.client.execute(
            uri: "/t/\(tenant.slug)/graphql", method: .post, headers: headers, body: ByteBuffer(string: GraphQLValue.object(body).json)
        ) { response in try response.json }
    }

    static func code(_ response: GraphQLValue) -> String? {
        response["errors"]?.listValue?.first?["extensions"]?["code"]?.stringValue
    }

    @Test func onlyRegisteredDocumentsRunWhereTheTenantSaysSoAndByTheirIdEverywhere() async throws {
        try await withAccounts(tenants: 2, tweak: { index, file in file.graphql.trustedDocumentsOnly = index == 1 }) { h in
            let (open, strict) = (h.tenants[0], h.tenants[1])
            let meID = TrustedDocuments.sha256Hex(Self.me)
            let documents = [meID: Self.me, "activate": Self.activate]
            let store = TenantStore(pool: h.owner)
            #expect(try await store.registerDocuments(documents, slug: strict.slug, replacing: false) == 2)
            #expect(try await store.registerDocuments(["only-here": "{ __typename }"], slug: open.slug, replacing: true) == 1)
            // As a running server's listener would on the tenants' NOTIFY (TenantChangesTests):
            // its first read of the tenants may have started before the second registration.
            try await h.served.refresh()

            // The strict tenant's app activates with its registered text and reads with its ids.
            let sam = try await h.person(.youngPerson, "sam", tenant: strict)
            for request: GraphQLObject in [
                ["query": .string(Self.me)],
                ["documentId": .string(meID)],
                ["documentId": .string("sha256:" + meID)],
                ["extensions": .object(["persistedQuery": .object(["version": .int(1), "sha256Hash": .string(meID)])])],
            ] {
                let response = try await Self.post(h, request, token: sam.token, tenant: strict)
                #expect(response["data"]?["me"]?["id"]?.stringValue == sam.idValue.stringValue, "\(request): \(response.json)")
            }
            // Anything else is refused before it runs: other text, the same operation written
            // differently, introspection.
            for query in ["{ me { id } }", "query Me { me { id displayName } } ", "{ __schema { types { name } } }"] {
                let response = try await Self.post(h, ["query": .string(query)], token: sam.token, tenant: strict)
                #expect(Self.code(response) == "PERSISTED_QUERY_NOT_ALLOWED", "\(query): \(response.json)")
                #expect(response["data"] == nil)
            }
            let unknown = try await Self.post(h, ["documentId": .string("nope")], token: sam.token, tenant: strict)
            #expect(Self.code(unknown) == "PERSISTED_QUERY_NOT_FOUND", "\(unknown.json)")

            // The open tenant runs any document, its own registered ones by id, and knows
            // nothing of the strict tenant's.
            let ann = try await h.person(.youngPerson, "ann", tenant: open)
            let any = try await Self.post(h, ["query": .string("{ me { id } }")], token: ann.token, tenant: open)
            #expect(any["data"]?["me"]?["id"]?.stringValue == ann.idValue.stringValue)
            let own = try await Self.post(h, ["documentId": .string("only-here")], token: ann.token, tenant: open)
            #expect(own["data"]?["__typename"]?.stringValue == "Query", "\(own.json)")
            let theirs = try await Self.post(h, ["documentId": .string(meID)], token: ann.token, tenant: open)
            #expect(Self.code(theirs) == "PERSISTED_QUERY_NOT_FOUND", "\(theirs.json)")

            // A subscription (graphql-ws and SSE subscribe through the same path) is held to it too.
            let served = try #require(try await TenantStore(pool: h.app).all().first { $0.id == strict.id })
            let token = try #require(SessionToken(presented: sam.token))
            let request = GraphQLRequest(query: "subscription { notificationAdded { id } }")
            guard case .failed(let refused) = await h.engine.subscribe(request, tenant: served, token: token, links: TenantLinks(root: "/"))
            else {
                Issue.record("an untrusted subscription was accepted")
                return
            }
            #expect(refused.errors.first?.extensions?["code"] == .string("PERSISTED_QUERY_NOT_ALLOWED"))
        }
    }
}
