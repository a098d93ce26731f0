import Foundation
import GraphQL
import Storykeep
import StorykeepCore
import StorykeepServer
import StorykeepTestSupport
import Synchronization
import Testing

// Issue 15, GraphQL over WebSocket: a real graphql-ws client (Python `gql`, its WebSocket
// transport: Client/live_client.py) against a live server, with the database's live events
// flowing through the server's listener.

@Suite("GraphQL over WebSocket")
struct LiveSocketTests {
    static let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Client/live_client.py").path

    /// The graphql-ws URL of `tenant` (the first by default) on the live test server.
    static func url(_ h: AccountsHarness, tenant: TestTenant? = nil) throws -> String {
        "ws://127.0.0.1:\(try #require(h.client.port))/t/\((tenant ?? h.tenant).file.slug)/graphql"
    }

    /// Starts the client subscribing with `query` as `token` until `count` results or `seconds`.
    static func client(_ url: String, _ token: String, _ query: String, count: Int = 1, seconds: Double = 10) -> Task<(status: Int32, output: String), any Error> {
        Task { try await runProcess(["python3", script, url, token, query, String(count), String(seconds)]) }
    }

    /// Waits (a few seconds at most) until the server has `count` more live streams than `before`:
    /// each connection watches its session, each subscription its events.
    static func waitForStreams(_ h: AccountsHarness, _ count: Int, after before: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while h.engine.services.live.count < before + count {
            guard ContinuousClock.now < deadline else {
                Issue.record("the server has \(h.engine.services.live.count - before) new live streams, not \(count)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// What a client Sam runs (`start`, given the harness and Sam's token) prints once Sam's
    /// social worker is assigned by the agency admin over HTTP, after it subscribed.
    static func outputOnceAssigned(
        _ start: @escaping @Sendable (AccountsHarness, String) throws -> Task<(status: Int32, output: String), any Error>
    ) async throws -> String {
        let printed = Mutex("")
        try await withAccounts(setup: .live) { h in
            let admin = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let wendy = try await h.person(.socialWorker, "wendy", displayName: "Wendy Walker")
            try await withLiveEvents(h) {
                let before = h.engine.services.live.count
                let client = try start(h, sam.token)
                try await Self.waitForStreams(h, 2, after: before)
                try await h.assign(sam, wendy, .socialWorker, admin: admin)
                let (status, output) = try await client.value
                #expect(status == 0, "\(output)")
                printed.withLock { $0 = output }
            }
        }
        return printed.withLock { $0 }
    }

    @Test func aSubscriberReceivesTheNotificationOfAnotherPersonsMutation() async throws {
        let output = try await Self.outputOnceAssigned { h, token in
            Self.client(try Self.url(h), token, "subscription { notificationAdded { kind title } }")
        }
        #expect(output == #"result {"notificationAdded": {"kind": "assignmentStarted", "title": "Wendy Walker is now your social worker"}}"# + "\n")
    }

    @Test func aTokenRevokedMidSubscriptionClosesTheSocketWith4403AtOnce() async throws {
        try await withAccounts(setup: .live) { h in
            let sam = try await h.person(.youngPerson, "sam")
            try await withLiveEvents(h) {
                let before = h.engine.services.live.count
                let client = Self.client(try Self.url(h), sam.token, "subscription { notificationAdded { title } }")
                try await Self.waitForStreams(h, 2, after: before)
                _ = try await h.data("mutation { logout }", "logout", as: sam)
                let loggedOut = ContinuousClock.now
                let (status, output) = try await client.value
                let closedWithin = ContinuousClock.now - loggedOut
                #expect(status == 0, "\(output)")
                #expect(output == "closed 4403\n", "\(output)")
                // Pushed by the listener, not found by polling: on an idle machine the client's
                // process has ended within 0.1-0.3 s; the bound leaves room for a loaded one (CI)
                // and is still far below anything but the push (the idle timeout is 5 minutes).
                #expect(closedWithin < .seconds(5), "closed \(closedWithin) after the logout")
            }
        }
    }

    /// Each subscriber waits for one event: the one they may see, made after the one they may
    /// not, so that what they print is the first they were sent.
    @Test func anAlertReachesItsSocialWorkerAndNobodyElse() async throws {
        try await withAccounts(tenants: 2, setup: .live) { h in
            let admin = try await h.person(.agencyAdmin, "ada")
            let otherAdmin = try await h.person(.agencyAdmin, "oda", tenant: h.tenants[1])
            let sam = try await h.person(.youngPerson, "sam")
            let yara = try await h.person(.youngPerson, "yara")
            let kim = try await h.person(.youngPerson, "kim")
            let yuri = try await h.person(.youngPerson, "yuri", tenant: h.tenants[1])
            let wendy = try await h.person(.socialWorker, "wendy")
            let otto = try await h.person(.socialWorker, "otto")  // of the agency, not Sam's
            let olga = try await h.person(.socialWorker, "olga", tenant: h.tenants[1])
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(yara, otto, .socialWorker, admin: admin)
            try await h.assign(yuri, olga, .socialWorker, admin: otherAdmin, tenant: h.tenants[1])
            try await withLiveEvents(h) {
                let alerts = "subscription { safetyAlertChanged { message youngPerson { id } } }"
                let before = h.engine.services.live.count
                let wendys = Self.client(try Self.url(h), wendy.token, alerts, seconds: 30)
                let ottos = Self.client(try Self.url(h), otto.token, alerts, seconds: 30)
                let olgas = Self.client(try Self.url(h, tenant: h.tenants[1]), olga.token, alerts, seconds: 30)
                let kims = Self.client(try Self.url(h), kim.token, "subscription { notificationAdded { kind } }", seconds: 30)
                try await Self.waitForStreams(h, 8, after: before)
                try await h.raiseAlert("Please come", as: sam)
                // What each may see, after.
                try await h.raiseAlert("Yara here", as: yara)
                let yurisAlert = try await h.graphQL(SafetyHTTP.raise, ["m": .string("Yuri here")], token: yuri.token, tenant: h.tenants[1])
                #expect(yurisAlert["errors"] == nil, "\(yurisAlert.json)")
                try await h.assign(kim, wendy, .socialWorker, admin: admin)
                func alert(_ message: String, _ person: TestPerson) -> String {
                    #"result {"safetyAlertChanged": {"message": "\#(message)", "youngPerson": {"id": "\#(person.id.uuidString.lowercased())"}}}"# + "\n"
                }
                #expect(try await wendys.value.output == alert("Please come", sam))
                #expect(try await ottos.value.output == alert("Yara here", yara))
                #expect(try await olgas.value.output == alert("Yuri here", yuri))
                #expect(try await kims.value.output == #"result {"notificationAdded": {"kind": "assignmentStarted"}}"# + "\n")
            }
        }
    }

    @Test func connectionInitNeedsALiveToken() async throws {
        try await withAccounts(setup: .live) { h in
            let query = "subscription { notificationAdded { title } }"
            let missing = try await Self.client(try Self.url(h), "-", query).value
            #expect(missing.output == "closed 4401\n", "\(missing.output)")
            let unknown = try await Self.client(try Self.url(h), String(repeating: "A", count: 43), query).value
            #expect(unknown.output == "closed 4403\n", "\(unknown.output)")
        }
    }

    @Test func queriesRunOverTheSocketAndRefusalsAreErrors() async throws {
        try await withAccounts(setup: .live) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let me = try await Self.client(try Self.url(h), sam.token, "{ me { id role } }").value
            #expect(me.output == #"result {"me": {"id": "\#(sam.id.uuidString.lowercased())", "role": "YOUNG_PERSON"}}"# + "\n", "\(me.output)")
            let forbidden = try await Self.client(try Self.url(h), sam.token, "subscription { safetyAlertChanged { id } }").value
            #expect(forbidden.output.hasPrefix("error "), "\(forbidden.output)")
            #expect(forbidden.output.contains("FORBIDDEN"), "\(forbidden.output)")
        }
    }

    @Test func theProtocolsEdgesAndTheLimits() async throws {
        var limits = LiveLimits()
        limits.subscriptionsPerConnection = 2
        limits.connectionsPerPerson = 2
        limits.maxMessageBytes = 1024
        limits.initTimeout = .milliseconds(500)
        limits.idleTimeout = .seconds(3)
        try await withAccounts(liveLimits: limits, setup: .live) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Client/ws_protocol.py").path
            let (status, output) = try await runProcess(["python3", script, try Self.url(h), sam.token])
            #expect(status == 0, "\(output)")
            let expected = [
                "bad message: 4400",
                "subscribe before init: 4401",
                "no init: 4408",
                "second init: 4429",
                "ping: pong",
                #"query: next {"data": {"me": {"role": "YOUNG_PERSON"}}} complete null"#,
                "invalid query: error GRAPHQL_VALIDATION_FAILED",
                "third operation: 3 error TOO_MANY_SUBSCRIPTIONS",
                "same id again: 4409",
                "third connection: 4429",
                "too big: 1009",
                "idle: 1000",
            ]
            #expect(output.split(separator: "\n").map(String.init) == expected, "\(output)")
        }
    }

    // MARK: - Server-Sent Events

    static let sseScript = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Client/sse_client.py").path

    /// Starts the SSE client posting `query` as `token` until `count` `next`s, `complete` or `seconds`.
    static func sseClient(_ h: AccountsHarness, _ token: String, _ query: String, count: Int = 1, seconds: Double = 30) throws
        -> Task<(status: Int32, output: String), any Error>
    {
        let url = "http://127.0.0.1:\(try #require(h.client.port))/t/\(h.tenant.file.slug)/graphql"
        return Task { try await runProcess(["python3", sseScript, url, token, query, String(count), String(seconds)]) }
    }

    @Test func anSSESubscriberReceivesTheNotificationOfAnotherPersonsMutation() async throws {
        let output = try await Self.outputOnceAssigned { h, token in
            try Self.sseClient(h, token, "subscription { notificationAdded { kind title } }")
        }
        #expect(output == #"next {"data": {"notificationAdded": {"kind": "assignmentStarted", "title": "Wendy Walker is now your social worker"}}}"# + "\n")
    }

    @Test func anSSEStreamEndsAtOnceAfterALogout() async throws {
        try await withAccounts(setup: .live) { h in
            let sam = try await h.person(.youngPerson, "sam")
            try await withLiveEvents(h) {
                let before = h.engine.services.live.count
                let client = try Self.sseClient(h, sam.token, "subscription { notificationAdded { title } }", count: 2)
                try await Self.waitForStreams(h, 2, after: before)
                _ = try await h.data("mutation { logout }", "logout", as: sam)
                let loggedOut = ContinuousClock.now
                let (status, output) = try await client.value
                #expect(ContinuousClock.now - loggedOut < .seconds(5))  // pushed, as over WebSocket
                #expect(status == 0, "\(output)")
                #expect(output.hasPrefix("next "), "\(output)")
                #expect(output.contains("UNAUTHENTICATED"), "\(output)")
                #expect(output.hasSuffix("complete\n"), "\(output)")
            }
        }
    }

    @Test func queriesRunOverSSEAndRefusalsAreJSON() async throws {
        try await withAccounts(setup: .live) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let me = try await Self.sseClient(h, sam.token, "{ me { role } }", count: 2).value
            #expect(me.output == #"next {"data": {"me": {"role": "YOUNG_PERSON"}}}"# + "\ncomplete\n", "\(me.output)")
            let forbidden = try await Self.sseClient(h, sam.token, "subscription { safetyAlertChanged { id } }").value
            #expect(forbidden.output.hasPrefix("status 403 "), "\(forbidden.output)")
            let stranger = try await Self.sseClient(h, String(repeating: "A", count: 43), "subscription { notificationAdded { id } }").value
            #expect(stranger.output.hasPrefix("status 401 "), "\(stranger.output)")
        }
    }
}
