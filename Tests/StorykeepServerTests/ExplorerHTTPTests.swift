import Foundation
import HTTPTypes
import StorykeepCore
@testable import StorykeepServer
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
            // The pinned versions from the CDN by default, each with its integrity hash.
            #expect(page.contains(#"<script src="https://cdn.jsdelivr.net/npm/graphiql@2.4.7/graphiql.min.js" integrity="sha256-"#))
            #expect(page.contains(#"href="https://cdn.jsdelivr.net/npm/graphiql@2.4.7/graphiql.min.css" integrity="sha256-"#))
            for file in ["react@17.0.2/umd/react.production.min.js", "react-dom@17.0.2/umd/react-dom.production.min.js"] {
                #expect(page.contains(#"src="https://cdn.jsdelivr.net/npm/\#(file)" integrity="sha384-"#), "\(file)")
            }
            #expect(page.components(separatedBy: #"crossorigin="anonymous""#).count == 5)
            // The one inline script is the one the policy's hash admits; nothing else may run.
            let policy = try #require(headers[.contentSecurityPolicy])
            let script = try #require(Self.inlineScript(of: page))
            let hash = "'sha256-" + Data(Crypto.sha256(Array(script.utf8))).base64EncodedString() + "'"
            #expect(policy.contains("script-src https://cdn.jsdelivr.net \(hash);"))
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
            #expect(page.contains(#"src="https://static.agency.example/graphiql/react.production.min.js" crossorigin="anonymous""#))
            #expect(page.contains(#"href="https://static.agency.example/graphiql/graphiql.min.css" crossorigin="anonymous""#))
            #expect(!page.contains("jsdelivr") && !page.contains("integrity="))
            #expect(headers[.contentSecurityPolicy]?.contains("script-src https://static.agency.example/graphiql/ 'sha256-") == true)

            // Only registered documents run there: neither introspection nor a typed query would.
            let (refused, refusedHeaders, text) = try await Self.get(h, "/t/\(h.tenants[1].slug)/graphql", accept: Self.browser)
            #expect(refused == .forbidden)
            #expect(refusedHeaders[.contentType] == "text/plain; charset=utf-8")
            #expect(text.contains("graphql.trustedDocumentsOnly"))
        }
    }

    /// React's pinned integrity hashes are those of the files themselves: the local copy's
    /// SHA-384 digests (the copy whose SHA-256 digests are the ones published for the CDN's URLs).
    @Test func theCDNsReactFilesArePinnedByTheirOwnDigests() async throws {
        let (status, output) = try await runProcess(["python3", Self.browserScript, "digests"])
        #expect(status == 0, "\(output)")
        let digests = try JSONDecoder().decode([String: String].self, from: Data(output.utf8))
        #expect(digests["react.production.min.js"] == ExplorerPage.Assets.cdn.react.integrity)
        #expect(digests["react-dom.production.min.js"] == ExplorerPage.Assets.cdn.reactDOM.integrity)
    }

    /// The page in a real browser, offline: headless Chromium opens the explorer of a server whose
    /// `explorer.assetsUrl` is a folder a local server serves (React 17 and GraphiQL 2, the copies
    /// PyPI's graphene-django-graphiql-static ships); GraphiQL renders under the page's
    /// Content-Security-Policy, from those files alone. (The CDN's files cannot be reached here.)
    @Test func aBrowserRendersGraphiQLFromTheAgencysOwnFiles() async throws {
        let (_, portText) = try await runProcess(["python3", Self.browserScript, "free-port"])
        let assetsPort = try #require(Int(portText.trimmingCharacters(in: .whitespacesAndNewlines)))
        try await withAccounts(
            setup: .live,
            configure: { config in
                Self.on(&config)
                config.explorer.assetsURL = "http://127.0.0.1:\(assetsPort)/graphiql/"
            }
        ) { h in
            let url = "http://127.0.0.1:\(try #require(h.client.port))/t/\(h.tenant.slug)/graphql"
            let (status, output) = try await runProcess(["python3", Self.browserScript, "run", url, String(assetsPort)])
            #expect(status == 0, "\(output)")
            struct Outcome: Decodable {
                var rendered: Bool
                var loading: Bool
                var requested: [String]
            }
            let outcome = try JSONDecoder().decode(Outcome.self, from: Data(output.utf8))
            #expect(outcome.rendered, "\(output)")
            #expect(!outcome.loading, "\(output)")
            #expect(
                outcome.requested == [
                    "/graphiql/graphiql.min.css", "/graphiql/graphiql.min.js", "/graphiql/react-dom.production.min.js",
                    "/graphiql/react.production.min.js",
                ], "\(output)")
        }
    }

    static let browserScript = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Client/explorer_browser.py").path

    /// The text of the page's inline `<script>` (the one without `src`).
    static func inlineScript(of page: String) -> String? {
        guard let start = page.range(of: "<script>"), let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex) else {
            return nil
        }
        return String(page[start.upperBound..<end.lowerBound])
    }
}
