import Foundation
import StorykeepTestSupport
import Testing

@testable import storykeep

/// `storykeep purge`, wired to the database (what it removes is tested in
/// StorykeepTests/JournalArchiveTests.swift).
@Suite struct JournalPurgeCommandTests {
    @Test func theCommandIsRegistered() throws {
        let purge = try #require(try StorykeepCommand.parseAsRoot(["purge", "--tenant", "demo", "--now", "2026-12-25T00:00:00Z"]) as? PurgeCommand)
        #expect(purge.tenant == "demo" && purge.now == "2026-12-25T00:00:00Z")
    }

    @Test func itPurgesATenantWithItsRetentionAndSaysSo() async throws {
        let tenants = TenantCommandTests()
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try tenants.tenantDirectory(extra: "archive:\n  retentionDays: 7")
        #expect(try await Storykeep.run("tenant", "apply", dir).status == 0)
        let result = try await Storykeep.run("purge", "--tenant", slug, "--now", "2026-12-25T00:00:00Z")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == """
            [1/1] \(slug): 0 entries, 0 media files (archived more than 7 days)
            purged 0 entries and 0 media files

            """)
        let unknown = try await Storykeep.run("purge", "--tenant", "no-such-\(slug)")
        #expect(unknown.status != 0 && unknown.errors.contains("no tenant has the slug"))
        let badTime = try await Storykeep.run("purge", "--now", "christmas")
        #expect(badTime.status != 0 && badTime.errors.contains("--now"))
    }
}
