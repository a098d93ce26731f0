import Foundation
import GraphQL
import Logging
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

/// Issue 16, item 8: no request holds a connection for long. Searches are held to a length and a
/// number of words before they reach PostgreSQL, and every statement of a request to the
/// configured `statement_timeout`, past which the request gets TIMEOUT and the connection goes
/// back to the pool usable.
@Suite struct JournalLimitsHTTPTests {
    static let search = "query($q: String!) { search(query: $q) { edges { node { id } } } }"
    static let filtered = "query($q: String) { entries(filter: { text: $q }) { edges { node { id } } } }"

    @Test func searchesPastTheLimitsAreRefusedNamingTheirField() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            let entry = try await h.createEntry(
                ["date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string("scored twice at practice")], token: sam)
            let words32 = (["practice"] + Array(repeating: "or twice", count: 15) + ["or"]).joined(separator: " ")
            let long500 = "practice " + String(repeating: "x", count: 491)
            #expect(long500.unicodeScalars.count == JournalStore<PostgresTransaction>.maxSearchLength)
            for (query, root, field) in [(Self.search, "search", "query"), (Self.filtered, "entries", "filter.text")] {
                // At the limits: served.
                for text in [words32, long500, "\"scored twice\" -football", "practice"] {
                    let found = try await h.graphQL(query, ["q": .string(text)], token: sam)
                    #expect(found["errors"] == nil, "\(text.prefix(40)): \(found.json)")
                }
                let found = try await h.graphQL(query, ["q": .string(words32)], token: sam)
                #expect(found["data"]?[root]?.nodes.map(\.id) == [entry.id])
                // Past them: refused before any statement, however large.
                let tooLong = [
                    long500 + "x", String(repeating: "é", count: 501), String(repeating: "e\u{301}", count: 251),
                    String(repeating: "x", count: 900_000),
                ]
                let tooManyWords = [
                    words32 + " twice", Array(repeating: "word", count: 60_000).joined(separator: " "),
                    Array(repeating: "-word or", count: 30_000).joined(separator: " "),
                    Array(repeating: "a", count: 33).joined(separator: "-"), Array(repeating: "7", count: 33).joined(separator: ","),
                ]
                for text in tooLong + tooManyWords {
                    let refused = try await h.graphQL(query, ["q": .string(text)], token: sam)
                    #expect(refused.errorCode == "BAD_USER_INPUT", "\(text.prefix(40)): \(refused.json.prefix(300))")
                    #expect(refused.errorExtensions?["field"] == .string(field))
                }
            }
        }
    }

    @Test func aStatementPastTheTimeoutGetsTimeoutAndTheConnectionServesTheNextRequest() async throws {
        // One connection, so the request after the timeout runs on the very connection that timed
        // out. Half a second: far above what any statement of these requests takes, even on a busy
        // machine, and still short to wait for.
        try await withAccounts(poolSize: 1, statementTimeout: .milliseconds(500), tweak: JournalHTTP.tenant) { h in
            let (sam, samID) = try await h.youngPerson("sam")
            let entry = try await h.createEntry(["date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string("mine")], token: sam)
            let backend = try await h.app.withConnection { try await $0.backendPID() }
            let update = "mutation($id: ID!, $i: EntryInput!) { updateEntry(id: $id, input: $i) { text } }"
            let variables: GraphQLObject = [
                "id": entry["id"]!, "i": .object(["date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string("changed")]),
            ]
            // Another session (the same person's other device, say) holds the entry's row: the
            // update waits for it, longer than a statement may take.
            let other = try TestDatabase.appPool(size: 1)
            do {
                let context = AccountContext.person(tenantID: h.tenant.id, personID: samID, role: .youngPerson)
                try await other.transaction(settings: context.settings) { tx in
                    // Were the update never stopped, it would wait on this lock while the test waits
                    // on it: PostgreSQL then ends this session after 10 s and the test fails, not hangs.
                    _ = try await tx.query("select set_config('idle_in_transaction_session_timeout', '10000', true)")
                    _ = try await tx.query("select id from entries where id = $1 for update", UUID(uuidString: entry.id!)!)
                    let started = ContinuousClock.now
                    let timedOut = try await h.graphQL(update, variables, token: sam)
                    #expect(timedOut.errorCode == "TIMEOUT", "\(timedOut.json)")
                    #expect(timedOut.errorMessage?.contains("too long") == true)
                    #expect(timedOut["data"]?["updateEntry"] == nil)
                    #expect(ContinuousClock.now - started < .seconds(5), "stopped by the timeout, not by the lock's release")
                }
            } catch {
                await other.close()
                throw error
            }
            await other.close()
            // The next request is served, on the same connection (had it been discarded, a new one
            // would have another backend), and the failed mutation changed nothing.
            let read = try await h.graphQL("query($id: ID!) { entry(id: $id) { text } }", ["id": entry["id"]!], token: sam)
            #expect(read["data"]?["entry"]?["text"] == .string("mine"), "\(read.json)")
            #expect(try await h.graphQL(update, variables, token: sam)["data"]?["updateEntry"]?["text"] == .string("changed"))
            #expect(try await h.app.withConnection { try await $0.backendPID() } == backend)
            // The limit is transaction-local: outside a request the connection has none.
            let outside = try await h.app.transaction { tx in try await tx.query("show statement_timeout")[0].decode(String.self, at: 0) }
            #expect(outside == "0")
        }
    }

    @Test func theTimeoutIsSetWithTheRequestsContextAndFromConfig() async throws {
        let config = try await testConfig()
        #expect(config.database.statementTimeout == .seconds(5))
        let services = DomainServices(
            pool: try TestDatabase.appPool(size: 1),
            hasher: try PasswordHasher(pool: BoundedWorkerPool(threadCount: 1, name: "test-argon2")),
            sessions: SessionPolicy(maxLifetimeSeconds: 3600, idleTimeoutSeconds: 600), logger: Logger(label: "test"),
            statementTimeout: .milliseconds(1500))
        let context = AccountContext.anonymous(tenantID: UUID())
        #expect(services.requestSettings(context) == context.settings.merging(["statement_timeout": "1500"]) { $1 })
        let shown = try await services.pool.transaction(settings: services.requestSettings(context)) { tx in
            try await tx.query("show statement_timeout")[0].decode(String.self, at: 0)
        }
        #expect(shown == "1500ms")
        await services.pool.close()
    }
}
