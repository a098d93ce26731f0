import Foundation

/// A fixed set of dedicated threads that run blocking, CPU-heavy work (Argon2) in arrival order.
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
    private let queue = JobQueue()

    /// Starts `threadCount` threads named `name-1`, `name-2`, ...; by default one per core.
    public init(threadCount: Int = ProcessInfo.processInfo.activeProcessorCount, name: String) {
        precondition(threadCount > 0, "a worker pool needs at least one thread")
        self.threadCount = threadCount
        for index in 1...threadCount {
            let thread = Thread { [queue] in queue.drain() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    deinit {
        queue.stop()
    }

    /// Runs `work` on one of the pool's threads once one is free and returns its result (or
    /// error) to the awaiting task. Cancelling the task does not withdraw work already queued.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
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
