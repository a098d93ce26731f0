import Foundation

/// A thread of its own that runs blocking work in submission order.
///
/// Each pooled connection owns one: libpq's calls block on the network, and blocking a thread of
/// Swift's cooperative pool (two threads on a two-core machine) or an NIO event loop would stall
/// every other task. A dedicated thread per connection also keeps each `PGconn` confined to one
/// thread, which is what libpq asks for.
final class BlockingWorker: @unchecked Sendable {
    // `jobs` and `stopping` are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var stopping = false

    init(name: String) {
        let thread = Thread { [self] in self.loop() }
        thread.name = name
        thread.start()
    }

    /// Runs `work` on the worker's thread and returns its result to the awaiting task.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let result: Result<T, Error> = await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: Result { try work() }) }
        }
        return try result.get()
    }

    /// Queues `job` without waiting for it.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread finish the jobs already queued, then exit.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            let exit = batch.isEmpty && stopping
            condition.unlock()
            if exit { return }
            for job in batch { job() }
        }
    }
}
