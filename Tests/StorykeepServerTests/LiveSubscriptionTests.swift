import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepCore
import StorykeepServer
import StorykeepTestSupport
import Testing

// Issue 15, live updates in the domain: a subscription follows the database's live events
// (Migrations/0020_live_events.sql) through the server's listener, and each event is read again
// as the subscriber, under their row-level security. Real PostgreSQL, real NOTIFY.

/// Runs `test` with `h`'s server listening to the live events of the database, once it listens.
func withLiveEvents(_ h: AccountsHarness, _ test: () async throws -> Void) async throws {
    try await withLiveEvents(h.engine.services.live, test)
}

/// Runs `test` with a listener to the live events of the database feeding `live`, once it listens.
func withLiveEvents(_ live: LiveEvents, _ test: () async throws -> Void) async throws {
    let listener = PostgresListener(
        configuration: .init(connectionString: try TestDatabase.url(TestDatabase.appVariable)), channels: [LiveEvent.channel],
        retryDelay: .milliseconds(50), logger: TestDatabase.logger)
    let (listening, ready) = AsyncStream<Void>.makeStream()
    let task = Task {
        await listener.run { event in
            live.handle(event)
            if case .listening = event { ready.yield() }
        }
    }
    defer { task.cancel() }
    var iterator = listening.makeAsyncIterator()
    await iterator.next()
    try await test()
}

extension AccountsHarness {
    /// The first tenant as the server serves it.
    func servedTenant() async throws -> Tenant {
        try #require(try await TenantStore(pool: app).all().first { $0.id == tenant.id })
    }

    /// Subscribes with `query` as `person` on `server` (by default this harness's), which must succeed.
    func subscribe(_ query: String, as person: TestPerson, on server: TenantGraphQL? = nil) async throws -> LiveSubscription {
        let token = try #require(SessionToken(presented: person.token))
        switch await (server ?? engine).subscribe(GraphQLRequest(query: query), tenant: try await servedTenant(), token: token, links: TenantLinks(root: "/")) {
        case .subscribed(let subscription): return subscription
        case .failed(let response): throw SubscriptionRefused(response: response)
        }
    }
}

struct SubscriptionRefused: Error {
    var response: GraphQLResponse
}

