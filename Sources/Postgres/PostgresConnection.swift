import Logging
import Synchronization

/// One connection to PostgreSQL, lent by a `PostgresPool` for the duration of a closure.
///
/// All of its libpq calls run in order on its own thread; this handle only sends them there and
/// awaits the answers. Don't keep it beyond the closure that received it: the pool reuses it.
public final class PostgresConnection: PostgresQueryable, Sendable {
    /// A number unique within the pool, for logs.
    public let id: Int
    /// The connection's own thread: every libpq call on it runs there, in order.
    private let worker: BoundedWorkerPool
    private let core: Confined
    /// What the last call left behind, read when the connection is given back to the pool.
    private let state: Mutex<ConnectionState>
    /// Where the statements it sends are counted (its pool's).
    private let tally: StatementTally
    /// How long its gatherings wait for a participant (``PostgresConfiguration/gatheringPatience``).
    let gatheringPatience: Duration
    let logger: Logger

    /// The `ConnectionCore`, reachable only from the worker's thread.
    private final class Confined: @unchecked Sendable {
        let core: ConnectionCore
        init(_ core: ConnectionCore) { self.core = core }
    }

    private init(
        id: Int, worker: BoundedWorkerPool, core: ConnectionCore, tally: StatementTally, gatheringPatience: Duration, logger: Logger
    ) {
        self.id = id
        self.gatheringPatience = gatheringPatience
        self.worker = worker
        self.core = Confined(core)
        state = Mutex(ConnectionState(broken: false, idle: true, quietTransaction: false))
        self.tally = tally
        self.logger = logger
    }

    /// Opens a connection on a new dedicated thread, counting its statements in `tally`.
    static func connect(
        id: Int, configuration: PostgresConfiguration, tally: StatementTally, logger: Logger
    ) async throws -> PostgresConnection {
        let worker = BoundedWorkerPool(threadCount: 1, name: "postgres-\(id)")
        do {
            let core = try await worker.run {
                Confined(try ConnectionCore.connect(
                    configuration.connectionString, statementCacheSize: configuration.statementCacheSize, logger: logger))
            }
            return PostgresConnection(
                id: id, worker: worker, core: core.core, tally: tally, gatheringPatience: configuration.gatheringPatience, logger: logger)
        } catch {
            worker.stop()
            throw error
        }
    }

    /// Runs `work` on this connection's thread and records the state it leaves.
    func run<T: Sendable>(_ work: @escaping @Sendable (ConnectionCore) throws -> T) async throws -> T {
        try await worker.run { [self] in
            defer { recordState() }
            return try work(core.core)
        }
    }

    /// Notes what the last call on the worker's thread left behind.
    private func recordState() {
        let core = core.core
        let after = ConnectionState(broken: core.isBroken, idle: core.isIdle, quietTransaction: core.mayCommitWithoutWaiting)
        state.withLock { $0 = after }
    }

    /// What a connection's last call left behind, as its thread saw it.
    private struct ConnectionState {
        var broken: Bool
        /// Outside any transaction block (or its COMMIT sent).
        var idle: Bool
        /// In a transaction in which nothing was written and nothing failed.
        var quietTransaction: Bool
    }

    /// Sends the statements `gathered` in one round trip (one alone as usual, several in a
    /// pipeline) from the worker's thread, and resumes each waiter with its statements' rows or errors.
    func send(_ gathered: [StatementGathering.Waiting]) {
        let statements = gathered.flatMap(\.statements)
        tally.add(statements.count, roundTrips: 1)
        worker.submit { [self] in
            let results: [Result<PostgresRows, any Error>]
            if statements.count == 1 {
                results = [Result { try core.core.execute(statements[0].sql, statements[0].parameters) }]
            } else {
                do {
                    results = try core.core.pipeline(statements).map { $0.mapError { $0 } }
                } catch {
                    results = Array(repeating: .failure(error), count: statements.count)
                }
            }
            recordState()
            var start = 0
            for item in gathered {
                item.waiter.resume(returning: Array(results[start..<start + item.statements.count]))
                start += item.statements.count
            }
        }
    }

