import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

/// The Host header. HTTPTypes keeps it as the request's authority; only a live server and a real
/// client carry it there, so the host tests run with `.ahc(.http)`.
let hostField = HTTPField.Name("Host")!

@Suite struct TenantRoutingTests {
    @Test func aSlugInThePathSelectsItsTenant() async throws {
        let tenants = try await makeTenants(2)
        try await withTestServer { client, _ in
            for tenant in tenants {
                try await client.execute(uri: "/t/\(tenant.slug)/", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.jsonObject?["slug"] as? String == tenant.slug)
                    #expect(response.jsonObject?["displayName"] as? String == tenant.displayName)
                    #expect(response.jsonObject?["termsVersion"] as? String == "3")
                }
            }
        }
    }

    @Test func anUnknownTenantIs404WithAJSONError() async throws {
        try await withTestServer { client, _ in
            for path in ["/t/no-such-agency/", "/t/no-such-agency/graphql", "/t/no-such-agency/a/b/c", "/t/NOT%20A%20SLUG/x"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                    #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, "\(path)")
                    #expect(response.errorMessage == "No such tenant.", "\(path)")
                }
            }
            try await client.execute(uri: "/t/no-such-agency/graphql", method: .post, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .notFound)
                #expect(response.errorMessage == "No such tenant.")
            }
        }
    }

    @Test func anUnknownPathOfAKnownTenantIs404WithAJSONError() async throws {
        let tenant = try await makeTenants(1)[0]
        try await withTestServer { client, _ in
            try await client.execute(uri: "/t/\(tenant.slug)/no/such/route", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.errorMessage == "No such route.")
            }
        }
    }

    @Test func aDisabledTenantIs404AndComesBackWhenEnabled() async throws {
        let tenant = try await makeTenants(1)[0]
        try await withTestServer { client, cache in
            try await client.execute(uri: "/t/\(tenant.slug)/", method: .get) { #expect($0.status == .ok) }

            try await setEnabled(false, tenant.slug)
            try await cache.refresh()
            try await client.execute(uri: "/t/\(tenant.slug)/", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.errorMessage == "No such tenant.")
            }

            try await setEnabled(true, tenant.slug)
            // No refresh: a miss re-reads the tenants.
            try await client.execute(uri: "/t/\(tenant.slug)/", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func aTenantCreatedAfterStartIsFoundOnTheFirstMiss() async throws {
        try await withTestServer { client, cache in
            _ = try await cache.all()
            let tenant = try await makeTenants(1)[0]
            try await client.execute(uri: "/t/\(tenant.slug)/", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func aHostOfTheTenantSelectsIt() async throws {
        let tenants = try await makeTenants(2) { _, file in file.hosts = ["journal.\(file.slug).example.org"] }
        try await withTestServer(setup: .ahc(.http)) { client, cache in
            try await cache.refresh()
            for tenant in tenants {
                for host in [tenant.hosts[0], tenant.hosts[0].uppercased() + ":8080"] {
                    try await client.execute(uri: "/", method: .get, headers: [hostField: host]) { response in
                        #expect(response.status == .ok)
                        #expect(response.jsonObject?["slug"] as? String == tenant.slug)
                    }
                }
                // On its own host, its own path works too.
                try await client.execute(uri: "/t/\(tenant.slug)/", method: .get, headers: [hostField: tenant.hosts[0]]) {
                    #expect($0.status == .ok)
                }
            }
        }
    }

    @Test func aTenantsHostNeverServesAnotherTenant() async throws {
        let tenants = try await makeTenants(2) { _, file in file.hosts = ["journal.\(file.slug).example.org"] }
        try await withTestServer(setup: .ahc(.http)) { client, cache in
            try await cache.refresh()
            try await client.execute(uri: "/t/\(tenants[1].slug)/", method: .get, headers: [hostField: tenants[0].hosts[0]]) { response in
                #expect(response.status == .notFound)
                #expect(response.errorMessage == "No such tenant.")
            }
        }
    }

    @Test func aHostThatIsNoTenantsHasNoTenantRoutes() async throws {
        try await withTestServer(setup: .ahc(.http)) { client, _ in
            try await client.execute(uri: "/", method: .get, headers: [hostField: "127.0.0.1:8080"]) { response in
                #expect(response.status == .notFound)
                #expect(response.errorMessage == "No such tenant.")
            }
        }
    }

    @Test func eachRequestLogsOneLineWithIdTenantStatusAndDuration() async throws {
        let tenant = try await makeTenants(1)[0]
        let logs = CapturedLogs()
        try await withTestServer(logs: logs) { client, _ in
            try await client.execute(
                uri: "/t/\(tenant.slug)/?token=secret-in-query", method: .get,
                headers: [.authorization: "Bearer secret-in-header"]
            ) { #expect($0.status == .ok) }
            try await client.execute(uri: "/t/no-such-agency/", method: .get) { #expect($0.status == .notFound) }
        }
        let lines = logs.all.filter { $0.metadata["http.status"] != nil }
        #expect(lines.count == 2)
        #expect(lines.first?.message == "GET /t/\(tenant.slug)/ 200")
        #expect(lines.first?.metadata["tenant"] == tenant.slug)
        #expect(lines.first?.metadata["hb.request.id"]?.isEmpty == false)
        #expect(lines.first?.metadata["duration_ms"].flatMap(Double.init) != nil)
        #expect(lines.last?.message == "GET /t/no-such-agency/ 404")
        #expect(lines.last?.metadata["tenant"] == "no-such-agency")
        let everything = logs.all.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(!everything.contains("secret"))
    }
}

/// A tenant endpoint that reports how much body it could read under the server's limit.
struct BodyEchoEndpoint: TenantEndpoint {
    func register(on group: RouterGroup<TenantRequestContext>) {
        group.post("echo") { request, context in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            return "\(body.readableBytes)"
        }
    }
}

@Suite struct BodyLimitTests {
    @Test func aBodyOverTheLimitIs413() async throws {
        let tenant = try await makeTenants(1)[0]
        let limit = try await testConfig().http.bodyLimitBytes
        try await withTestServer(endpoints: [BodyEchoEndpoint()]) { client, _ in
            let fits = ByteBuffer(repeating: 0x61, count: limit)
            try await client.execute(uri: "/t/\(tenant.slug)/echo", method: .post, body: fits) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "\(limit)")
            }
            let tooLarge = ByteBuffer(repeating: 0x61, count: limit + 1)
            try await client.execute(uri: "/t/\(tenant.slug)/echo", method: .post, body: tooLarge) { response in
                #expect(response.status == .contentTooLarge)
            }
        }
    }
}
