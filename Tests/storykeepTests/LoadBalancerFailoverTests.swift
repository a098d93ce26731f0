import Foundation
import StorykeepTestSupport
import Testing

/// A server's crash behind the load balancer (issue 18): two `storykeep serve` behind haproxy
/// (``LoadBalancer``, `scripts/lb.sh`) on a database of their own (``TestCluster``), writes and
/// uploads of large files through haproxy, and `kill -9` of one server while both are in flight.
/// Each phase lasts `STORYKEEP_FAULT_SECONDS` of load (1 in `make test`, 20 in `make faults`).
/// The figures go to standard output.
@Suite struct LoadBalancerFailoverTests {
    /// The uploads' files: 8 MiB, a video's worth, long enough on the wire to be cut.
    static let uploadBytes = 8 << 20
    static let writers = 8
    static let uploaders = 3

    /// 8 clients create entries with two tags each and 3 upload 8 MiB files, all through haproxy;
    /// once every uploader has a file on its way, server 1 is killed. Writes succeed again through
    /// haproxy within 5 s and uploads within 10 s (the other server carries on; haproxy marks the
    /// dead one down). Every acknowledged entry is in the database with its tags and every
    /// acknowledged file with its size and SHA-256; whatever else is there (a write whose answer
    /// died with the server) is whole too, and nothing is there twice: haproxy sent no POST again.
    /// A request fails only without a GraphQL answer (haproxy's 502 for what the dead server was
    /// serving, a lost connection), never with an error of the server's.
    @Test func theOtherServerCarriesOnAndNothingHalfWrittenIsVisibleWhenAServerIsKilled() async throws {
        let cluster = try await TestCluster()
        defer { cluster.stop() }
        let balancer = try await LoadBalancer(environment: cluster.environment)
        defer { balancer.stop() }
        let slug = TestCluster.tenant
        let token = try await balancer.login(slug: slug, TestCluster.youngPerson.username, TestCluster.youngPerson.password)
        let tagIDs = try await WriteLoad.createTags(["school", "family"], on: balancer, slug: slug, token: token)

        let writes = WriteLoad(server: balancer, slug: slug, token: token, tagIDs: tagIDs, clients: Self.writers)
        let uploads = UploadLoad(server: balancer, slug: slug, token: token, clients: Self.uploaders, bytes: Self.uploadBytes)
        let crash: Result<Crash, any Error>
        do {
            crash = .success(try await Self.killAServer(of: balancer, writes: writes, uploads: uploads))
        } catch {
            crash = .failure(error)
        }
        await writes.stop()
        await uploads.stop()
        let figures = try crash.get()

        // What the database holds: each entry of the load with how many tags it has, each file.
        var tagsByEntry: [String: Int] = [:]
        var writtenTimes: [String: Int] = [:]
        for row in try await cluster.rows(
            """
            SELECT e.id, e.body, count(t.tag_id) FROM entries e
                LEFT JOIN entry_tags t ON t.tenant_id = e.tenant_id AND t.entry_id = e.id
            WHERE e.body LIKE '\(WriteLoad.prefix)%' GROUP BY e.id, e.body
            """)
        {
            tagsByEntry[row[0]] = Int(row[2])
            writtenTimes[row[1], default: 0] += 1
        }
        let acknowledged = writes.acknowledged
        let lost = acknowledged.filter { tagsByEntry[$0] == nil }
        #expect(acknowledged.count > Self.writers, "the load got writes through")
        #expect(lost == [], "no acknowledged write is lost")
        #expect(tagsByEntry.filter { $0.value != tagIDs.count } == [:], "no entry without its tags")
        #expect(writtenTimes.filter { $0.value > 1 } == [:], "no entry written twice: no POST was sent again")

        var stored: [String: (size: Int, sha256: String)] = [:]
        for row in try await cluster.rows("SELECT id, byte_size, encode(sha256, 'hex') FROM media") {
            stored[row[0]] = (Int(row[1]) ?? -1, row[2])
        }
        let sent = Set(uploads.uploads.map(\.sha256))
        let acknowledgedFiles = uploads.uploads.filter { $0.mediaID != nil }
        let lostFiles = acknowledgedFiles.filter { stored[$0.mediaID!]?.sha256 != $0.sha256 }
        let partial = stored.filter { $0.value.size != Self.uploadBytes || !sent.contains($0.value.sha256) }
        let storedTimes = stored.values.reduce(into: [:]) { $0[$1.sha256, default: 0] += 1 }
        #expect(acknowledgedFiles.count >= Self.uploaders, "the uploads got files through")
        #expect(lostFiles.isEmpty, "no acknowledged file is lost or different: \(lostFiles)")
        #expect(partial.isEmpty, "every stored file is one that was sent, whole: \(partial)")
        #expect(storedTimes.filter { $0.value > 1 }.isEmpty, "no file stored twice: no POST was sent again")

        let errors = writes.errors.merging(uploads.errors) { $0 + $1 }
        #expect(errors.keys.filter { !$0.hasPrefix("no answer: ") } == [], "no request failed with an error of the server's: \(errors)")
        #expect(!errors.isEmpty, "the kill cut requests the server was serving")

        // How haproxy ended the requests that went wrong, by status and termination state: SH--
        // the server died before answering (502), SD-- while the request was on its way to it
        // (the client's connection closed with no answer), CD-- the client gave up waiting.
        let ended = balancer.haproxyLog.matches(of: /\s(-?[0-9]+) [0-9]+ - - ([A-Za-z-]{4})\s/).reduce(into: [String: Int]()) {
            $0["\($1.output.1 == "-1" ? "" : "\($1.output.1) ")\($1.output.2)", default: 0] += 1
        }

        let loadAverage = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        let seconds = { (duration: Duration) in String(format: "%.2f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18) }
        print(
            """
            load balancer figures: \(acknowledged.count) writes acknowledged, \(lost.count) lost, \(tagsByEntry.count) entries in the database \
            (\(tagsByEntry.count - acknowledged.count) whose answer was lost); \(acknowledgedFiles.count) uploads of \(Self.uploadBytes >> 20) MiB \
            acknowledged, \(lostFiles.count) lost, \(stored.count) files stored (\(stored.count - acknowledgedFiles.count) whose answer was lost), \
            \(partial.count) partial; in flight at the kill: \(figures.writesInFlight) writes, \(figures.uploadsInFlight) uploads; \
            failed: \(errors.map { "\($0.value) × \($0.key.dropFirst("no answer: ".count))" }.sorted().joined(separator: ", ")); \
            writes acknowledged again \(seconds(figures.writesAgain)) after the kill, uploads \(seconds(figures.uploadsAgain)); \
            haproxy saw the server down after \(figures.markedDown.map(seconds) ?? "more than 5 s") (\(figures.state.joined(separator: "; "))) \
            and logged \(ended.map { "\($0.value) × \($0.key)" }.sorted().joined(separator: ", ")); \
            load average \(loadAverage)
            """)
    }

    /// What the crash measured.
    struct Crash {
        var writesInFlight = 0
        var uploadsInFlight = 0
        /// From the kill to the first acknowledged write sent after it.
        var writesAgain = Duration.zero
        /// From the kill to the first acknowledged upload sent after it.
        var uploadsAgain = Duration.zero
        /// From the kill to haproxy's checks marking the server down.
        var markedDown: Duration?
        /// haproxy's view of both servers at the end.
        var state: [String] = []
    }

    /// A phase of load, `kill -9` of server 1 once every uploader has had a file on its way for
    /// 100 ms (or after 10 s, whatever is in flight then), then a phase of load on the other.
    private static func killAServer(of balancer: LoadBalancer, writes: WriteLoad, uploads: UploadLoad) async throws -> Crash {
        var crash = Crash()
        try await Task.sleep(for: FailoverTests.phase)
        let waiting = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < waiting {
            let outstanding = uploads.outstanding
            if outstanding.count == uploaders, let latest = outstanding.max(), latest < .now - .milliseconds(100) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let killed = ContinuousClock.now
        try await balancer.kill(server: 1)
        while crash.markedDown == nil && ContinuousClock.now < killed + .seconds(5) {
            if await balancer.state().first?.hasPrefix("s1 DOWN,") == true {
                crash.markedDown = killed.duration(to: .now)
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let writesAgain = try await writes.awaitRecovery(after: killed, sentAfter: killed, limit: .seconds(5))
        crash.writesAgain = try #require(writesAgain, "writes succeed again through haproxy within 5 s of the kill")
        let uploadsAgain = try await uploads.awaitRecovery(after: killed, limit: .seconds(10))
        crash.uploadsAgain = try #require(uploadsAgain, "uploads succeed again through haproxy within 10 s of the kill")
        #expect(await balancer.servers[1].readiness() == 200, "the other server is ready")
        try await Task.sleep(for: FailoverTests.phase)
        crash.state = await balancer.state()
        #expect(crash.state.first?.hasPrefix("s1 DOWN,") == true, "haproxy's checks see the killed server down: \(crash.state)")
        crash.writesInFlight = writes.answers(spanning: killed).count
        crash.uploadsInFlight = uploads.uploads.filter { $0.sent < killed && $0.at > killed }.count
        return crash
    }
}
