import Foundation
import StorykeepTestSupport
import Testing

/// A primary and its synchronous standby of their own (`scripts/pg-ha.sh`), migrated, with the
/// checkout's tenants (`tenants/`, the `demo` agency) and a young person and an agency admin of
/// its `demo` tenant, until ``stop()``. The failover tests crash and promote it; nothing else
/// runs on it.
final class HAPair: Sendable {
    /// `DATABASE_URL` and `STORYKEEP_OWNER_DATABASE_URL` naming both nodes (read-write wanted),
    /// `STORYKEEP_DATABASE_READ_URL` the standby: what a `ServeProcess` on the pair is given.
    let environment: [String: String]
    let root: String
    static let tenant = "demo"
    static let youngPerson = (username: "ha-young", password: "ha-young-person-password")
    static let admin = (username: "ha-admin@demo.example", password: "ha-admin-password")

    private static var script: String { repositoryRoot.appending(path: "scripts/pg-ha.sh").path }

    init() async throws {
        let (status, output) = await Shell.run([Self.script, "start"])
        let exports = Shell.exports(in: output)
        root = try #require(exports["STORYKEEP_HA_ROOT"], "scripts/pg-ha.sh start failed (\(status)): \(output)")
        environment = exports.filter { $0.key.hasPrefix("DATABASE") || $0.key.hasPrefix("STORYKEEP_OWNER") || $0.key == "STORYKEEP_DATABASE_READ_URL" }
        do {
            try await provision()
        } catch {
            stop()
            throw error
        }
    }

    /// `storykeep migrate`, `tenant apply tenants/`, and the two people, by the built binary.
    private func provision() async throws {
        for (arguments, input) in [
            (["migrate"], nil),
            (["tenant", "apply", "tenants/"], nil),
            (["user", "create", "--tenant", Self.tenant, "--role", "YOUNG_PERSON", "--username", Self.youngPerson.username, "--password-stdin"],
             Self.youngPerson.password),
            (["user", "create", "--tenant", Self.tenant, "--role", "AGENCY_ADMIN", "--email", Self.admin.username, "--password-stdin"],
             Self.admin.password),
        ] as [([String], String?)] {
            try await Shell.storykeep(arguments, input: input, environment: environment)
        }
    }

    /// Runs `scripts/pg-ha.sh <command> ROOT`: `kill-primary`, `promote`, `restart-primary`.
    func run(_ command: String) async throws {
        let (status, output) = await Shell.run([Self.script, command, root])
        try #require(status == 0, "pg-ha.sh \(command): \(output)")
    }

    /// What `sql` answers on `node` (`primary` or `standby`), as the superuser (no row-level
    /// security): unaligned rows, `|` between columns.
    func psql(_ node: String, _ sql: String) async throws -> String {
        let (status, output) = await Shell.run([Self.script, "psql", root, node, "-c", sql])
        try #require(status == 0, "psql on the \(node): \(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() {
        Shell.runNow([Self.script, "stop", root])
    }
}
