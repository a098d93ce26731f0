import Logging
import Metrics
import Synchronization

/// A pool of PostgreSQL connections, each with its own thread for libpq's blocking calls.
///
/// Connections open on demand up to `poolSize`. A request that finds them all busy waits up to
/// `acquireTimeout`, first come first served, then fails with `.poolTimeout`. A connection that
/// broke (its backend was terminated, the network dropped) or was left inside a transaction is
/// closed when given back, and a new one is opened for the next request that needs it.
///
/// Its metrics (swift-metrics), summed over the process's pools: `storykeep_db_pool_connections_in_use`
/// (lent now), `storykeep_db_pool_waiting` (requests waiting for one) and the histogram
/// `storykeep_db_pool_wait_seconds` (how long each request waited for its connection, 0 when one
/// was free).
public final class PostgresPool: Sendable {
    public let configuration: PostgresConfiguration
    private let logger: Logger
    private let state = Mutex(State())
    private let tally = StatementTally()

    /// How many statements this pool's connections have sent to the server, each counted once
    /// however it travels (a transaction's BEGIN and its settings are two, its COMMIT one): what
    /// a test holds a piece of work to.
    public var statementsSent: Int { tally.count }

    /// How many round trips to the server those statements took: statements sent together (a
    /// transaction's BEGIN with its settings, a pipeline) count once.
    public var roundTrips: Int { tally.roundTrips }

    private struct State: ~Copyable {
        var idle: [PostgresConnection] = []
        /// Connections open or being opened, lent or idle.
        var open = 0
        var waiters: [Waiter] = []
        var nextWaiterID = 0
        var nextConnectionID = 0
        var closed = false
    }

    /// A request waiting for a connection, and the timer that gives up on its behalf.
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Grant, Error>
        var timer: Task<Void, Never>?

