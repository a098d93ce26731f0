import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storykeep
import StorykeepCore
import StorykeepServer
import StorykeepTestSupport
import Testing

/// Issue 17: rate limits per client address and per person, from the tenant file's `rateLimits`;
/// the address from `Forwarded`/`X-Forwarded-For` only behind `http.trustedProxies`.
@Suite struct RateLimitHTTPTests {
    static let burstScript = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Client/login_burst.py").path

    /// Sends `attempts` (username, password, X-Forwarded-For) at once from a Python client, each
    /// on its own connection: each one's outcome, `ok` or an error code.
    static func burst(_ h: AccountsHarness, _ attempts: [(String, String, String?)]) async throws -> [String] {
        try await timedBurst(h, attempts).outcomes
    }

    /// ``burst(_:_:)``, with the most failures one address may have had through it: the 20 a
    /// minute of the default and the tokens its bucket earned back while the burst ran (one
    /// every 3 s; Argon2 is slow on a loaded machine).
    static func timedBurst(_ h: AccountsHarness, _ attempts: [(String, String, String?)]) async throws -> (outcomes: [String], allowed: Int) {
        let start = ContinuousClock.now
        let outcomes = try await send(h, attempts)
        return (outcomes, 20 + Int((start.duration(to: .now) / .seconds(3)).rounded(.up)))
    }

    private static func send(_ h: AccountsHarness, _ attempts: [(String, String, String?)]) async throws -> [String] {
        let url = "http://127.0.0.1:\(try #require(h.client.port))/t/\(h.tenant.slug)/graphql"
        let file = FileManager.default.temporaryDirectory.appending(path: "burst-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let list = attempts.map { ["username": $0.0, "password": $0.1, "forwardedFor": $0.2 as Any] }
        try JSONSerialization.data(withJSONObject: list).write(to: file)
        let (status, output) = try await runProcess(["python3", burstScript, url, file.path])
        #expect(status == 0, "\(output)")
        return try JSONDecoder().decode([String].self, from: Data(output.utf8))
    }

    static func loopbackIsAProxy(_ config: inout StorykeepConfig) {
        config.http.trustedProxies = [CIDR("127.0.0.0/8")!, CIDR("::1/128")!]
    }

    @Test func passwordSprayingFromOneAddressStopsAfterTwentyFailures() async throws {
        try await withAccounts(setup: .live) { h in
            let (outcomes, allowed) = try await Self.timedBurst(h, (0..<40).map { ("sprayed-\($0)", "Summer2026!", nil) })
            let failures = outcomes.filter { $0 == "UNAUTHENTICATED" }.count
            #expect((20...allowed).contains(failures), "\(outcomes)")
            let limited = outcomes.filter { $0.hasPrefix("RATE_LIMITED ") }
            #expect(limited.count == 40 - failures, "\(outcomes)")
            #expect(limited.allSatisfy { Int($0.dropFirst(13)).map { (1...60).contains($0) } == true }, "\(limited)")
        }
    }

    @Test func aClassLoggingInTogetherFromOneAddressIsNotStopped() async throws {
        try await withAccounts(setup: .live) { h in
            var people: [TestPerson] = []
            for index in 0..<25 { people.append(try await h.person(.youngPerson, "pupil\(index)")) }
            // Two typos on the way are failures, and count, but leave room for everyone.
            let attempts = people.map { ($0.loginName, $0.password, String?.none) } + [(people[0].loginName, "typo typo", nil), (people[1].loginName, "oops oops", nil)]
            let outcomes = try await Self.burst(h, attempts)
            #expect(outcomes.prefix(25).allSatisfy { $0 == "ok" }, "\(outcomes)")
            #expect(outcomes.suffix(2).allSatisfy { $0 == "UNAUTHENTICATED" }, "\(outcomes)")
        }
    }

    @Test func thirtyAddressesBehindATrustedProxyAreNotStopped() async throws {
        try await withAccounts(setup: .live, configure: Self.loopbackIsAProxy) { h in
            let start = ContinuousClock.now
            // 60 failures in all, two from each of 30 addresses (one IPv6), behind two proxies of ours.
            let attempts = (0..<60).map { index -> (String, String, String?) in
                let client = index % 30 == 29 ? "2001:db8::\(index % 30)" : "198.51.100.\(index % 30 + 1)"
                return ("name-\(index)", "wrong password", "\(client), 127.0.0.2")
            }
            let outcomes = try await Self.burst(h, attempts)
            #expect(outcomes.allSatisfy { $0 == "UNAUTHENTICATED" }, "\(outcomes)")
            // One of those addresses alone is still stopped after its own twenty (two spent above,
            // and one earned back every 3 s since).
            let one = try await Self.burst(h, (0..<30).map { ("again-\($0)", "wrong password", "198.51.100.7") })
            let allowed = 20 + Int((start.duration(to: .now) / .seconds(3)).rounded(.up))
            #expect(one.filter { $0 == "UNAUTHENTICATED" }.count + 2 <= allowed, "\(one)")
            #expect(one.contains { $0.hasPrefix("RATE_LIMITED") }, "\(one)")
            #expect(one.allSatisfy { $0 == "UNAUTHENTICATED" || $0.hasPrefix("RATE_LIMITED") }, "\(one)")
        }
    }

    @Test func anUntrustedPeersForwardedForIsIgnored() async throws {
        try await withAccounts(setup: .live) { h in
            let (outcomes, allowed) = try await Self.timedBurst(h, (0..<30).map { ("name-\($0)", "wrong password", "203.0.113.\($0 + 1)") })
            let failures = outcomes.filter { $0 == "UNAUTHENTICATED" }.count
            #expect((20...allowed).contains(failures), "\(outcomes)")
            #expect(outcomes.filter { $0.hasPrefix("RATE_LIMITED") }.count == 30 - failures, "\(outcomes)")
        }
    }

    @Test func mutationsOfOnePersonAreLimited() async throws {
        try await withAccounts(tweak: { _, file in file.rateLimits.mutationsPerMinutePerPerson = 3 }) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let alex = try await h.person(.youngPerson, "alex")
            var codes: [String?] = []
            for _ in 0..<4 { codes.append(try await h.graphQL("mutation { markNotificationsRead }", token: sam.token).errorCode) }
            #expect(codes == [nil, nil, nil, "RATE_LIMITED"])
            let refused = try await h.graphQL("mutation { markNotificationsRead }", token: sam.token)
            #expect((refused.errorExtensions?["retryAfterSeconds"]?.intValue ?? 0) >= 1, "\(refused.json)")
            // Queries are not mutations, and another person has their own bucket.
            #expect(try await h.graphQL("{ me { id } }", token: sam.token).errorCode == nil)
            #expect(try await h.graphQL("mutation { markNotificationsRead }", token: alex.token).errorCode == nil)
        }
    }

