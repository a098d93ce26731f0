import Foundation
import StorykeepTestSupport
import Testing

/// `database.readUrl` (issue 18): the agency's figures, which may be a moment stale, are read on
/// the standby it names, in the admin's row-level security context; without it, on the primary.
/// Told apart by pausing the standby's replay: a commit still returns (the synchronous standby
/// has the WAL on disk) but the standby does not show it yet.
@Suite struct ReadUrlTests {
    /// The figures count entries by when they were written, so the range holds today (UTC, with a
    /// day either side for the tenant's time zone).
    static let figures: String = {
        let day = 86_400.0, now = Date().timeIntervalSince1970
        let format = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day()
        let from = Date(timeIntervalSince1970: now - 7 * day).formatted(format)
        let to = Date(timeIntervalSince1970: now + day).formatted(format)
        return "{ agencyFigures(from: \"\(from)\", to: \"\(to)\") { entriesByKind { kind entries { value } } } }"
    }()
    static let create = "mutation($t: String!) { createEntry(input: { date: \"2026-11-20\", kind: TEXT, text: $t }) { id } }"

    @Test func figuresAreReadOnTheStandbyWithReadUrlAndOnThePrimaryWithout() async throws {
        let pair = try await HAPair()
        defer { pair.stop() }
        let reading = try await ServeProcess(environment: pair.environment)
        defer { reading.stop() }
        let primaryOnly = try await ServeProcess(environment: pair.environment.filter { $0.key != "STORYKEEP_DATABASE_READ_URL" })
        defer { primaryOnly.stop() }
        let slug = HAPair.tenant
        let young = try await reading.login(slug: slug, HAPair.youngPerson.username, HAPair.youngPerson.password)
        let admin = try await reading.login(slug: slug, HAPair.admin.username, HAPair.admin.password)

        /// The agency's count of TEXT entries as `server` answers it (nil while under 5).
        func textEntries(_ server: ServeProcess) async throws -> Int? {
            let answer = try await server.graphQL(slug: slug, token: admin, Self.figures)
            #expect(answer.errors == nil, "\(answer)")
            let kinds = answer.data("agencyFigures", "entriesByKind") as? [[String: Any]] ?? []
            let text = kinds.first { $0["kind"] as? String == "TEXT" }
            return (text?["entries"] as? [String: Any])?["value"] as? Int
        }
        /// Waits up to 5 s for `server` to count `expected` TEXT entries; what it counted last.
        func awaitCount(_ expected: Int, on server: ServeProcess) async throws -> Int? {
            var counted = try await textEntries(server)
            for _ in 0..<100 where counted != expected {
                try await Task.sleep(for: .milliseconds(50))
                counted = try await textEntries(server)
            }
            return counted
        }

        for i in 0..<5 {
            let answer = try await reading.graphQL(slug: slug, token: young, Self.create, ["t": "entry \(i)"])
            #expect(answer.errors == nil, "\(answer)")
        }
        #expect(try await awaitCount(5, on: reading) == 5, "the standby replays the five entries")

        _ = try await pair.psql("standby", "SELECT pg_wal_replay_pause()")
        let sixth = try await reading.graphQL(slug: slug, token: young, Self.create, ["t": "entry 5"])
        #expect(sixth.errors == nil, "writes go to the primary: \(sixth)")
        #expect(try await textEntries(primaryOnly) == 6, "without readUrl the figures are the primary's")
        #expect(try await textEntries(reading) == 5, "with readUrl they are the standby's, whose replay is paused")

        _ = try await pair.psql("standby", "SELECT pg_wal_replay_resume()")
        #expect(try await awaitCount(6, on: reading) == 6, "and catch up once it replays")
    }
}
