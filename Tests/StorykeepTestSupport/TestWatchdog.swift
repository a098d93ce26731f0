import Foundation
import Postgres
import Synchronization

/// Says what a test process that stopped making progress is waiting for, when `scripts/test.sh`
/// asks: it creates the file named by `STORYKEEP_TEST_DUMP` after a long silence, and a thread of
/// this process (not a task: Swift's cooperative pool may be what is stuck) answers on standard
/// error with
///
/// - whether a new task still runs within five seconds (if not, the cooperative pool is stuck or
///   starved, and no suspended task can resume), and whether one sleeping 10 ms wakes (if not,
///   timers are lost: every `Task.sleep` and timeout waits for ever), and
/// - the waits in the package's own primitives older than 30 s (``PendingWaits``): a wait with
///   nothing in flight to end it is a lost wake-up; none at all points outside them.
enum TestWatchdog {
    static let variable = "STORYKEEP_TEST_DUMP"

    /// Starts the watching thread once per process, if `make test` asked for one.
    static let started: Void = {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else { return }
        let thread = Thread {
            while true {
                Thread.sleep(forTimeInterval: 2)
                guard FileManager.default.fileExists(atPath: path) else { continue }
                try? FileManager.default.removeItem(atPath: path)
                report()
            }
        }
        thread.name = "test-watchdog"
        thread.start()
    }()

    private static func report() {
        var lines = [
            "test watchdog: a new task " + (probe { } ? "ran" : "did NOT run within 5 s: the cooperative pool is stuck"),
            "test watchdog: a task sleeping 10 ms " + (probe { try? await Task.sleep(for: .milliseconds(10)) } ? "woke" : "did NOT wake within 5 s: timers are lost"),
        ]
        let waits = PendingWaits.report(olderThan: .seconds(30))
        lines += waits.isEmpty ? ["test watchdog: no task has waited over 30 s in the package's own primitives"] : waits.map { "test watchdog: \($0)" }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// Whether a new task running `work` finishes within five seconds (waited for on this thread).
    private static func probe(_ work: @escaping @Sendable () async -> Void) -> Bool {
        let done = Atomic<Bool>(false)
        Task.detached {
            await work()
            done.store(true, ordering: .releasing)
        }
        let deadline = Date().addingTimeInterval(5)
        while !done.load(ordering: .acquiring) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return done.load(ordering: .acquiring)
    }
}
