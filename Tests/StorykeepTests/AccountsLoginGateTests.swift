import Foundation
import Postgres
import Synchronization
import Testing

import Storykeep
@testable import StorykeepCore

#if canImport(Glibc)
import Glibc
#endif

@Suite("Accounts: what keeps a login storm from starving other requests")
struct AccountsLoginGateTests {
    /// How many bodies run at once, at most, and in which order they started.
    final class Record: Sendable {
        private let state = Mutex((now: 0, peak: 0, started: [Int]()))
        func enter(_ index: Int) { state.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now); $0.started.append(index) } }
        func leave() { state.withLock { $0.now -= 1 } }
        var peak: Int { state.withLock { $0.peak } }
        var started: [Int] { state.withLock { $0.started } }
    }

    @Test func aGateLetsThroughAtMostItsPermitsAndFreesThemOnErrors() async throws {
        struct Boom: Error {}
        let gate = AsyncGate(permits: 2)
        let record = Record()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try? await gate.withPermit {
                        record.enter(index)
                        defer { record.leave() }
                        try await Task.sleep(for: .milliseconds(2))
                        if index.isMultiple(of: 3) { throw Boom() }
                    }
                }
            }
        }
        #expect(record.started.count == 40)
        #expect(record.peak == 2, "at most, and with 40 waiting at least, two at once")
        // Every permit came back, the thrown ones too: two more go through together.
        let again = Record()
        async let first: Void = gate.withPermit { again.enter(0); try? await Task.sleep(for: .milliseconds(50)); again.leave() }
        async let second: Void = gate.withPermit { again.enter(1); try? await Task.sleep(for: .milliseconds(50)); again.leave() }
        _ = await (first, second)
        #expect(again.peak == 2)
    }

    @Test func waitersGoThroughInArrivalOrder() async throws {
        let gate = AsyncGate(permits: 1)
        let record = Record()
        let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
        // The first holds the permit until told; the others queue one after another meanwhile.
        let holder = Task {
            await gate.withPermit {
                record.enter(0)
                await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
                record.leave()
            }
        }
        while release.withLock({ $0 == nil }) { await Task.yield() }
        var waiters: [Task<Void, Never>] = []
        for index in 1...5 {
            waiters.append(Task { await gate.withPermit { record.enter(index); record.leave() } })
            // Each queued before the next is made (a fixed wait can lose that race on a busy machine).
            while gate.waiting < index { await Task.yield() }
        }
        release.withLock { $0?.resume() }
        await holder.value
        for waiter in waiters { await waiter.value }
        #expect(record.started == [0, 1, 2, 3, 4, 5])
    }

    #if os(Linux)
    @Test func theArgon2PoolsThreadsRunAtTheirNiceValue() async throws {
        let nice: @Sendable () -> Int32 = { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
        let base = nice()
        let pool = BoundedWorkerPool(threadCount: 2, name: "nice-test", niceness: 10)
        #expect(try await pool.run(nice) == min(19, base + 10))
        #expect(try await BoundedWorkerPool(threadCount: 1, name: "plain-test").run(nice) == base)
        #expect(nice() == base, "the calling thread keeps its own")
    }
    #endif
}
