import Foundation
import Logging
import Postgres
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Synchronization
import Testing

// Issue 17: `tenant apply`, `disable` and `enable` reach a running server when they commit
// (Migrations/0027_tenancy_changes.sql, DatabaseListenerService), not at its next refresh.

@Suite("Tenant changes reach a running server at once")
struct TenantChangesTests {
    /// Whether `condition` comes true within 10 s, asked every 20 ms.
    static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func disablingAndEnablingReachTheCacheWhenTheyCommit() async throws {
        let a = try await makeTenants(1)[0]
        try await TestDatabase.appPool().closing { pool in
            let logger = Logger(label: "tenant-changes-test")
            // Neither the periodic refresh nor a miss re-reads within the test: only the listener
            // brings changes.
            let cache = TenantCache(
                source: TenantStore(pool: pool), refreshInterval: .seconds(3600), missInterval: .seconds(3600), logger: logger)
            #expect(try await cache.tenant(slug: a.slug) != nil)
            let service = DatabaseListenerService(configuration: pool.configuration, live: LiveEvents(), tenants: cache, logger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                // A tenant created now shows once the listener hears of it (or, had it started
                // listening only after, reads the tenants as it starts): either way it listens
                // from then on.
                let b = try await makeTenants(1)[0]
                #expect(try await Self.eventually { try await cache.all().contains { $0.slug == b.slug } })

                try await setEnabled(false, a.slug)
                #expect(try await Self.eventually { try await cache.tenant(slug: a.slug) == nil }, "disable not heard")
                try await setEnabled(true, a.slug)
                #expect(try await Self.eventually { try await cache.tenant(slug: a.slug) != nil }, "enable not heard")
                group.cancelAll()
            }
        }
    }
}

/// A burst of changes while the tenants are being read costs one more read, not one each.
@Suite struct TenantCacheRefreshTests {
    /// Tenants that are read only when the test lets each read finish, counting the reads.
    final class GatedSource: TenantSource, Sendable {
        let reads = Mutex(0)
        let gate = AsyncStream.makeStream(of: Void.self)

        func loadTenants(logger: Logger) async throws -> [Tenant] {
            reads.withLock { $0 += 1 }
            var waiting = gate.stream.makeAsyncIterator()
            _ = await waiting.next()
            return []
        }
    }

    @Test(.timeLimit(.minutes(1))) func refreshesDuringAReadShareTheOneQueuedAfterIt() async throws {
        let source = GatedSource()
        let cache = TenantCache(source: source, refreshInterval: .seconds(3600), logger: Logger(label: "tenant-cache-test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await cache.refresh() }
            while source.reads.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(5)) }
            // Ten changes notified while the first read is under way.
            for _ in 0..<10 { group.addTask { try await cache.refresh() } }
            try await Task.sleep(for: .milliseconds(50))
            #expect(source.reads.withLock { $0 } == 1)
            source.gate.continuation.yield()
            while source.reads.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(5)) }
            source.gate.continuation.yield()
            try await group.waitForAll()
        }
        #expect(source.reads.withLock { $0 } == 2)
    }
}
