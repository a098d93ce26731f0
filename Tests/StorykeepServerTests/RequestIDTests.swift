import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
@testable import StorykeepServer
import StorykeepTestSupport
import Testing

/// A tenant endpoint that logs with a logger of its own, as the domain does, then fails.
struct FailingLoggedEndpoint: TenantEndpoint {
    let logger: Logger

    func register(on group: RouterGroup<TenantRequestContext>) {
        group.get("fail") { _, _ -> Response in
            logger.error("The domain failed")
            throw HTTPError(.badRequest, message: "Bad.")
        }
    }
}

/// Issue 17: the request id comes back as `X-Request-Id` (a valid incoming one is kept) and is on
/// every log line of the request, with the tenant, errors included.
@Suite struct RequestIDTests {
    static let requestID = HTTPField.Name("X-Request-Id")!

    @Test func aValidIncomingIdIsKeptAnsweredAndLogged() async throws {
        let tenant = try await makeTenants(1)[0]
        let logs = CapturedLogs()
        let incoming = "0af7651916cd43dd8448eb211c80319c:req-42/a+b=c_d.e"
        try await withTestServer(logs: logs) { client, _ in
            try await client.execute(uri: "/t/\(tenant.slug)/", method: .get, headers: [Self.requestID: incoming]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[Self.requestID] == incoming)
            }
        }
        let line = try #require(logs.all.first { $0.metadata["http.status"] != nil })
        #expect(line.metadata["hb.request.id"] == incoming)
        #expect(line.metadata["tenant"] == tenant.slug)
    }

    @Test func anInvalidIncomingIdIsReplacedByOneOfOurs() async throws {
        let tenant = try await makeTenants(1)[0]
        let logs = CapturedLogs()
        let invalid = ["has space", "quote\"d", "", String(repeating: "a", count: 129), "line\u{7f}", "é"]
        try await withTestServer(logs: logs) { client, _ in
            var answered: [String] = []
            for id in invalid {
                try await client.execute(uri: "/t/\(tenant.slug)/", method: .get, headers: [Self.requestID: id]) { response in
                    let returned = try #require(response.headers[Self.requestID])
                    #expect(returned != id)
                    #expect(RequestIDMiddleware<StorykeepRequestContext>.isValid(returned), "\(returned)")
                    answered.append(returned)
                }
            }
            // Without a header the server makes one, a different one each time.
            for _ in 0..<2 {
                try await client.execute(uri: "/health/live", method: .get) { response in
                    answered.append(try #require(response.headers[Self.requestID]))
                }
            }
            #expect(Set(answered).count == answered.count)
        }
        let logged = logs.all.compactMap { $0.metadata["hb.request.id"] }
        #expect(!logged.contains { invalid.contains($0) })
    }

    @Test func everyLineOfARequestCarriesItsIdAndTenantErrorsIncluded() async throws {
        let tenant = try await makeTenants(1)[0]
        let logs = CapturedLogs()
        try await withTestServer(endpoints: [FailingLoggedEndpoint(logger: logs.logger)], logs: logs) { client, _ in
            try await client.execute(uri: "/t/\(tenant.slug)/fail", method: .get, headers: [Self.requestID: "fail-1"]) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[Self.requestID] == "fail-1")
            }
            // A request refused before any route (an unknown tenant) answers its id too.
            try await client.execute(uri: "/t/no-such-agency/graphql", method: .get, headers: [Self.requestID: "lost-2"]) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[Self.requestID] == "lost-2")
            }
        }
        let failing = logs.all.filter { $0.metadata["hb.request.id"] == "fail-1" }
        #expect(failing.map(\.message) == ["The domain failed", "GET /t/\(tenant.slug)/fail 400"])
        #expect(failing.allSatisfy { $0.metadata["tenant"] == tenant.slug })
        let lost = try #require(logs.all.first { $0.metadata["hb.request.id"] == "lost-2" })
        #expect(lost.metadata["tenant"] == "no-such-agency")
        #expect(lost.metadata["http.status"] == "404")
    }
}
