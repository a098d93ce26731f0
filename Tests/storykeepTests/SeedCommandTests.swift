import Foundation
import StorykeepTestSupport
import Testing

@testable import storykeep

/// `storykeep seed`, run as an operator would against the test database (what it writes is
/// tested through the journal's stores in StorykeepTests/SeedTests.swift).
@Suite struct SeedCommandTests {
    @Test func theCommandIsRegistered() throws {
        let seed = try #require(
            try StorykeepCommand.parseAsRoot([
                "seed", "--seed", "42", "--tenants", "3", "--people", "30", "--entries", "1000", "--heavy-person-entries", "100",
            ]) as? SeedCommand)
        #expect(seed.seed == 42 && seed.tenants == 3 && seed.people == 30 && seed.entries == 1000 && seed.heavyPersonEntries == 100)
        #expect(seed.password == "seed-password")
        #expect(throws: (any Error).self) { try StorykeepCommand.parseAsRoot(["seed", "--entries", "10", "--heavy-person-entries", "11"]) }
        #expect(throws: (any Error).self) { try StorykeepCommand.parseAsRoot(["seed", "--until", "yesterday"]) }
    }

    func seed(prefix: String, seed: Int) async throws -> Storykeep.Result {
        try await Storykeep.run(
            "seed", "--seed", String(seed), "--tenant-prefix", prefix, "--tenants", "2", "--people", "6", "--entries", "400",
            "--heavy-person-entries", "120", "--days", "90")
    }

    @Test func itSeedsReproduciblyShowingProgressAndASummary() async throws {
        try TestDatabase.requireEnvironment()
        let prefix = "sc-" + UUID().uuidString.prefix(6).lowercased()
        let first = try await seed(prefix: prefix, seed: 5)
        #expect(first.status == 0, "\(first.errors)")
        // Progress on standard error (not a terminal here: whole lines), the summary on standard output.
        #expect(first.errors.contains("seed: tenants..."))
        #expect(first.errors.contains("seed: entries ["))
        #expect(first.errors.contains("400/400 100%"))
        #expect(first.output.contains("seeded 2 tenants (\(prefix)-1, \(prefix)-2)"))
        #expect(first.output.contains("400 entries ("))
        #expect(first.output.contains("password of every seeded person: seed-password"))
        #expect(first.output.contains("heavy person: username heavy in tenant \(prefix)-1 (/t/\(prefix)-1/graphql), 120 entries"))
        let digest = try #require(first.output.split(separator: "\n").first { $0.hasPrefix("digest: ") })

        // The same seed again (other tenants): the same data; another seed: other data.
        let again = try await seed(prefix: prefix + "-b", seed: 5)
        #expect(again.status == 0, "\(again.errors)")
        #expect(again.output.split(separator: "\n").first { $0.hasPrefix("digest: ") } == digest)
        let other = try await seed(prefix: prefix + "-c", seed: 6)
        #expect(other.output.split(separator: "\n").first { $0.hasPrefix("digest: ") } != digest)

        // Never over existing tenants.
        let twice = try await seed(prefix: prefix, seed: 5)
        #expect(twice.status != 0)
        #expect(twice.errors.contains("tenant \(prefix)-1 exists already"))
        #expect(try await Storykeep.run("tenant", "list").output.contains("\(prefix)-2  enabled"))
    }
}
