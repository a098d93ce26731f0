import Synchronization

/// Sends the statements of concurrent pieces of work on one transaction together: each piece
/// (a participant) runs in ``participate(_:)``, and its statements wait until every participant
/// still running has one waiting too, or has finished; then they all travel in one round trip
/// (libpq's pipeline mode), in the order they were asked for, and each gets its own rows or error.
///
/// The work asks for nothing special: it runs its statements as usual (one by one, or several
/// with ``PostgresConnection/query(together:)``), and the connection decides. It is how a GraphQL
/// round's DataLoader batches (a page's tags and its media) share one round trip. Inside the
/// transaction, a statement that fails aborts it, and the statements sent after it in the same
/// round trip fail as they would have sent one by one.
///
/// A participant that waits for something else than a statement (another participant's result,
/// say) holds back the statements of the others; after the pool's patience
/// (``PostgresConfiguration/gatheringPatience``) they are sent without it, so that waiting can
/// never become a deadlock.
public final class StatementGathering: Sendable {
    @TaskLocal static var current: StatementGathering?

    let connection: PostgresConnection
    private let state: Mutex<State>

    /// The statements one participant waits for (one, or several sent together), and its waiter.
    typealias Waiting = (statements: [PipelinedStatement], waiter: CheckedContinuation<[Result<PostgresRows, any Error>], Never>)

    private struct State {
        /// Participants that have not finished.
        var running: Int
        /// At most one entry per participant: it waits for its statements' rows.
        var waiting: [Waiting] = []
        /// Sends the waiting statements once the patience has passed.
        var timer: Task<Void, Never>?
    }

    init(connection: PostgresConnection, participants: Int) {
        self.connection = connection
        state = Mutex(State(running: participants))
    }

    /// Runs `work` as one of the participants: its statements on this gathering's connection
    /// wait for the others'. Call it once per participant the gathering was made for.
    public func participate<T>(isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T) async rethrows -> T {
        defer { leave() }
        return try await Self.$current.withValue(self) { try await work() }
    }

    /// Queues `statements` (one participant's, to travel together) and waits for the rows or
    /// error of each.
    func send(_ statements: [PipelinedStatement]) async -> [Result<PostgresRows, any Error>] {
        await withCheckedContinuation { waiter in
            let (ready, armTimer) = state.withLock { state in
                state.waiting.append((statements, waiter))
                let ready = Self.takeIfComplete(&state)
                return (ready, ready == nil && state.timer == nil)
            }
            if let ready { return connection.send(ready) }
            if armTimer { startTimer() }
        }
    }

    /// A participant finished: the statements waiting may now be all there are.
    private func leave() {
        if let ready = state.withLock({ state in
            state.running -= 1
            return Self.takeIfComplete(&state)
        }) {
            connection.send(ready)
        }
    }

    private func startTimer() {
        let timer = Task { [self] in
            try? await Task.sleep(for: connection.gatheringPatience)
            guard !Task.isCancelled else { return }
            let ready = state.withLock { state in
                state.timer = nil
                return Self.takeIfComplete(&state, force: true)
            }
            if let ready { connection.send(ready) }
        }
        let stale = state.withLock { state in
            // Sent already, or another timer is set: this one is not needed.
            if state.waiting.isEmpty || state.timer != nil { return true }
            state.timer = timer
            return false
        }
        if stale { timer.cancel() }
    }

    /// The waiting statements, taken, when every running participant has one waiting (or `force`).
    private static func takeIfComplete(_ state: inout State, force: Bool = false) -> [Waiting]? {
        guard !state.waiting.isEmpty, force || state.waiting.count >= state.running else { return nil }
        defer {
            state.waiting = []
            state.timer?.cancel()
            state.timer = nil
        }
        return state.waiting
    }
}
