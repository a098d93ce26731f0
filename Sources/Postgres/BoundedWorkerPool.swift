import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A fixed set of dedicated threads that run blocking work in arrival order: the one mechanism
/// for work that must not run on Swift's cooperative pool or an NIO event loop.
///
/// - Each PostgreSQL connection owns a pool of one thread (`postgres-<n>`): libpq's calls block
///   on the network, and one thread per connection also keeps each `PGconn` confined to one
///   thread, which is what libpq asks for; its calls run in the order they were made.
/// - Argon2 (the domain's `PasswordHasher`) runs on a pool of a few threads at a lower priority.
///
/// One Argon2id computation holds a core and 19 MiB for about 20 ms. Run on Swift's cooperative
/// pool, which has one thread per core, a burst of logins would occupy every thread and stall all
/// other requests; run without a bound, it would take every core and unbounded memory. Here at
/// most ``threadCount`` computations run at once. Further calls wait in a first-in, first-out queue
/// as suspended tasks, holding no thread, while the cooperative pool goes on serving everything else.
///
/// The threads live as long as the pool: when it is released they finish the queued work and exit.
public final class BoundedWorkerPool: Sendable {
    /// How many jobs may run at the same time: the number of threads.
    public let threadCount: Int
    /// The threads' name without their number (for logs and ``PendingWaits``).
    public let name: String
    private let queue = JobQueue()

    /// How much the pool's threads yield the processor to the process's other threads: their
    /// nice value, 0 (as the rest) to 19 (run only when nothing else of the process wants to).
    public let niceness: Int

    /// Starts `threadCount` threads named `name-1`, `name-2`, ...; by default one per core.
    ///
    /// With a positive `niceness` (Linux, where a nice value is a thread's own) the threads run at
    /// a lower priority: a thread of a request that wakes up then gets a core at once instead of
    /// waiting for a computation's time slice, while the pool still uses every core left idle.
    public init(threadCount: Int = ProcessInfo.processInfo.activeProcessorCount, name: String, niceness: Int = 0) {
        precondition(threadCount > 0, "a worker pool needs at least one thread")
        precondition((0...19).contains(niceness), "a nice value is 0 to 19")
        self.threadCount = threadCount
        self.name = name
        self.niceness = niceness
        for index in 1...threadCount {
            let thread = Thread { [queue] in
                Self.lowerPriority(by: niceness)
                queue.drain()
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    deinit {
        queue.stop()
    }

    /// Queues `job` without waiting for it.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        queue.submit(job)
    }

    /// Lets the threads finish the jobs already queued, then exit.
    public func stop() {
        queue.stop()
    }

    /// Raises the calling thread's nice value by `niceness` (lowering a priority needs no privilege).
    private static func lowerPriority(by niceness: Int) {
        guard niceness > 0 else { return }
        #if os(Linux)
        // On Linux, PRIO_PROCESS with who = 0 is the calling thread alone (setpriority(2), "Bugs").
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard errno == 0 else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + Int32(niceness)))
        #endif
    }

    /// Runs `work` on one of the pool's threads once one is free and returns its result (or
    /// error) to the awaiting task. Cancelling the task does not withdraw work already queued.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let wait = PendingWaits.begin("a thread of \(name)")
        defer { PendingWaits.end(wait) }
        let result: Result<T, any Error> = await withCheckedContinuation { continuation in
            queue.submit { continuation.resume(returning: Result { try work() }) }
        }
        return try result.get()
    }
}

/// The jobs waiting for a thread, shared by the pool's threads.
private final class JobQueue: @unchecked Sendable {
    // `jobs`, `head` and `stopping` are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var stopping = false

    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets every thread finish the queued jobs, then return from `drain`.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// A thread's life: take the oldest job, run it, repeat until stopped and empty.
    func drain() {
        while let job = next() { job() }
    }

    private func next() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !stopping { condition.wait() }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        // Drop the jobs taken once they are half the array: amortised O(1) per job, and a queue
        // that never quite empties during a storm does not keep growing.
        if head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
