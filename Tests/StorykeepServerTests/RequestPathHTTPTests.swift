import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// What a request costs the database (issue 19), through real HTTP: the statements the server's
// pool sends and the round trips they take (PostgresPool.statementsSent and .roundTrips), for a
// young person's first journal page and for createEntry with one tag; and how often the sliding
// session expiry writes. Each request is made once before it is counted, so that its statements
// are prepared on the connection (a prepare is a round trip of its own, once per connection).
@Suite struct RequestPathHTTPTests {
    /// A young person's first journal page, as the app asks for it (scripts/bench-journal.py).
    static let firstPage = """
        query FirstPage($first: Int!) { entries(first: $first) { edges { cursor node { id date kind text mood background createdAt \
        tags { id name } media { id contentType byteSize sha256 url } } } pageInfo { hasNextPage endCursor } } }
        """

    /// Statements and round trips.
    struct Cost: Equatable, CustomStringConvertible {
        var statements: Int
        var roundTrips: Int
        var description: String { "\(statements) statements in \(roundTrips) round trips" }
    }

    /// What `pool` sends while `work` runs.
    static func cost(on pool: PostgresPool, _ work: () async throws -> Void) async throws -> Cost {
        let before = Cost(statements: pool.statementsSent, roundTrips: pool.roundTrips)
        try await work()
        return Cost(statements: pool.statementsSent - before.statements, roundTrips: pool.roundTrips - before.roundTrips)
    }

    @Test func aJournalPageAndCreateEntryTakeFewRoundTrips() async throws {
        try await withAccounts(gatheringPatience: TestDatabase.countingRoundTrips, tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            let tag = try #require(
                try await h.graphQL(#"mutation { createTag(name: "Football") { id } }"#, token: sam)["data"]?["createTag"]?.id)
            func write(day: Int) async throws -> GraphQLValue {
                try await h.createEntry(
                    ["date": .string("2026-10-\(10 + day)"), "kind": .string("TEXT"), "text": .string("Day \(day)"),
                     "tagIds": .list([.string(tag)])], token: sam)
            }
            for day in 1...20 {
                let media = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam)
                _ = try await h.createEntry(
                    ["date": .string("2026-11-" + String(format: "%02d", day)), "kind": .string("IMAGE"), "mediaIds": .list([media["id"]!]),
                     "tagIds": .list([.string(tag)])], token: sam)
            }
            let page = try await h.graphQL(Self.firstPage, ["first": .int(20)], token: sam)
            let edges = try #require(page["data"]?["entries"]?["edges"]?.listValue, "\(page.json)")
            #expect(edges.count == 20)
            #expect(edges.allSatisfy { $0["node"]?["tags"]?.listValue?.count == 1 && $0["node"]?["media"]?.listValue?.count == 1 })

            var again: GraphQLValue?
            let pageCost = try await Self.cost(on: h.app) { again = try await h.graphQL(Self.firstPage, ["first": .int(20)], token: sam) }
            #expect(again == page)
            _ = try await write(day: 0)
            let writeCost = try await Self.cost(on: h.app) { _ = try await write(day: 1) }
            print("request path: journal page, \(pageCost); createEntry with one tag, \(writeCost)")
            // BEGIN, the AUTHENTICATION settings and authenticate_session() together; the entries;
            // their tags and media together; COMMIT, which a query that wrote nothing does not wait for.
            #expect(pageCost == Cost(statements: 7, roundTrips: 3))
            // BEGIN, the settings and authenticate_session(); the check and the insert in one
            // statement; the rewards' count; COMMIT.
            #expect(writeCost == Cost(statements: 7, roundTrips: 4))
        }
    }

    @Test func aLoginTakesEightRoundTrips() async throws {
        try await withAccounts(gatheringPatience: TestDatabase.countingRoundTrips) { h in
            let sam = try await h.person(.youngPerson, "sam")
            _ = try await h.logIn(sam)
            let loginCost = try await Self.cost(on: h.app) { _ = try await h.logIn(sam) }
            print("request path: login, \(loginCost)")
            // BEGIN, the LOGIN settings and the account; the advisory lock and the failures; the
            // failure counted in advance; COMMIT. After Argon2: BEGIN and the person's settings;
            // the failures forgotten, the session and the person; the audit row; COMMIT.
            #expect(loginCost == Cost(statements: 14, roundTrips: 8))
        }
    }

    @Test func theSlidingExpiryWritesTheSessionAtMostOnceAMinute() async throws {
        try await withAccounts { h in
            let loggedIn = ContinuousClock.now
            let sam = try await h.youngPerson("sam")
            let context = AccountContext.person(tenantID: h.tenant.id, personID: sam.id, role: .youngPerson)
            /// The session row's version (the transaction that last wrote it) and its last use.
            func session() async throws -> (version: String, lastUsed: Date) {
                try await h.app.transaction(settings: context.settings) { tx in
                    let row = try await tx.query("select xmin::text, last_used_at from sessions where person_id = $1", sam.id)[0]
                    return (try row.decode(String.self, at: 0), try row.decode(Date.self, at: 1))
                }
            }
            /// Makes `count` requests one after the other: how many of them wrote the session.
            func writes(requests count: Int) async throws -> Int {
                var version = try await session().version
                var writes = 0
                for _ in 0..<count {
                    let me = try await h.graphQL("{ me { id } }", token: sam.token)
                    #expect(me["data"]?["me"]?["id"] == .string(sam.id.uuidString.lowercased()), "\(me.json)")
                    let now = try await session().version
                    if now != version { writes += 1 }
                    version = now
                }
                return writes
            }
            /// Whole minutes since `start`: on a machine slow enough, a minute may pass during
            /// the requests, and the session may be slid once more for each.
            func minutes(since start: ContinuousClock.Instant) -> Int { Int((start.duration(to: .now) / .seconds(60)).rounded(.down)) }
            // Just logged in: used less than a minute ago, so no request writes.
            let fresh = try await writes(requests: 30)
            #expect(fresh <= minutes(since: loggedIn), "\(fresh) writes")
            // Unused for two minutes: the first request slides it, the others leave it.
            let backdated = ContinuousClock.now
            try await h.app.transaction(settings: context.settings) { tx in
                try await tx.execute("update sessions set last_used_at = now() - interval '2 minutes' where person_id = $1", sam.id)
            }
            let idle = try await session().lastUsed
            let due = try await writes(requests: 30)
            #expect(due >= 1 && due <= 1 + minutes(since: backdated), "\(due) writes")
            #expect(try await session().lastUsed > idle.addingTimeInterval(100))

            // Requests at the same moment when it is due: each is answered, none waits for
            // another's row lock, and the session is slid.
            try await h.app.transaction(settings: context.settings) { tx in
                try await tx.execute("update sessions set last_used_at = now() - interval '2 minutes' where person_id = $1", sam.id)
            }
            let idleAgain = try await session().lastUsed
            try await withThrowingTaskGroup(of: GraphQLValue.self) { group in
                for _ in 0..<8 { group.addTask { try await h.graphQL("{ me { id } }", token: sam.token) } }
                for try await me in group { #expect(me["data"]?["me"]?["id"] != nil, "\(me.json)") }
            }
            #expect(try await session().lastUsed > idleAgain.addingTimeInterval(100))
        }
    }
}