    /// Queues the COMMIT of a quiet transaction (nothing written, nothing failed) on the
    /// connection's thread without waiting for the thread either: the connection is idle from now
    /// on, since the thread sends the COMMIT before anything its next borrower asks. Returns
    /// false, queueing nothing, for any other transaction, which the caller commits as usual.
    private func commitWithoutWaiting() -> Bool {
        let quiet = state.withLock { state in
            guard !state.broken, state.quietTransaction else { return false }
            state.idle = true
            state.quietTransaction = false
            return true
        }
        guard quiet else { return false }
        worker.submit { [self] in
            do {
                // The state said quiet, and nothing ran on the thread since it was recorded.
                if try !core.core.commitWithoutWaiting() { _ = try core.core.executeScript("COMMIT") }
            } catch {
                logger.warning("postgres COMMIT sent without waiting failed: \(error)")
            }
            recordState()
        }
        return true
    }

    /// Whether the pool may lend this connection again: not broken, and not inside a transaction.
    var isReusable: Bool { state.withLock { !$0.broken && $0.idle } }

    /// Closes the connection and ends its thread, without waiting.
    func close() {
        let confined = core
        worker.submit { confined.core.close() }
        worker.stop()
    }

    /// The server process serving this connection (`pg_backend_pid()`).
    public func backendPID() async throws -> Int32 { try await run { $0.backendPID } }

    // MARK: PostgresQueryable

    /// The statement gathering this task takes part in on this connection, if any: its
    /// statements then travel with the other participants'.
    private var openGathering: StatementGathering? {
        StatementGathering.current.flatMap { $0.connection === self ? $0 : nil }
    }

    public func query(_ sql: String, parameters: [(any PostgresEncodable)?]) async throws -> PostgresRows {
        let encoded = try parameters.map { try $0?.postgresParameter() }
        if let gathering = openGathering {
            return try await StatementSpan.run(sql) { try await gathering.send([PipelinedStatement(sql: sql, parameters: encoded)])[0].get() }
        }
        tally.add(1, roundTrips: 1)
        return try await StatementSpan.run(sql) { try await run { try $0.execute(sql, encoded) } }
    }

    /// Runs `statements` together, in one round trip (libpq's pipeline mode), and returns their
    /// rows in order; the first that fails throws its error, and inside a transaction the ones
    /// after it fail too (the transaction is aborted), as if sent one by one.
    public func query(together statements: [PostgresStatement]) async throws -> [PostgresRows] {
        guard !statements.isEmpty else { return [] }
        let encoded = try statements.map { try $0.encoded() }
        let sql = statements.map(\.sql).joined(separator: "; ")
        if let gathering = openGathering {
            return try await StatementSpan.run(sql) { try await gathering.send(encoded).map { try $0.get() } }
        }
        tally.add(statements.count, roundTrips: 1)
        let results = try await StatementSpan.run(sql) { try await run { try $0.pipeline(encoded) } }
        return try results.map { try $0.get() }
    }

    public func executeScript(_ sql: String) async throws {
        tally.add(1, roundTrips: 1)
        _ = try await StatementSpan.run(sql) { try await run { try $0.executeScript(sql) } }
    }

    public func copyIn(_ sql: String, _ feed: (PostgresCopyWriter) async throws -> Void) async throws -> Int {
        tally.add(1, roundTrips: 1)
        return try await StatementSpan.run(sql) { try await copy(sql, feed) }
    }

    private func copy(_ sql: String, _ feed: (PostgresCopyWriter) async throws -> Void) async throws -> Int {
        try await run { try $0.startCopy(sql) }
        let writer = PostgresCopyWriter(connection: self)
        do {
            try await feed(writer)
            try await writer.flush()
        } catch {
            _ = try? await run { try $0.endCopy(abortMessage: "COPY aborted by the client: \(error)") }
            throw error
        }
        return try await run { try $0.endCopy(abortMessage: nil) }.affectedRows
    }

    // MARK: Transactions

