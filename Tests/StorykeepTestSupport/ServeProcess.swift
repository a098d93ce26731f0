import Foundation
import Synchronization
import Testing

/// `storykeep serve`, the built binary, on a free port of 127.0.0.1, run from the checkout with
/// the test database's environment and `environment` on top, until ``stop()``. Everything it
/// writes (standard output and standard error) is kept in ``output``.
public final class ServeProcess: @unchecked Sendable {  // set once, when it starts
    public let port: Int
    private let process: Process
    private let lines = Lines()

    /// What the process wrote, appended from the thread that reads its pipe.
    private final class Lines: Sendable {
        let all = Mutex<[String]>([])
    }

    /// The built `storykeep`: beside the test bundle, or in the checkout's debug build.
    public static var binary: URL {
        get throws {
            let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("storykeep")
            let candidates = [beside, repositoryRoot.appendingPathComponent(".build/debug/storykeep")]
            return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "build storykeep first")
        }
    }

    /// Starts it with no background jobs (they would do the work of the other tests' tenants in
    /// this database while those tests do it) and logs at `warning` unless `environment` says.
    public init(environment: [String: String] = [:]) async throws {
        process = Process()
        process.executableURL = try Self.binary
        process.arguments = ["serve"]
        process.environment = ProcessInfo.processInfo.environment.merging(
            [
                "STORYKEEP_HTTP_HOST": "127.0.0.1", "STORYKEEP_HTTP_PORT": "0", "STORYKEEP_LOG_LEVEL": "warning",
                "STORYKEEP_JOBS_ENABLED": "false",
            ].merging(environment) { $1 }) { $1 }
        process.currentDirectoryURL = repositoryRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let announced = await firstCapture(in: output.fileHandleForReading, of: /serving on http:\/\/127\.0\.0\.1:([0-9]+)/) {
            [lines] line in lines.all.withLock { $0.append(line) }
        }
        port = try #require(announced.flatMap { Int($0) }, "storykeep serve did not say where it listens")
    }

    /// What it has written so far, one element a line.
    public var output: [String] { lines.all.withLock { $0 } }

    /// SIGTERM, as an orchestrator stops it; it drains and exits by itself (for a `defer`, where
    /// nothing can be awaited).
    public func stop() {
        process.terminate()
    }

    /// SIGTERM, then waits for it to drain and exit: everything it wrote is in ``output`` after.
    /// The signal goes to its process id itself, and the wait is bounded: after 30 s it gets
    /// SIGKILL, and after 10 s more the test goes on (and fails on what is missing) rather than
    /// hang the suite.
    public func stopAndWait() async {
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        if await exits(within: .seconds(30)) { return }
        kill(pid, SIGKILL)
        _ = await exits(within: .seconds(10))
    }

    /// Whether it has exited within `limit`, looked at now and then, holding no thread of the
    /// concurrency pool.
    private func exits(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return !process.isRunning
    }
}
