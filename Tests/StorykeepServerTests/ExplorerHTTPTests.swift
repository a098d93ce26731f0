import Foundation
import HTTPTypes
import StorykeepCore
import StorykeepTestSupport
import Testing

/// Issue 17, the explorer: with `explorer.enabled`, a browser's `GET` of a tenant's GraphQL URL
/// gets a GraphiQL page aimed at that URL; GraphQL clients' requests are answered as before, and
/// with it off a browser gets what it got before.
@Suite("The GraphQL explorer")
struct ExplorerHTTPTests {
    /// What Chromium's address bar sends.
    static let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

    /// `GET uri` with `accept` (and `token` as a bearer token): status, headers, body.
    static func get(_ h: AccountsHarness, _ uri: String, accept: String?, token: String? = nil) async throws -> (
        HTTPResponse.Status, HTTPFields, String
    ) {
        var headers = HTTPFields()
        if let accept { headers[.accept] = accept }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await h.client.execute(uri: uri, method: .get, headers: headers) { response in
            (response.status, response.headers, String(buffer: response.body))
        }
    }

    static func on(_ config: inout StorykeepConfig) {
        config.explorer.enabled = true
    }

    @Test func aBrowserGetsGraphiQLAimedAtTheTenantsEndpoint() async throws {
        try await withAccounts(configure: { config in
            Self.on(&config)
            config.metrics.bearerToken = "metrics-secret-4f1c"
        }) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let endpoint = "/t/\(h.tenant.slug)/graphql"
            let (status, headers, page) = try await Self.get(h, endpoint, accept: Self.browser, token: ada.token)
            #expect(status == .ok)
            #expect(headers[.contentType] == "text/html; charset=utf-8")
            #expect(headers[values: .vary].contains { $0.contains("Accept") })
            #expect(page.contains("data-endpoint=\"\(endpoint)\""))
            #expect(page.contains("<title>\(h.tenant.file.displayName) · GraphQL explorer</title>"))
            // The pinned versions from the CDN by default.
            #expect(page.contains("src=\"https://unpkg.com/graphiql@3.8.3/graphiql.min.js\""))
            #expect(page.contains("href=\"https://unpkg.com/graphiql@3.8.3/graphiql.min.css\""))
            // The one inline script is the one the policy's hash admits; nothing else may run.
            let policy = try #require(headers[.contentSecurityPolicy])
            let script = try #require(Self.inlineScript(of: page))
            let hash = "'sha256-" + Data(Crypto.sha256(Array(script.utf8))).base64EncodedString() + "'"
            #expect(policy.contains("script-src https://unpkg.com \(hash);"))
            #expect(policy.contains("connect-src 'self'"))
            #expect(policy.contains("frame-ancestors 'none'"))
            // Nothing of the request's credentials or the server's secrets is written into it.
            #expect(!page.contains(ada.token))
            #expect(!page.contains("metrics-secret-4f1c"))
            #expect(!page.contains(h.tenant.id.uuidString.lowercased()))
        }
    }

    @Test func graphQLClientsAreAnsweredAsBefore() async throws {
        try await withAccounts(configure: Self.on) { h in
            let endpoint = "/t/\(h.tenant.slug)/graphql"
            let query = endpoint + "?query=%7B__typename%7D"
            for accept in [nil, "application/json", "application/graphql-response+json", "*/*", "text/html;q=0.5, application/json"] {
                let (status, headers, body) = try await Self.get(h, query, accept: accept)
                #expect(status == .ok, "\(accept ?? "no Accept")")
                #expect(headers[.contentType]?.hasPrefix("application/") == true, "\(accept ?? "no Accept")")
                #expect(body == #"{"data":{"__typename":"Query"}}"#, "\(accept ?? "no Accept")")
            }
            // A POST asking for HTML is GraphQL over HTTP's, as ever: 406.
            let post = try await h.client.execute(
                uri: endpoint, method: .post, headers: [.accept: "text/html", .contentType: "application/json"],
                body: .init(string: #"{"query":"{__typename}"}"#)
            ) { $0.status }
            #expect(post == .notAcceptable)
        }
    }

    @Test func offByDefaultABrowserGetsWhatItGotBefore() async throws {
        try await withAccounts { h in
            #expect(try await testConfig().explorer.enabled == false)
            let endpoint = "/t/\(h.tenant.slug)/graphql"
            let (status, headers, body) = try await Self.get(h, endpoint, accept: Self.browser)
            // GraphQL over HTTP: a GET without a query is a bad request, in JSON (`*/*` takes JSON).
            #expect(status == .badRequest)
            #expect(headers[.contentType] == "application/json; charset=utf-8")
            #expect(!body.contains("<html"))
            #expect(headers[.contentSecurityPolicy] == nil)
        }
    }

    @Test func anAgencyMayHostTheAssetsAndATrustedDocumentsTenantHasNoExplorer() async throws {
        try await withAccounts(
            tenants: 2, tweak: { index, file in file.graphql.trustedDocumentsOnly = index == 1 },
            configure: { config in
                Self.on(&config)
                config.explorer.assetsURL = "https://static.agency.example/graphiql/"
            }
        ) { h in
            let (status, headers, page) = try await Self.get(h, "/t/\(h.tenants[0].slug)/graphql", accept: Self.browser)
            #expect(status == .ok)
            #expect(page.contains("src=\"https://static.agency.example/graphiql/react.production.min.js\""))
            #expect(page.contains("href=\"https://static.agency.example/graphiql/graphiql.min.css\""))
            #expect(!page.contains("unpkg.com"))
            #expect(headers[.contentSecurityPolicy]?.contains("script-src https://static.agency.example/graphiql/ 'sha256-") == true)

            // Only registered documents run there: neither introspection nor a typed query would.
            let (refused, refusedHeaders, text) = try await Self.get(h, "/t/\(h.tenants[1].slug)/graphql", accept: Self.browser)
            #expect(refused == .forbidden)
            #expect(refusedHeaders[.contentType] == "text/plain; charset=utf-8")
            #expect(text.contains("graphql.trustedDocumentsOnly"))
        }
    }

    /// The text of the page's inline `<script>` (the one without `src`).
    static func inlineScript(of page: String) -> String? {
        guard let start = page.range(of: "<script>"), let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex) else {
            return nil
        }
        return String(page[start.upperBound..<end.lowerBound])
    }
}
