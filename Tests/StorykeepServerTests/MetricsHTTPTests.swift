import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storykeep
import StorykeepCore
@testable import StorykeepServer
import StorykeepTestSupport
import Testing

/// Issue 17: `GET /metrics`, scraped and parsed with prometheus-client's text parser.
@Suite struct MetricsHTTPTests {
    static let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Client/metrics_scrape.py").path

    struct Sample: Decodable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// The status of a scrape of `url` and, on 200, its samples.
    static func scrape(_ url: String, token: String = "", forwardedFor: String = "") async throws -> (status: Int, samples: [Sample]) {
        let file = FileManager.default.temporaryDirectory.appending(path: "scrape-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let (exit, output) = try await runProcess(["python3", script, url, file.path, token, forwardedFor])
        #expect(exit == 0, "\(output)")
        let status = try #require(Int(output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(output)")
        guard status == 200 else { return (status, []) }
        return (status, try JSONDecoder().decode([Sample].self, from: Data(contentsOf: file)))
    }

    @Test func requestsErrorsAndLoginFailuresAreScrapedByTenantOperationAndStatus() async throws {
        try await withAccounts(setup: .live, tweak: { _, file in file.lockout.freeAttempts = 1 }) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let slug = h.tenant.slug
            for _ in 0..<2 {
                #expect(try await h.graphQL("query FeedQuery { me { id } }", token: sam.token).errorCode == nil)
            }
            _ = try await h.graphQL("query Bad-Name { me { id } }", token: sam.token)
            let weird = try await h.client.execute(
                uri: "/t/\(slug)/graphql", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"query":"query Ünïcode { me { id } }","operationName":"Ünïcode"}"#)) { $0.status }
            #expect(weird == .ok || weird == .badRequest)
            // Two wrong passwords: a failure, then a lockout.
            for _ in 0..<3 { _ = try await h.login(sam.loginName, "not my password") }

            let (status, samples) = try await Self.scrape("http://127.0.0.1:\(try #require(h.client.port))/metrics")
            #expect(status == 200)
            func value(_ name: String, _ labels: [String: String]) -> Double {
                samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.map(\.value).reduce(0, +)
            }
            #expect(value("storykeep_http_requests_total", ["tenant": slug, "operation": "FeedQuery", "status": "200"]) == 2)
            #expect(value("storykeep_http_request_duration_seconds_count", ["tenant": slug, "operation": "FeedQuery", "status": "200"]) == 2)
            #expect(samples.contains { $0.name == "storykeep_http_request_duration_seconds_bucket" && $0.labels["le"] != nil && $0.labels["tenant"] == slug })
            // Names that are no GraphQL names get no label of their own.
            #expect(!samples.contains { $0.labels["operation"] == "Ünïcode" || $0.labels["operation"] == "Bad-Name" })
            #expect(value("storykeep_graphql_errors_total", ["tenant": slug, "code": "UNAUTHENTICATED"]) >= 1)
            #expect(value("storykeep_login_failures_total", ["tenant": slug]) >= 1)
            #expect(value("storykeep_lockouts_total", ["tenant": slug]) >= 1)
        }
    }

    @Test func onlyLoopbackScrapersAndTheBearerTokenAreAnswered() async throws {
        try await withAccounts(setup: .live, configure: { $0.metrics.bearerToken = "scrape-secret-1234" }) { h in
            let url = "http://127.0.0.1:\(try #require(h.client.port))/metrics"
            #expect(try await Self.scrape(url).status == 200)
            // Through a proxy on this machine, the request is no loopback scraper's.
            #expect(try await Self.scrape(url, forwardedFor: "203.0.113.5").status == 404)
            #expect(try await Self.scrape(url, token: "scrape-secret-1234", forwardedFor: "203.0.113.5").status == 200)
            #expect(try await Self.scrape(url, token: "wrong-secret", forwardedFor: "203.0.113.5").status == 404)
        }
    }

    @Test func metricsAndTracingTurnedOffAreNotServed() async throws {
        try await withTestServer(configure: { $0.metrics.enabled = false; $0.tracing.enabled = false }) { client, _ in
            try await client.execute(uri: "/metrics", method: .get) { response in #expect(response.status == .notFound) }
            try await client.execute(uri: "/health/live", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("traceresponse")!] == nil)
            }
        }
        try await withTestServer { client, _ in
            try await client.execute(uri: "/health/live", method: .get) { response in
                #expect(response.headers[HTTPField.Name("traceresponse")!] != nil)
            }
        }
    }

    @Test func operationNamesOfATenantAreBoundedWithAnOtherBucket() {
        let metrics = ServerMetrics.shared
        let tenant = TestTenants.uniqueSlug("labels")
        let labels = (0..<(ServerMetrics.maxOperationNamesPerTenant + 5)).map { metrics.operationLabel("Op\($0)", tenant: tenant) }
        #expect(labels.prefix(ServerMetrics.maxOperationNamesPerTenant).allSatisfy { $0.hasPrefix("Op") })
        #expect(labels.suffix(5).allSatisfy { $0 == "other" })
        #expect(metrics.operationLabel("Op1", tenant: tenant) == "Op1")
        #expect(metrics.operationLabel(nil, tenant: tenant) == "anonymous")
        #expect(metrics.operationLabel(String(repeating: "a", count: 65), tenant: tenant) == "other")
    }

    @Test func anUnnamedRequestIsLabelledByItsFirstOperationsName() {
        let name = TenantGraphQLExecutor.firstOperationName
        #expect(name("query FeedQuery { me { id } }") == "FeedQuery")
        #expect(name("\u{FEFF} # the feed\n ,\tmutation\r\nSave_2($a: Int) { x }") == "Save_2")
        #expect(name("subscription Live{ x }") == "Live")
        #expect(name("{ me { id } }") == nil)
        #expect(name("query { me { id } }") == nil)
        #expect(name("query($a: Int) { me { id } }") == nil)
        #expect(name("queryFeed { me { id } }") == nil)
        #expect(name("fragment F on Person { id } query Later { me { id } }") == nil)
        #expect(name("# query Commented\n{ me { id } }") == nil)
        #expect(name("query Ünïcode { me { id } }") == nil)
        #expect(name("") == nil)
    }
}
