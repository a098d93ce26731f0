import Foundation
import StorykeepTestSupport
import Testing

/// The server through the database's failures (issue 18), on a primary and synchronous standby of
/// its own (``HAPair``) that `storykeep serve` reaches by a multi-host URL with
/// `target_session_attrs=read-write`. Each fault lasts `STORYKEEP_FAULT_SECONDS` of load (1 in
/// `make test`; `make faults` runs them longer). The figures go to standard output.
@Suite struct FailoverTests {
    /// How long the load runs before, during and after each fault.
    static var phase: Duration {
        .seconds(Double(ProcessInfo.processInfo.environment["STORYKEEP_FAULT_SECONDS"] ?? "") ?? 1)
    }

    /// 20 clients create entries with two tags each throughout. First backends are terminated at
    /// random (`pg_terminate_backend`), then the primary restarts at once (`-m immediate`), then it
    /// is killed (`kill -9` of every process) and the standby promoted. Whatever the server
    /// acknowledged is in the database, whole, and every request it refused was refused with
    /// UNAVAILABLE (or RATE_LIMITED); writes succeed again within 5 s of the restart and 10 s of the crash, with
    /// `/health/ready` at 503 while no primary answers. The server is never restarted.
    @Test func noAcknowledgedWriteIsLostThroughKilledBackendsARestartAndAFailover() async throws {
        let pair = try await HAPair()
        defer { pair.stop() }
        let server = try await ServeProcess(environment: pair.environment.filter { $0.key != "STORYKEEP_DATABASE_READ_URL" })
        defer { server.stop() }
        let slug = HAPair.tenant
        let token = try await server.login(slug: slug, HAPair.youngPerson.username, HAPair.youngPerson.password)
        let tagIDs = try await WriteLoad.createTags(["school", "family"], on: server, slug: slug, token: token)

        let load = WriteLoad(server: server, slug: slug, token: token, tagIDs: tagIDs, clients: 20)
        let faults: Result<Faults, any Error>
        do {
            faults = .success(try await Self.inflictFaults(on: pair, server: server, load: load))
        } catch {
            faults = .failure(error)
        }
        await load.stop()
        let figures = try faults.get()

        // What the new primary holds of the load: each entry and how many tags it has.
        let rows = try await pair.psql(
            "standby",
            """
            SELECT e.id, count(t.tag_id) FROM entries e
                LEFT JOIN entry_tags t ON t.tenant_id = e.tenant_id AND t.entry_id = e.id
            WHERE e.body LIKE '\(WriteLoad.prefix)%' GROUP BY e.id
            """)
        var tagsByEntry: [String: Int] = [:]
        for line in rows.split(separator: "\n") {
            let columns = line.split(separator: "|")
            tagsByEntry[String(columns[0])] = Int(columns[1])
        }
        let acknowledged = load.acknowledged
        let lost = acknowledged.filter { tagsByEntry[$0] == nil }
        #expect(acknowledged.count > 20, "the load got writes through")
        #expect(lost == [], "no acknowledged write is lost")
        #expect(tagsByEntry.filter { $0.value != tagIDs.count } == [:], "no entry without its tags")
        // One young person's 20 clients also meet their mutations' rate limit (300 a minute).
        #expect(
            load.errors.keys.filter { !$0.hasSuffix("UNAVAILABLE") && !$0.hasSuffix("RATE_LIMITED") } == [],
            "every refusal says UNAVAILABLE or RATE_LIMITED: \(load.errors)")
        #expect(figures.terminated > 0, "backends were terminated")

        let loadAverage = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        print(
            """
            failover figures: \(acknowledged.count) writes acknowledged, \(lost.count) lost, \(tagsByEntry.count) entries in the database, \
            refused \(load.errors.map { "\($0.value) × \($0.key.split(separator: " ").last ?? "")" }.joined(separator: ", ")); \(figures.terminated) backends terminated; \
            recovery after an immediate restart \(figures.afterRestart), after kill -9 and promotion \(figures.afterFailover) \
            (promoted \(figures.promotedAfter) after the kill); load average \(loadAverage)
            """)
    }

    /// What the faults measured.
    struct Faults {
        var terminated = 0
        /// From the restart's start to the first acknowledged write sent after it returned.
        var afterRestart = Duration.zero
        /// From the kill to the first acknowledged write sent after it (the promotion included).
        var afterFailover = Duration.zero
        /// From the kill to the promotion's end: the time a failover manager would take to decide.
        var promotedAfter = Duration.zero
    }

    /// The three faults in turn, each with a phase of load before it.
    private static func inflictFaults(on pair: HAPair, server: ServeProcess, load: WriteLoad) async throws -> Faults {
        var faults = Faults()
        try await Task.sleep(for: phase)
        let terminating = ContinuousClock.now + phase
        while ContinuousClock.now < terminating {
            let answer = try await pair.psql(
                "primary",
                """
                SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM (
                    SELECT pid FROM pg_stat_activity WHERE usename = 'storykeep_app' ORDER BY random() LIMIT 2) chosen
                """)
            faults.terminated += Int(answer) ?? 0
            try await Task.sleep(for: .milliseconds(100))
        }

        try await Task.sleep(for: phase)
        let restarted = ContinuousClock.now
        try await pair.run("restart-primary")
        let afterRestart = try await load.awaitRecovery(after: restarted, sentAfter: .now, limit: .seconds(5))
        faults.afterRestart = try #require(afterRestart, "writes succeed again within 5 s of a restart")

        try await Task.sleep(for: phase)
        #expect(await server.readiness() == 200)
        let killed = ContinuousClock.now
        try await pair.run("kill-primary")
        let dead = ContinuousClock.now
        var unready = false
        while !unready && ContinuousClock.now < killed + .seconds(2) {
            unready = await server.readiness() == 503
            if !unready { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(unready, "/health/ready answers 503 while only the standby answers")
        try await Task.sleep(until: killed + .seconds(1))
        try await pair.run("promote")
        faults.promotedAfter = killed.duration(to: .now)
        let afterFailover = try await load.awaitRecovery(after: killed, sentAfter: dead, limit: .seconds(10))
        faults.afterFailover = try #require(afterFailover, "writes succeed again within 10 s of the crash")
        var ready = false
        while !ready && ContinuousClock.now < killed + .seconds(10) {
            ready = await server.readiness() == 200
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(ready, "/health/ready answers 200 again once the standby is promoted")
        try await Task.sleep(for: phase)
        return faults
    }
}