        /// Resumes the request, stopping its timer.
        func resume(with result: Result<Grant, Error>) {
            timer?.cancel()
            continuation.resume(with: result)
        }
    }

    /// What a request is given: a connection, or the right to open one.
    private enum Grant: Sendable {
        case connection(PostgresConnection)
        case slot(id: Int)
    }

    public init(configuration: PostgresConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Runs `body` in one transaction on one pooled connection.
    ///
    /// BEGIN; then every setting with `set_config(name, value, true)` — transaction-local, bound
    /// as parameters, all in one statement — so that nothing outlives the COMMIT and the next
    /// request on the same connection starts clean (plain `SET` would leak into it); then the
    /// body; then COMMIT. If the body throws, ROLLBACK and rethrow. Storykeep passes
    /// `storykeep.tenant_id`, `storykeep.person_id` and `storykeep.role`.
    ///
    /// If BEGIN fails because an idle connection was found dead (e.g. the server restarted), the
    /// connection is dropped and the transaction starts on another; nothing has run yet, so this
    /// is safe. A connection lost later fails the request with `.connectionLost`.
    @discardableResult
    public func transaction<T>(
        settings: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresTransaction) async throws -> T
    ) async throws -> T {
        try await transaction(settings: settings, beginningWith: [], isolation: isolation) { _, tx in try await body(tx) }
    }

    /// The same, with `statements` sent with BEGIN and the settings, in the same round trip:
    /// `body` gets their rows (in order) and the transaction. A statement that fails rolls the
    /// transaction back and throws, before `body` runs.
    ///
    /// Without `waitForCommit` (a read-only request's), a transaction in which no statement
    /// wrote (by its command tag) or failed is committed without waiting for the answer: the
    /// server commits when it reads the COMMIT, and the connection reads the answer when next
    /// used, saving the request a round trip. What a function called in a SELECT wrote (a
    /// session's sliding expiry) is committed so too, and a failure of it only logged.
    @discardableResult
    public func transaction<T>(
        settings: [String: String] = [:],
        beginningWith statements: [PostgresStatement],
        waitForCommit: Bool = true,
        isolation: isolated (any Actor)? = #isolation,
        _ body: ([PostgresRows], PostgresTransaction) async throws -> T
    ) async throws -> T {
        var (connection, reused) = try await acquire()
        var rows: [PostgresRows]
        while true {
            do {
                rows = try await connection.begin(settings: settings, then: statements)
                break
            } catch let error as PostgresError where error.kind == .connectionLost && reused {
                release(connection)
                (connection, reused) = try await acquire()
            } catch {
                release(connection)
                throw error
            }
        }
        defer { release(connection) }
        return try await connection.finishTransaction(isolation: isolation, waitForCommit: waitForCommit) { tx in
            try await body(rows, tx)
        }
    }

    /// Lends one connection to `body`, outside any transaction unless the body begins one
    /// (prefer `transaction`). Used for session-level work such as advisory locks.
    @discardableResult
    public func withConnection<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let (connection, _) = try await acquire()
        defer { release(connection) }
        return try await body(connection)
    }

    /// Closes the idle connections, fails the waiting requests with `.poolClosed`, and closes
    /// lent connections as they come back. Later requests fail with `.poolClosed`.
    public func close() async {
        let (idle, waiters) = state.withLock { state in
            state.closed = true
            defer {
                state.open -= state.idle.count
                state.idle = []
                state.waiters = []
            }
            return (state.idle, state.waiters)
        }
        for waiter in waiters {
            waiter.resume(with: .failure(PostgresError(kind: .poolClosed, message: "the pool was closed")))
        }
        for connection in idle { connection.close() }
    }

    // MARK: Lending

    /// An idle connection, or the right to open a new one, if either is available now.
    private func grant(from state: inout State) -> Grant? {
        if let connection = state.idle.popLast() { return .connection(connection) }
        guard state.open < configuration.poolSize else { return nil }
        state.open += 1
        state.nextConnectionID += 1
        return .slot(id: state.nextConnectionID)
    }

    /// A connection, and whether it was used before (and so may have died while idle).
    private func acquire() async throws -> (PostgresConnection, reused: Bool) {
        let start = ContinuousClock.now
        let immediate: Result<Grant, Error>? = state.withLock { state in
            if state.closed { return .failure(PostgresError(kind: .poolClosed, message: "the pool is closed")) }
            return grant(from: &state).map { .success($0) }
        }
        let given: Grant
        if let immediate {
            given = try immediate.get()
        } else {
            let waiting = Meter(label: "storykeep_db_pool_waiting")
            waiting.increment()
            defer { waiting.decrement() }
            given = try await wait()
        }
        Timer(label: "storykeep_db_pool_wait_seconds").record(duration: start.duration(to: .now))
        switch given {
        case .connection(let connection):
            Meter(label: Self.inUse).increment()
            return (connection, true)
        case .slot(let id):
            do {
                let connection = try await PostgresConnection.connect(id: id, configuration: configuration, tally: tally, logger: logger)
                logger.debug("postgres connection opened", metadata: ["connection": "\(id)"])
                Meter(label: Self.inUse).increment()
                return (connection, false)
            } catch {
                giveBackSlot()
                throw error
            }
        }
    }

    private static let inUse = "storykeep_db_pool_connections_in_use"

    /// Queues the request until a connection or a slot is handed to it, it times out, or its task
    /// is cancelled. Looking for a free connection and joining the queue happen under one lock,
    /// so a connection given back in between cannot be missed.
    private func wait() async throws -> Grant {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let timeout = configuration.acquireTimeout
        let wait = PendingWaits.begin("a connection of a pool of \(configuration.poolSize)")
        defer { PendingWaits.end(wait) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let immediate: Result<Grant, Error>? = state.withLock { state in
                    if state.closed { return .failure(PostgresError(kind: .poolClosed, message: "the pool was closed")) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let given = grant(from: &state) { return .success(given) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let immediate {
                    continuation.resume(with: immediate)
                    return
                }
                let timer = Task { [self] in
                    try? await Task.sleep(for: timeout)
                    if Task.isCancelled { return }
                    fail(waiter: id, PostgresError(
                        kind: .poolTimeout,
                        message: "no connection became free within \(timeout) (pool size \(configuration.poolSize))"))
                }
                let queued = state.withLock { state in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
                    state.waiters[index].timer = timer
                    return true
                }
                if !queued { timer.cancel() }
            }
        } onCancel: {
            fail(waiter: id, CancellationError())
        }
    }

    private func fail(waiter id: Int, _ error: Error) {
        let waiter = state.withLock { state in
            state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
        }
        waiter?.resume(with: .failure(error))
    }

    /// Takes a connection back: to the next waiter, to the idle list, or closed if it is broken,
    /// still inside a transaction, or the pool is closed.
    private func release(_ connection: PostgresConnection) {
        Meter(label: Self.inUse).decrement()
        enum Outcome { case idle, handed(Waiter), close }
        let reusable = connection.isReusable
        let outcome: Outcome = state.withLock { state in
            if state.closed || !reusable { return .close }
            if !state.waiters.isEmpty { return .handed(state.waiters.removeFirst()) }
            state.idle.append(connection)
            return .idle
        }
        switch outcome {
        case .idle: return
        case .handed(let waiter): waiter.resume(with: .success(.connection(connection)))
        case .close:
            if !reusable {
                logger.warning("postgres connection discarded", metadata: ["connection": "\(connection.id)"])
            }
            connection.close()
            giveBackSlot()
        }
    }

    /// A connection was closed or never opened: its place goes to the next waiter, who opens a
    /// new one, or is freed.
    private func giveBackSlot() {
        let handed: (Waiter, Int)? = state.withLock { state in
            if !state.closed, !state.waiters.isEmpty {
                state.nextConnectionID += 1
                return (state.waiters.removeFirst(), state.nextConnectionID)
            }
            state.open -= 1
            return nil
        }
        if let (waiter, id) = handed { waiter.resume(with: .success(.slot(id: id))) }
    }
}