    /// Runs `body` in a transaction on this connection: BEGIN, the settings (transaction-local,
    /// see `PostgresPool.transaction`), the body, COMMIT; ROLLBACK and rethrow if the body throws.
    @discardableResult
    public func transaction<T>(
        settings: [String: String] = [:],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresTransaction) async throws -> T
    ) async throws -> T {
        try await begin(settings: settings)
        return try await finishTransaction(isolation: isolation, body)
    }

    /// BEGIN, the transaction-local settings, and `statements`, in one round trip: the rows of
    /// `statements`. If any fails, the transaction is rolled back and the error thrown.
    @discardableResult
    func begin(settings: [String: String], then statements: [PostgresStatement] = []) async throws -> [PostgresRows] {
        var pipelined = try statements.map { try $0.encoded() }
        if !settings.isEmpty {
            // One `set_config(name, value, true)` per setting, in a single statement; sorted so
            // that the same names always give the same SQL and thus the same prepared statement.
            let sorted = settings.sorted { $0.key < $1.key }
            let calls = sorted.indices.map { "set_config($\(2 * $0 + 1), $\(2 * $0 + 2), true)" }
            let parameters: [PostgresParameter?] = sorted.flatMap { [.text($0.key), .text($0.value)] }
            pipelined.insert(PipelinedStatement(sql: "SELECT " + calls.joined(separator: ", "), parameters: parameters), at: 0)
        }
        let sent = pipelined
        tally.add(1 + sent.count, roundTrips: 1)
        let rows = try await StatementSpan.run((["BEGIN"] + sent.map(\.sql)).joined(separator: "; ")) {
            try await run { try $0.begin(then: sent) }
        }
        return Array(rows.suffix(statements.count))
    }

    /// The body, then COMMIT; or ROLLBACK when the body throws. Without `waitForCommit`, a
    /// transaction that wrote nothing is committed without waiting for the answer
    /// (ConnectionCore+Commit.swift).
    func finishTransaction<T>(
        isolation: isolated (any Actor)?,
        waitForCommit: Bool = true,
        _ body: (PostgresTransaction) async throws -> T
    ) async throws -> T {
        let value: T
        do {
            value = try await body(PostgresTransaction(connection: self))
        } catch {
            tally.add(1, roundTrips: 1)
            _ = try? await StatementSpan.run("ROLLBACK") { try await run { try $0.executeScript("ROLLBACK") } }
            throw error
        }
        if !waitForCommit, commitWithoutWaiting() {
            tally.add(1, roundTrips: 0)
            return value
        }
        tally.add(1, roundTrips: 1)
        let tag = try await StatementSpan.run("COMMIT") { try await run { try $0.executeScript("COMMIT") } }.commandTag
        // COMMIT of a transaction in which a statement failed answers ROLLBACK, without an error.
        if tag == "ROLLBACK" {
            throw PostgresError(
                kind: .transactionRolledBack,
                message: "the transaction was rolled back because a statement in it failed")
        }
        return value
    }
}

/// A count of statements sent and of the round trips they took, shared by a pool's connections.
final class StatementTally: Sendable {
    private let sent = Atomic<Int>(0)
    private let exchanges = Atomic<Int>(0)

    func add(_ statements: Int, roundTrips: Int) {
        _ = sent.add(statements, ordering: .relaxed)
        _ = exchanges.add(roundTrips, ordering: .relaxed)
    }

    var count: Int { sent.load(ordering: .relaxed) }
    var roundTrips: Int { exchanges.load(ordering: .relaxed) }
}

/// A statement to run together with others (``PostgresConnection/query(together:)``): its SQL
/// and its parameters, bound as for ``PostgresQueryable/query(_:parameters:)``.
public struct PostgresStatement: Sendable {
    public var sql: String
    public var parameters: [(any PostgresEncodable)?]

    public init(_ sql: String, _ parameters: (any PostgresEncodable)?...) {
        self.init(sql, parameters: parameters)
    }

    public init(_ sql: String, parameters: [(any PostgresEncodable)?]) {
        self.sql = sql
        self.parameters = parameters
    }

    func encoded() throws -> PipelinedStatement {
        PipelinedStatement(sql: sql, parameters: try parameters.map { try $0?.postgresParameter() })
    }
}
