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
        /// Counts the timers armed, so that a timer cancelled too late to stop knows it is stale.
        var timersArmed = 0
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
        let wait = PendingWaits.begin("a gathering's round trip")
        defer { PendingWaits.end(wait) }
        return await withCheckedContinuation { waiter in
            let ready = state.withLock { state in
                state.waiting.append((statements, waiter))
                let ready = Self.takeIfComplete(&state)
                // Armed under the lock, so that statements waiting always have a timer that has
                // not yet fired: set after it, a timer that fired at once could be recorded over
                // a later participant's, which then waited with none.
                if ready == nil && state.timer == nil {
                    state.timersArmed += 1
                    state.timer = startTimer(number: state.timersArmed)
                }
                return ready
            }
            if let ready { connection.send(ready) }
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

    /// A task that sends the waiting statements once the patience has passed, unless it was
    /// cancelled (they were sent) or replaced meanwhile.
    private func startTimer(number: Int) -> Task<Void, Never> {
        Task { [self] in
            try? await Task.sleep(for: connection.gatheringPatience)
            guard !Task.isCancelled else { return }
            let ready = state.withLock { state -> [Waiting]? in
                guard state.timersArmed == number else { return nil }
                state.timer = nil
                return Self.takeIfComplete(&state, force: true)
            }
            if let ready { connection.send(ready) }
        }
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
