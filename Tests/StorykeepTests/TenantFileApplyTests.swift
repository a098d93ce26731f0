import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore
@testable import StorykeepTenancy

/// A tenant file with a slug no other test uses.
func uniqueTenant(_ tweak: (inout TenantFile) -> Void = { _ in }) throws -> TenantFile {
    try TestTenants.file(slugPrefix: "t", tweak)
}

/// Runs `body` with a tenant store on an owner pool of its own, closed whatever happens.
func withTenantStore(_ body: (TenantStore) async throws -> Void) async throws {
    try await TestDatabase.ownerPool().closing { pool in try await body(TenantStore(pool: pool)) }
}

@Suite struct TenantApplyTests {
    @Test func applyingTwiceCreatesThenChangesNothing() async throws {
        try await withTenantStore { store in
            let first = try uniqueTenant()
            let second = try uniqueTenant { $0.hosts = ["\($0.slug).example.org"] }

            #expect(try await store.apply([first, second]) == [.created(slug: first.slug), .created(slug: second.slug)])
            #expect(try await store.apply([first, second]) == [.unchanged(slug: first.slug), .unchanged(slug: second.slug)])

            let stored = try await store.all().first { $0.slug == second.slug }
            #expect(stored?.file == second)
            #expect(stored?.enabled == true)
        }
    }

    @Test func anUpdateReportsTheKeysThatChanged() async throws {
        try await withTenantStore { store in
            var file = try uniqueTenant()
            _ = try await store.apply([file])

            file.displayName = "Renamed Agency"
            file.lockout.freeAttempts = 3
            file.suggestedTags = ["school"]
            #expect(try await store.apply([file]) == [.updated(slug: file.slug, keys: ["displayName", "lockout.freeAttempts", "suggestedTags"])])
            #expect(try await store.all().first { $0.slug == file.slug }?.displayName == "Renamed Agency")
        }
    }

    @Test func aDisabledTenantStaysDisabledWhenAppliedAgain() async throws {
        try await withTenantStore { store in
            let file = try uniqueTenant()
            _ = try await store.apply([file])

            #expect(try await store.setEnabled(false, slug: file.slug))
            #expect(try await store.apply([file]) == [.unchanged(slug: file.slug)])
            #expect(try await store.all().first { $0.slug == file.slug }?.enabled == false)
            #expect(try await store.setEnabled(true, slug: file.slug))
            #expect(try await store.setEnabled(false, slug: "no-such-tenant-\(UUID().uuidString.prefix(8).lowercased())") == false)
        }
    }

    @Test func aHostOfAnotherTenantFailsTheWholeApply() async throws {
        try await withTenantStore { store in
            let owner = try uniqueTenant { $0.hosts = ["\($0.slug).example.org"] }
            _ = try await store.apply([owner])

            let innocent = try uniqueTenant()
            let thief = try uniqueTenant { $0.hosts = owner.hosts }
            await #expect(throws: TenantStoreError.hostTaken(host: owner.hosts[0], slug: thief.slug, by: owner.slug)) {
                try await store.apply([innocent, thief])
            }
            // The transaction rolled back: the valid file before the bad one was not applied either.
            #expect(try await store.all().contains { $0.slug == innocent.slug } == false)
        }
    }

    @Test func aRowThatIsNoTenantFileIsLeftOutAndReported() async throws {
        try await withTenantStore { store in
            let good = try uniqueTenant()
            _ = try await store.apply([good])
            let bad = "raw-" + UUID().uuidString.prefix(8).lowercased()
            try await store.pool.transaction { tx in
                _ = try await tx.query("INSERT INTO tenants (slug, display_name, config) VALUES ($1, 'By hand', '{}')", bad)
            }

            var reported: [String: TenantFileError] = [:]
            let tenants = try await store.all { reported[$0] = $1 }
            #expect(tenants.contains { $0.slug == good.slug })
            #expect(!tenants.contains { $0.slug == bad })
            #expect(reported[bad]?.keyPath == "slug")
            #expect(reported[bad]?.problem == "expected a value: this key is required")
        }
    }

    @Test func theAppRoleReadsTenantsButCannotWriteThem() async throws {
        let owner = try TestDatabase.ownerPool()
        let file = try uniqueTenant()
        _ = try await TenantStore(pool: owner).apply([file])
        await owner.close()

        let app = try TestDatabase.appPool(size: 2)
        let store = TenantStore(pool: app)
        #expect(try await store.all().contains { $0.slug == file.slug })
        await #expect(throws: PostgresError.self) { try await store.setEnabled(false, slug: file.slug) }
        await #expect(throws: PostgresError.self) { try await store.apply([try uniqueTenant()]) }
        await app.close()
    }
}