    @Test func theOAuthTokenEndpointAnswers429WithRetryAfter() async throws {
        try await withAccounts(tweak: { _, file in file.rateLimits.tokenRequestsPerMinute = 3 }) { h in
            let path = "/t/\(h.tenant.slug)/oauth/token"
            let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<4 {
                try await h.client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: "grant_type=client_credentials")) { response in
                    statuses.append(response.status)
                    if response.status == .tooManyRequests {
                        #expect(response.headers[.retryAfter].flatMap { Int($0) }.map { $0 >= 1 } == true)
                    }
                }
            }
            #expect(statuses.prefix(3).allSatisfy { $0 != .tooManyRequests }, "\(statuses)")
            #expect(statuses.last == .tooManyRequests)
        }
    }

    @Test func uploadsFromOneAddressAreLimited() async throws {
        try await withAccounts(tweak: { _, file in file.rateLimits.uploadsPerMinute = 2 }) { h in
            let headers: HTTPFields = [
                .contentType: "multipart/form-data; boundary=x", HTTPField.Name("GraphQL-Require-Preflight")!: "1",
            ]
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<3 {
                try await h.client.execute(uri: "/t/\(h.tenant.slug)/graphql", method: .post, headers: headers, body: ByteBuffer(string: "--x--\r\n")) { response in
                    statuses.append(response.status)
                }
            }
            #expect(statuses.prefix(2).allSatisfy { $0 != .tooManyRequests }, "\(statuses)")
            #expect(statuses.last == .tooManyRequests)
        }
    }

    @Test func theClientAddressIsTheNearestHopNoTrustedProxyOwns() {
        let proxies = [CIDR("10.0.0.0/8")!, CIDR("fd00::/8")!]
        func resolve(_ peer: String?, _ fields: HTTPFields) -> String {
            ClientAddress.resolve(peer: peer, headers: fields, trustedProxies: proxies)
        }
        let xff = HTTPField.Name("X-Forwarded-For")!
        let forwarded = HTTPField.Name("Forwarded")!
        #expect(resolve("192.0.2.9", [xff: "198.51.100.1"]) == "192.0.2.9")
        #expect(resolve("10.1.2.3", [xff: "198.51.100.1"]) == "198.51.100.1")
        #expect(resolve("10.1.2.3", [xff: "6.6.6.6, 198.51.100.1, 10.9.9.9"]) == "198.51.100.1")
        #expect(resolve("10.1.2.3", [xff: "not-an-address"]) == "10.1.2.3")
        #expect(resolve("10.1.2.3", [forwarded: #"for=192.0.2.60;proto=https, for="[2001:db8:cafe::17]:4711""#, xff: "6.6.6.6"]) == "2001:db8:cafe::17")
        #expect(resolve("fd00::1", [forwarded: "for=192.0.2.43:8080"]) == "192.0.2.43")
        #expect(resolve("::ffff:10.0.0.1", [xff: "198.51.100.2"]) == "198.51.100.2")
        #expect(resolve(nil, [xff: "198.51.100.1"]) == "unknown")
        #expect(CIDR("10.0.0.0/33") == nil && CIDR("nonsense") == nil && CIDR("::/0") != nil)
    }
}
