import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storykeep
import StorykeepTestSupport
import Testing

@testable import GraphQLHTTP
@testable import StorykeepServer

// Issue 16, item 3: the persisted-query store must not tell anyone what someone else sent. Each
// tenant has its own store, a hash known at another tenant is answered as a hash nobody sent,
// and a document with values of its own (a search term, a password) is never stored.

@Suite("Persisted queries per tenant, over HTTP")
struct PersistedQueryTenancyTests {
    /// The `persistedQuery` extension for `query`.
    static func extensions(_ query: String) -> GraphQLValue {
        .object(["persistedQuery": .object(["version": .int(1), "sha256Hash": .string(GraphQLHTTPPersistedQueries.sha256Hex(query))])])
    }

    @Test func anotherTenantCannotTellWhetherAQueryWasSent() async throws {
        try await withAccounts(tenants: 2, tweak: JournalHTTP.tenant) { h in
            let (a, b) = (h.tenants[0], h.tenants[1])
            let sent = "query Recent($n: Int) { entries(first: $n) { edges { node { id text } } } }"
            let neverSent = "query Recent($n: Int) { entries(first: $n) { edges { node { id mood } } } }"
            let before = try await h.persisted(sent, at: b)
            let unknown = try await h.persisted(neverSent, at: b)
            #expect(before.errorCode == "PERSISTED_QUERY_NOT_FOUND")

            let sam = try await h.youngPerson("sam", tenant: a).token
            let registered = try await h.persisted(sent, withQuery: true, variables: ["n": .int(5)], token: sam, at: a)
            #expect(registered.body["data"]?["entries"]?.nodes == [], "\(registered.body.json)")
            // Known at A now: found there, by anyone (it runs as them).
            let again = try await h.persisted(sent, variables: ["n": .int(5)], token: sam, at: a)
            #expect(again.body["data"]?["entries"]?.nodes == [], "\(again.body.json)")

            // At B: byte for byte what an unknown hash gets (but for each request's own trace id),
            // anonymous or logged in, POST or GET.
            let olly = try await h.youngPerson("olly", tenant: b).token
            for token in [nil, olly] {
                for method in [HTTPRequest.Method.post, .get] {
                    let after = try await h.persisted(sent, token: token, at: b, method: method)
                    let other = try await h.persisted(neverSent, token: token, at: b, method: method)
                    #expect(after.status == other.status)
                    #expect(Self.withoutTraceID(after.body) == Self.withoutTraceID(other.body))
                    #expect(after.errorCode == "PERSISTED_QUERY_NOT_FOUND")
                }
            }
            #expect(Self.withoutTraceID(before.body) == Self.withoutTraceID(unknown.body))
        }
    }

    /// A response with its errors' `extensions.traceId` (each request's own) taken out.
    static func withoutTraceID(_ body: GraphQLValue) -> GraphQLValue {
        guard case .object(var object) = body, case .list(let errors)? = object["errors"] else { return body }
        object["errors"] = .list(errors.map { error in
            guard case .object(var error) = error, case .object(var extensions)? = error["extensions"] else { return error }
            #expect(extensions["traceId"] != nil)
            extensions["traceId"] = nil
            error["extensions"] = .object(extensions)
            return .object(error)
        })
        return .object(object)
    }

    @Test func documentsWithTheirOwnValuesAreNeverStored() async throws {
        try await withAccounts(tenants: 1, tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            let search = #"{ search(query: "what I searched for") { edges { node { id } } } }"#
            let ran = try await h.persisted(search, withQuery: true, token: sam, at: h.tenant)
            #expect(ran.body["data"]?["search"]?.nodes == [], "\(ran.body.json)")
            // Not even its sender finds it again by its hash, so nobody can test for it.
            for token in [nil, sam] {
                #expect(try await h.persisted(search, token: token, at: h.tenant).errorCode == "PERSISTED_QUERY_NOT_FOUND")
            }

            let login = #"mutation { login(username: "sam-probe", password: "a guess at it") { token } }"#
            let tried = try await h.persisted(login, withQuery: true, at: h.tenant)
            #expect(tried.body.errorCode == "UNAUTHENTICATED", "\(tried.body.json)")
            #expect(try await h.persisted(login, at: h.tenant).errorCode == "PERSISTED_QUERY_NOT_FOUND")
            try await h.client.execute(uri: "/health/live", method: .get) { #expect($0.status == .ok) }
        }
    }
}

/// A response to a persisted-query request.
struct PersistedResponse {
    var status: HTTPResponse.Status
    var body: GraphQLValue
    var errorCode: String? { body.errorCode }
}

extension AccountsHarness {
    /// Sends `query`'s hash (with the query itself when `withQuery`) to `tenant`'s endpoint.
    func persisted(
        _ query: String, withQuery: Bool = false, variables: GraphQLObject = [:], token: String? = nil,
        at tenant: TestTenant, method: HTTPRequest.Method = .post
    ) async throws -> PersistedResponse {
        var headers: HTTPFields = [.accept: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        let extensions = PersistedQueryTenancyTests.extensions(query)
        let uri: String
        var body: ByteBuffer?
        if method == .get {
            var parameters = [("extensions", extensions.json), ("variables", GraphQLValue.object(variables).json)]
            if withQuery { parameters.append(("query", query)) }
            uri = "/t/\(tenant.slug)/graphql?" + formQuery(parameters)
        } else {
            headers[.contentType] = "application/json"
            var object: GraphQLObject = ["extensions": extensions, "variables": .object(variables)]
            if withQuery { object["query"] = .string(query) }
            uri = "/t/\(tenant.slug)/graphql"
            body = ByteBuffer(string: GraphQLValue.object(object).json)
        }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body) { response in
            PersistedResponse(status: response.status, body: try response.json)
        }
    }
}
