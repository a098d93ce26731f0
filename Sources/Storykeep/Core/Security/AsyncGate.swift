import Postgres
import Synchronization

/// Lets at most ``permits`` tasks through at once; the others wait, suspended and holding no
/// thread, and go through in arrival order.
///
/// Logins use one in front of their first transaction (see ``Login``): a burst of logins then
/// takes a few of the pool's connections, not all of them, and requests of people already logged
/// in do not queue behind fifty logins for a connection. The logins lose nothing: they wait for
/// Argon2 right after, which is far slower than those short transactions.
public final class AsyncGate: Sendable {
    public let permits: Int

    private struct State {
        var available: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    public init(permits: Int) {
        precondition(permits > 0, "a gate needs at least one permit")
        self.permits = permits
        state = Mutex(State(available: permits))
    }

    /// How many tasks wait for a permit now.
    public var waiting: Int { state.withLock { $0.waiting.count } }

    /// Runs `body` once a permit is free, and frees it when `body` returns or throws.
    public func withPermit<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        let wait = PendingWaits.begin("a permit of a gate of \(permits)")
        defer { PendingWaits.end(wait) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.available > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.available -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    private func release() {
        // The permit passes straight to the first in line, if any.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
