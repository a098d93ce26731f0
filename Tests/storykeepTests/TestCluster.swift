import Foundation
import StorykeepTestSupport
import Testing

/// A PostgreSQL cluster of the test's own (`scripts/test-db.sh`), migrated, with the checkout's
/// `demo` tenant and a young person of it, until ``stop()``. For the fault tests that change the
/// database under the servers (a tablespace on a disk that fills up) or read all of it back: the
/// other tests' database is left alone. The tenant's rate limits are raised, as `make bench` does:
/// every client of these tests is 127.0.0.1, and one person writes hundreds of times.
final class TestCluster: Sendable {
    let root: String
    /// `DATABASE_URL`, `STORYKEEP_OWNER_DATABASE_URL`, and `STORYKEEP_TENANTS_DIRECTORY` (the
    /// tenant files with the raised limits): what a server on the cluster is given.
    let environment: [String: String]
    static let tenant = "demo"
    static let youngPerson = (username: "fault-young", password: "fault-young-person-password")
    /// The line added to the demo tenant's file.
    static let rateLimits = "rateLimits: { mutationsPerMinutePerPerson: 100000, mutationsPerMinutePerAddress: 1000000, uploadsPerMinute: 100000 }"

    private static var script: String { repositoryRoot.appending(path: "scripts/test-db.sh").path }

    init() async throws {
        let (status, output) = await Shell.run([Self.script, "start"])
        let exports = Shell.exports(in: output)
        root = try #require(exports["STORYKEEP_TEST_CLUSTER"], "scripts/test-db.sh start failed (\(status)): \(output)")
        let tenants = root + "/tenants"
        environment = exports.filter { $0.key.hasPrefix("DATABASE") || $0.key.hasPrefix("STORYKEEP_OWNER") }
            .merging(["STORYKEEP_TENANTS_DIRECTORY": tenants]) { $1 }
        do {
            try FileManager.default.createDirectory(atPath: tenants, withIntermediateDirectories: true)
            let demo = try String(contentsOf: repositoryRoot.appending(path: "tenants/\(Self.tenant).yaml"), encoding: .utf8)
            try (demo + "\n" + Self.rateLimits + "\n").write(toFile: "\(tenants)/\(Self.tenant).yaml", atomically: true, encoding: .utf8)
            try await Shell.storykeep(["migrate"], environment: environment)
            try await Shell.storykeep(["tenant", "apply", tenants], environment: environment)
            try await Shell.storykeep(
                ["user", "create", "--tenant", Self.tenant, "--role", "YOUNG_PERSON", "--username", Self.youngPerson.username, "--password-stdin"],
                input: Self.youngPerson.password, environment: environment)
        } catch {
            stop()
            throw error
        }
    }

    /// What `sql` answers, as the superuser (no row-level security): unaligned rows, `|` between
    /// columns.
    func psql(_ sql: String) async throws -> String {
        let (status, output) = await Shell.run([Self.script, "psql", root, "-c", sql])
        try #require(status == 0, "psql: \(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The rows `sql` answers, each split at `|`.
    func rows(_ sql: String) async throws -> [[String]] {
        try await psql(sql).split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Stops the cluster and removes its folder.
    func stop() {
        Shell.runNow([Self.script, "stop", root])
    }
}