/// The next update of `subscription` as JSON, or nil when none comes within `seconds`.
func nextUpdate(_ subscription: LiveSubscription, within seconds: Double = 5) async throws -> LiveUpdate? {
    try await withThrowingTaskGroup(of: LiveUpdate?.self) { group in
        group.addTask {
            var iterator = subscription.makeAsyncIterator()
            return try await iterator.next()
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

extension LiveUpdate {
    var json: GraphQLValue? {
        guard case .response(let response) = self else { return nil }
        return try? GraphQLValue(json: response.json)
    }
}

@Suite("Live subscriptions")
struct LiveSubscriptionTests {
    @Test func aNotificationReachesItsRecipientAloneReadAgainAsThem() async throws {
        try await withAccounts { h in
            let admin = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let kim = try await h.person(.youngPerson, "kim")
            let wendy = try await h.person(.socialWorker, "wendy", displayName: "Wendy Walker")
            try await withLiveEvents(h) {
                let query = "subscription { notificationAdded { kind title subjectId read } }"
                let samsUpdates = try await h.subscribe(query, as: sam)
                let kimsUpdates = try await h.subscribe(query, as: kim)
                try await h.assign(sam, wendy, .socialWorker, admin: admin)
                let update = try #require(try await nextUpdate(samsUpdates))
                #expect(
                    update.json
                        == .object([
                            "data": .object([
                                "notificationAdded": .object([
                                    "kind": .string("assignmentStarted"), "title": .string("Wendy Walker is now your social worker"),
                                    "subjectId": wendy.idValue, "read": .bool(false),
                                ])
                            ])
                        ]))
                // Kim, of the same agency, was sent nothing.
                #expect(try await nextUpdate(kimsUpdates, within: 0.3) == nil)
            }
        }
    }

    @Test func aSafetyAlertReachesTheStaffWhoSeeItAndNobodyElse() async throws {
        try await withAccounts(tenants: 2) { h in
            let admin = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let wendy = try await h.person(.socialWorker, "wendy")
            let otto = try await h.person(.socialWorker, "otto")  // not assigned to Sam
            let otherAgency = try await h.person(.socialWorker, "olga", tenant: h.tenants[1])
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await withLiveEvents(h) {
                let query = "subscription { safetyAlertChanged { id status message youngPerson { id } } }"
                let wendys = try await h.subscribe(query, as: wendy)
                let ottos = try await h.subscribe(query, as: otto)
                let admins = try await h.subscribe(query, as: admin)  // sees escalated alerts only
                let olgaToken = try #require(SessionToken(presented: otherAgency.token))
                let otherTenant = try #require(try await TenantStore(pool: h.app).all().first { $0.id == h.tenants[1].id })
                guard case .subscribed(let olgas) = await h.engine.subscribe(
                    GraphQLRequest(query: query), tenant: otherTenant, token: olgaToken, links: TenantLinks(root: "/"))
                else {
                    Issue.record("Olga could not subscribe in her own agency")
                    return
                }

                let raised = try await h.raiseAlert("Please come", as: sam)
                let update = try #require(try await nextUpdate(wendys))
                let alert = update.json?["data"]?["safetyAlertChanged"]
                #expect(alert?["id"] == raised["id"])
                #expect(alert?["status"] == .string("OPEN"))
                #expect(alert?["message"] == .string("Please come"))
                #expect(alert?["youngPerson"]?["id"] == sam.idValue)
                for nobody in [ottos, admins, olgas] {
                    #expect(try await nextUpdate(nobody, within: 0.3) == nil)
                }
            }
        }
    }

    /// Two servers on one database, each with its own listener and subscribers: an event made
    /// through one reaches the subscribers of both.
    @Test func anotherServerOnTheSameDatabaseDeliversWhatThisOneMade() async throws {
        try await withAccounts { h in
            let admin = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let wendy = try await h.person(.socialWorker, "wendy")
            try await TestDatabase.appPool().closing { pool in
                let argon2 = BoundedWorkerPool(threadCount: 1, name: "second-server-argon2")
                let second = TenantGraphQL(
                    schemas: TenantSchemas(directory: repositoryRoot.appendingPathComponent("Schema")),
                    services: DomainServices(
                        pool: pool, hasher: try PasswordHasher(parameters: .floor, pool: argon2),
                        sessions: SessionPolicy(maxLifetimeSeconds: 3600, idleTimeoutSeconds: 600), logger: TestDatabase.logger))
                try await withLiveEvents(h) {
                    try await withLiveEvents(second.services.live) {
                        let query = "subscription { notificationAdded { kind } }"
                        let onThisServer = try await h.subscribe(query, as: sam)
                        let onTheOther = try await h.subscribe(query, as: sam, on: second)
                        try await h.assign(sam, wendy, .socialWorker, admin: admin)  // through this server
                        let expected = GraphQLValue.object(["data": .object(["notificationAdded": .object(["kind": .string("assignmentStarted")])])])
                        #expect(try await nextUpdate(onThisServer)?.json == expected)
                        #expect(try await nextUpdate(onTheOther)?.json == expected)
                    }
                }
            }
        }
    }

    @Test func subscribingNeedsALiveSessionAndTheRightRole() async throws {
        try await withAccounts { h in
            let sam = try await h.person(.youngPerson, "sam")
            await #expect(throws: SubscriptionRefused.self) {
                _ = try await h.subscribe("subscription { safetyAlertChanged { id } }", as: sam)
            }
            do {
                _ = try await h.subscribe("subscription { safetyAlertChanged { id } }", as: sam)
            } catch let refused as SubscriptionRefused {
                #expect(refused.response.errors.first?.extensions?["code"] == .string("FORBIDDEN"))
            }
            _ = try await h.data("mutation { logout }", "logout", as: sam)
            do {
                _ = try await h.subscribe("subscription { notificationAdded { id } }", as: sam)
                Issue.record("a logged-out token subscribed")
            } catch let refused as SubscriptionRefused {
                #expect(refused.response.errors.first?.extensions?["code"] == .string("UNAUTHENTICATED"))
            }
        }
    }

    @Test func aSessionEndedMeanwhileGetsNoMoreEvents() async throws {
        try await withAccounts { h in
            let admin = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let wendy = try await h.person(.socialWorker, "wendy")
            try await withLiveEvents(h) {
                let updates = try await h.subscribe("subscription { notificationAdded { title } }", as: sam)
                _ = try await h.data("mutation { logout }", "logout", as: sam)
                try await h.assign(sam, wendy, .socialWorker, admin: admin)
                guard case .sessionEnded? = try await nextUpdate(updates) else {
                    Issue.record("the ended session was still sent the event")
                    return
                }
            }
        }
    }

    @Test func theRefetchResponseNullsTheFieldAndSaysSo() async throws {
        try await withAccounts { h in
            let sam = try await h.person(.youngPerson, "sam")
            let updates = try await h.subscribe("subscription { added: notificationAdded { title } }", as: sam)
            h.engine.services.live.refetchAll()
            let update = try #require(try await nextUpdate(updates))
            #expect(update.json == .object(["data": .object(["added": .null]), "extensions": .object(["refetch": .bool(true)])]))
        }
    }
}

@Suite("Live events of sessions")
struct LiveSessionEventTests {
    @Test func logoutAndDisablingTellTheListenersWhoseSessionEnded() async throws {
        try await withAccounts { h in
            let sam = try await h.person(.youngPerson, "sam")
            try await withLiveEvents(h) {
                let ends = h.engine.services.live.stream(tenantID: h.tenant.id, kinds: [LiveEvent.sessionRevoked, LiveEvent.personDisabled])
                var iterator = ends.makeAsyncIterator()
                _ = try await h.data("mutation { logout }", "logout", as: sam)
                let event = try #require(try await iterator.next() as? LiveDelivery)
                guard case .event(let ended) = event else {
                    Issue.record("\(event)")
                    return
                }
                #expect(ended.kind == LiveEvent.sessionRevoked)
                #expect(ended.people == [sam.id])
            }
        }
    }
}

@Suite("Live shares")
struct LiveShareTests {
    /// Each subscriber's next update is the event they may see, made after those they may not.
    @Test func sharesReachTheirShareeAndSeenReachesTheAuthorWhileTheShareStands() async throws {
        try await withAccounts(tweak: SharingHTTP.tenant) { h in
            let admin = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let yara = try await h.person(.youngPerson, "yara")
            let wendy = try await h.person(.socialWorker, "wendy")
            let otto = try await h.person(.socialWorker, "otto")  // Yara's, not Sam's
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(yara, otto, .socialWorker, admin: admin)
            try await withLiveEvents(h) {
                let shares = "subscription { shareChanged { message seenAt entry { text } } }"
                let wendys = try await h.subscribe(shares, as: wendy)
                let ottos = try await h.subscribe(shares, as: otto)
                let sams = try await h.subscribe("subscription { entryShareChanged { person { id } reply } }", as: sam)

                let hardDay = try await h.write("A hard day", as: sam)
                let shared = try await h.share(hardDay, with: [wendy], message: "Can we talk?", as: sam)
                try await h.share(try await h.write("Yara's day", as: yara), with: [otto], as: yara)
                let wendysFirst = try #require(try await nextUpdate(wendys)).json?["data"]?["shareChanged"]
                #expect(wendysFirst == .object(["message": .string("Can we talk?"), "seenAt": .null, "entry": .object(["text": .string("A hard day")])]))
                let ottosFirst = try #require(try await nextUpdate(ottos)).json?["data"]?["shareChanged"]
                #expect(ottosFirst?["entry"]?["text"] == .string("Yara's day"))

                let shareID = try #require(shared.first?["id"])
                _ = try await h.data(SharingHTTP.reply, "replyToShare", ["s": shareID, "t": .string("Yes, tomorrow")], as: wendy)
                let samsFirst = try #require(try await nextUpdate(sams)).json?["data"]?["entryShareChanged"]
                #expect(samsFirst == .object(["person": .object(["id": wendy.idValue]), "reply": .string("Yes, tomorrow")]))
                // Wendy's own reply changed her share too: she is told, as she sees it now.
                let wendysSecond = try #require(try await nextUpdate(wendys)).json?["data"]?["shareChanged"]
                #expect(wendysSecond?["seenAt"] != .null)

                // Unshared: Wendy no longer sees it, and is sent nothing of it; the next thing she
                // is sent is the next entry shared with her.
                _ = try await h.data(SharingHTTP.unshareEntry, "unshareEntry", ["e": hardDay], as: sam)
                try await h.share(try await h.write("A better day", as: sam), with: [wendy], as: sam)
                let wendysThird = try #require(try await nextUpdate(wendys)).json?["data"]?["shareChanged"]
                #expect(wendysThird?["entry"]?["text"] == .string("A better day"))
            }
        }
    }
}
