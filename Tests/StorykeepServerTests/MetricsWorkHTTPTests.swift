import Foundation
import Logging
import Postgres
import Storykeep
import StorykeepArchive
import StorykeepCore
import StorykeepServer
import StorykeepTenancy
import StorykeepTestSupport
import Synchronization
import Testing

/// Issue 17: the metrics of the server's work besides requests (the database pool, the Argon2
/// queue, the document cache, the background jobs, live connections), scraped and parsed with
/// prometheus-client's text parser: each family is there and moves with what the test does.
@Suite struct MetricsWorkHTTPTests {
    typealias Sample = MetricsHTTPTests.Sample

    /// The sum of the samples named `name` whose labels include `labels`.
    static func value(_ samples: [Sample], _ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.map(\.value).reduce(0, +)
    }

    /// Scrapes `url` until `done` holds for what it reads (at most 100 times): the last samples.
    static func scrape(_ url: String, until done: ([Sample]) -> Bool) async throws -> [Sample] {
        var samples: [Sample] = []
        for _ in 0..<100 {
            samples = try await MetricsHTTPTests.scrape(url).samples
            if done(samples) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return samples
    }

    @Test func thePoolArgon2TheCacheAndLiveConnectionsMoveWhileBusy() async throws {
        // The waiting transaction must still be waiting when a scrape comes: under the whole
        // suite on two cores the scrapes have taken longer than the default 10 s it would wait.
        try await withAccounts(poolSize: 2, acquireTimeout: .seconds(120), setup: .live) { h in
            let url = "http://127.0.0.1:\(try #require(h.client.port))/metrics"
            let sam = try await h.person(.youngPerson, "sam")
            let before = try await MetricsHTTPTests.scrape(url).samples

            // The document cache: a document new to the tenant, then the same again.
            for _ in 0..<2 { #expect(try await h.graphQL("query CacheProbe { me { id } }", token: sam.token)["errors"] == nil) }

            // A subscription over SSE open.
            let sse = try LiveSocketTests.sseClient(h, sam.token, "subscription { notificationAdded { id } }", seconds: 8)
            let streaming = try await Self.scrape(url, until: { Self.value($0, "storykeep_live_connections", ["transport": "sse"]) >= 1 })
            #expect(Self.value(streaming, "storykeep_live_connections", ["transport": "sse"]) >= 1)

            // Argon2's one thread held, a login queues behind it; then both of the pool's
            // connections held, a third transaction waits; all until the scrape has seen them.
            let release = Flag()
            // Set on every way out: a scrape that throws must not leave the Argon2 thread and both
            // connections held for ever (they would keep the pools from closing).
            defer { release.set() }
            let argon2Held = Task { try await h.argon2.run { while !release.isSet { Thread.sleep(forTimeInterval: 0.01) } } }
            // The login must be queued for Argon2 before the connections are taken: its first
            // transaction would otherwise wait behind them, and never reach that queue.
            let login = Task { try await h.login(sam.loginName, sam.password) }
            var during = try await Self.scrape(url, until: { Self.value($0, "storykeep_argon2_queue_length") >= 1 })
            let held = (0..<2).map { _ in
                Task { try await h.app.transaction { tx in while !release.isSet { _ = try await tx.query("select pg_sleep(0.05)") } } }
            }
            try await Task.sleep(for: .milliseconds(200))
            let waiter = Task { try await h.app.transaction { tx in _ = try await tx.query("select 1") } }
            during = try await Self.scrape(url, until: { Self.value($0, "storykeep_db_pool_waiting") >= 1 })
            release.set()
            #expect(Self.value(during, "storykeep_db_pool_connections_in_use") >= 2)
            #expect(Self.value(during, "storykeep_db_pool_waiting") >= 1)
            #expect(Self.value(during, "storykeep_argon2_queue_length") >= 1)

            for task in held { try await task.value }
            try await waiter.value
            try await argon2Held.value
            #expect(try await login.value["errors"] == nil)
            _ = try await sse.value

            let after = try await MetricsHTTPTests.scrape(url).samples
            let slug = h.tenant.slug
            #expect(Self.value(after, "storykeep_document_cache_lookups_total", ["tenant": slug, "result": "miss"]) >= 1)
            #expect(Self.value(after, "storykeep_document_cache_lookups_total", ["tenant": slug, "result": "hit"]) >= 1)
            for histogram in ["storykeep_db_pool_wait_seconds", "storykeep_argon2_wait_seconds", "storykeep_argon2_seconds"] {
                #expect(Self.value(after, histogram + "_count") > Self.value(before, histogram + "_count"), "\(histogram)")
            }
        }
    }

    @Test func anArchivePurgeIsCountedAsTheJobsWork() async throws {
        try await withAccounts(setup: .live, tweak: JournalHTTP.tenant) { h in
            let url = "http://127.0.0.1:\(try #require(h.client.port))/metrics"
            let sam = try await h.youngPerson("sam").token
            let entry = try await h.createEntry(["date": .string("2026-11-21"), "kind": .string("TEXT"), "text": .string("gone")], token: sam)
            _ = try await h.graphQL("mutation($id: ID!) { deleteEntry(id: $id) }", ["id": entry["id"]!], token: sam)
            let purged = ["job": "archive_purge", "work": "entries"]
            let before = Self.value(try await MetricsHTTPTests.scrape(url).samples, "storykeep_job_work_total", purged)

            // The purge as `storykeep serve` runs it, over this test's tenant, 31 days on.
            let clock = h.clock
            let tenant = try #require(try await TenantStore(pool: h.app).all().first { $0.slug == h.tenant.slug })
            let service = BackgroundJobService(
                job: ArchiveModule.purgeJob(interval: .milliseconds(50)),
                context: JobContext(
                    pool: h.app, tenants: { [tenant] }, now: { clock.now.addingTimeInterval(31 * 86_400) }, logger: Logger(label: "purge-test")))
            let running = Task { try await service.run() }
            let samples = try await Self.scrape(url, until: { Self.value($0, "storykeep_job_work_total", purged) >= before + 1 })
            running.cancel()
            _ = try? await running.value
            #expect(Self.value(samples, "storykeep_job_work_total", purged) >= before + 1)
            #expect(Self.value(samples, "storykeep_job_rounds_total", ["job": "archive_purge", "result": "done"]) >= 1)
        }
    }
}

/// Set once, read from any thread: when the test lets go of what it holds.
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
