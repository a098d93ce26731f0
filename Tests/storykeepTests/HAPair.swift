import Foundation
#if canImport(Glibc)
    import Glibc
#endif
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
        let (status, output) = await Self.shell([Self.script, "start"])
        // `export NAME=value`, the value quoted by bash's printf %q (backslashes before , ? &).
        var exports: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let match = line.wholeMatch(of: /export ([A-Z_]+)=(.*)/) else { continue }
            exports[String(match.1)] = String(match.2).replacingOccurrences(of: "\\", with: "")
        }
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
            let binary = try ServeProcess.binary.path
            let variables = environment.map { "\($0.key)=\($0.value)" }
            let (status, output) = await Self.shell(["env", "-C", repositoryRoot.path] + variables + [binary] + arguments, input: input)
            try #require(status == 0, "storykeep \(arguments.joined(separator: " ")): \(output)")
        }
    }

    /// Runs `scripts/pg-ha.sh <command> ROOT`: `kill-primary`, `promote`, `restart-primary`.
    func run(_ command: String) async throws {
        let (status, output) = await Self.shell([Self.script, command, root])
        try #require(status == 0, "pg-ha.sh \(command): \(output)")
    }

    /// What `sql` answers on `node` (`primary` or `standby`), as the superuser (no row-level
    /// security): unaligned rows, `|` between columns.
    func psql(_ node: String, _ sql: String) async throws -> String {
        let (status, output) = await Self.shell([Self.script, "psql", root, node, "-c", sql])
        try #require(status == 0, "psql on the \(node): \(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() {
        _ = system(Self.quoted([Self.script, "stop", root]) + " >/dev/null 2>&1")
    }

    /// Runs `arguments` with `input` as its standard input (a line) and waits, on a thread of its
    /// own, for its status and output. By libc's `system`, not `Process`: Foundation's `Process`
    /// was seen never to notice the end of a script whose PostgreSQL it started and left running.
    private static func shell(_ arguments: [String], input: String? = nil) async -> (status: Int32, output: String) {
        let files = FileManager.default.temporaryDirectory.appending(path: "storykeep-ha-\(UUID().uuidString)")
        var command = Self.quoted(arguments) + " >\(files.path).out 2>&1"
        if let input {
            try? (input + "\n").write(toFile: files.path + ".in", atomically: true, encoding: .utf8)
            command += " <\(files.path).in"
        } else {
            command += " </dev/null"
        }
        let line = command
        let status = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: system(line)) }
        }
        let output = (try? String(contentsOfFile: files.path + ".out", encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: files.path + ".out")
        try? FileManager.default.removeItem(atPath: files.path + ".in")
        return (status, output)
    }

    /// `arguments` as one line of sh, each single-quoted.
    private static func quoted(_ arguments: [String]) -> String {
        arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }
}
