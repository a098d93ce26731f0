import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import StorykeepTestSupport

/// The checkout's scripts and the built `storykeep`, run as a shell runs them, for the tests that
/// start topologies of their own (``HAPair``, ``TestCluster``, ``LoadBalancer``).
enum Shell {
    /// Runs `arguments` with `input` as its standard input (a line) and waits, on a thread of its
    /// own, for its status and output (standard output and error together). By libc's `system`,
    /// not `Process`: Foundation's `Process` was seen never to notice the end of a script whose
    /// PostgreSQL it started and left running.
    static func run(_ arguments: [String], input: String? = nil) async -> (status: Int32, output: String) {
        let files = FileManager.default.temporaryDirectory.appending(path: "storykeep-shell-\(UUID().uuidString)")
        var command = quoted(arguments) + " >\(files.path).out 2>&1"
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

    /// Runs `arguments` and waits for nothing but its end, its output discarded: for cleaning up
    /// in a `defer`, where nothing may be awaited.
    static func runNow(_ arguments: [String]) {
        _ = system(quoted(arguments) + " >/dev/null 2>&1 </dev/null")
    }

    /// `arguments` as one line of sh, each single-quoted.
    static func quoted(_ arguments: [String]) -> String {
        arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    /// The `export NAME=value` lines a script printed (`eval "$(script start)"`'s), each value as
    /// bash's printf %q quoted it, unquoted (the backslashes before `,` `?` `&` dropped).
    static func exports(in output: String) -> [String: String] {
        var exports: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let match = line.wholeMatch(of: /export ([A-Z0-9_]+)=(.*)/) else { continue }
            exports[String(match.1)] = String(match.2).replacingOccurrences(of: "\\", with: "")
        }
        return exports
    }

    /// Runs the built `storykeep` with `arguments` from the checkout, with `environment` (a
    /// database's URLs) on top of the test's, and `input` as its standard input; fails the test
    /// unless it succeeds.
    static func storykeep(_ arguments: [String], input: String? = nil, environment: [String: String]) async throws {
        let variables = environment.map { "\($0.key)=\($0.value)" }
        let (status, output) = await run(["env", "-C", repositoryRoot.path] + variables + [try ServeProcess.binary.path] + arguments, input: input)
        guard status == 0 else { throw Failed(command: "storykeep \(arguments.joined(separator: " "))", output: output) }
    }

    /// A command that was to succeed did not.
    struct Failed: Error, CustomStringConvertible {
        var command: String
        var output: String
        var description: String { "\(command) failed: \(output)" }
    }
}
