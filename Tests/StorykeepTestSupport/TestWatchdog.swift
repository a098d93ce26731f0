import Foundation
import Postgres
import Synchronization

/// Says what a test process that stopped making progress is waiting for, when `scripts/test.sh`
/// asks: it creates the file named by `STORYKEEP_TEST_DUMP` after a long silence, and a thread of
/// this process (not a task: Swift's cooperative pool may be what is stuck) answers on standard
/// error with
///
/// - whether a new task still runs within five seconds (if not, the cooperative pool is stuck or
///   starved, and no suspended task can resume), and
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
        let ran = Atomic<Bool>(false)
        Task.detached { ran.store(true, ordering: .releasing) }
        let deadline = Date().addingTimeInterval(5)
        while !ran.load(ordering: .acquiring) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        var lines = ["test watchdog: a new task \(ran.load(ordering: .acquiring) ? "ran" : "did NOT run within 5 s: the cooperative pool is stuck")"]
        let waits = PendingWaits.report(olderThan: .seconds(30))
        lines += waits.isEmpty ? ["test watchdog: no task has waited over 30 s in the package's own primitives"] : waits.map { "test watchdog: \($0)" }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
