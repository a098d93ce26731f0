import Synchronization

/// What suspended tasks wait for in the package's own primitives (a worker thread, a pool's
/// connection, a gathering's round trip, a gate's permit), kept in debug builds only.
///
/// A test run that stops making progress prints it (the test support's watchdog), to tell a
/// wake-up lost by one of these primitives from a wait on something outside them. A release
/// build records nothing: ``begin(_:)`` returns 0 and ``end(_:)`` does nothing.
public enum PendingWaits {
    #if DEBUG
    private struct Table {
        var next = 0
        var waits: [Int: (what: String, since: ContinuousClock.Instant)] = [:]
    }
    private static let table = Mutex(Table())
    #endif

    /// Records that the calling task is about to wait for `what`; pass the result to ``end(_:)``.
    @inline(__always)
    public static func begin(_ what: @autoclosure () -> String) -> Int {
        #if DEBUG
        let what = what()
        let now = ContinuousClock.now
        return table.withLock { table in
            table.next += 1
            table.waits[table.next] = (what, now)
            return table.next
        }
        #else
        return 0
        #endif
    }

    /// The wait `id` is over.
    @inline(__always)
    public static func end(_ id: Int) {
        #if DEBUG
        _ = table.withLock { $0.waits.removeValue(forKey: id) }
        #endif
    }

    /// The waits older than `age`, one line per kind: how many, and the oldest's age in seconds.
    public static func report(olderThan age: Duration) -> [String] {
        #if DEBUG
        let now = ContinuousClock.now
        let old = table.withLock { table in table.waits.values.filter { now - $0.since >= age } }
        let kinds = Dictionary(grouping: old, by: \.what)
        return kinds.map { what, waits in
            let oldest = waits.map { now - $0.since }.max() ?? .zero
            return "\(waits.count) waiting for \(what), the oldest for \(oldest.components.seconds) s"
        }.sorted()
        #else
        return ["(not recorded: a release build)"]
        #endif
    }
}
