import CLibPQ
import Foundation
import Logging

/// One libpq connection and its prepared statements. Every method blocks and must run on the
/// connection's own thread (a `BoundedWorkerPool` of one), one at a time; nothing here is shared.
final class ConnectionCore {
    private(set) var connection: OpaquePointer?
    /// Prepared statement names by cache key (the SQL, plus the types of binary parameters).
    private var statements: [String: String] = [:]
    private let statementCacheSize: Int
    let logger: Logger
    /// A COMMIT sent and not answered yet (``commitWithoutWaiting()``): read before the next call.
    var commitInFlight = false
    /// Whether a statement of the transaction begun last reported a write (its command tag).
    private(set) var wroteInTransaction = false

    private init(connection: OpaquePointer, statementCacheSize: Int, logger: Logger) {
        self.connection = connection
        self.statementCacheSize = statementCacheSize
        self.logger = logger
    }

    /// Opens a connection. The string is expanded by libpq as `dbname` (so URIs and `key=value`
    /// strings both work); the client encoding is forced to UTF-8, which Swift strings assume.
    static func connect(_ connectionString: String, statementCacheSize: Int, logger: Logger) throws -> ConnectionCore {
        let keywords = ["dbname", "client_encoding"]
        let values = [connectionString, "UTF8"]
        let connection = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else {
            throw PostgresError(kind: .connectionFailed, message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = errorMessage(connection)
            PQfinish(connection)
            throw PostgresError(kind: .connectionFailed, message: message)
        }
        // Server notices (e.g. "relation already exists, skipping") go to the log, not stderr.
        PQsetNoticeReceiver(connection, { _, result in
            guard let result, let text = PQresultErrorMessage(result) else { return }
            noticeLogger.debug("postgres notice: \(String(cString: text).trimmingTrailingNewlines)")
        }, nil)
        return ConnectionCore(connection: connection, statementCacheSize: statementCacheSize, logger: logger)
    }

    /// Whether the connection is still usable (libpq noticed no broken socket).
    var isBroken: Bool { connection.map { PQstatus($0) != CONNECTION_OK } ?? true }

    /// Whether the connection is outside any transaction block.
    var isIdle: Bool { connection.map { commitInFlight || PQtransactionStatus($0) == PQTRANS_IDLE } ?? false }

    /// The server process id, as `pg_backend_pid()` reports it.
    var backendPID: Int32 { connection.map { PQbackendPID($0) } ?? 0 }

    func close() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    /// Runs one parameterised statement through a cached prepared statement, results in binary.
    func execute(_ sql: String, _ parameters: [PostgresParameter?]) throws -> PostgresRows {
        let connection = try open()
        let types = parameters.map { $0?.binaryType?.oid ?? 0 }
        let name = try statement(sql, types)
        return try withParameters(parameters) { count, values, lengths, formats in
            if let name {
                return try check(PQexecPrepared(connection, name, count, values, lengths, formats, 1))
            }
            return try check(types.withUnsafeBufferPointer {
                PQexecParams(connection, sql, count, $0.baseAddress, values, lengths, formats, 1)
            })
        }
    }

    /// The name of the prepared statement for `sql` with these parameter types, preparing it on
    /// first use; `nil` once the cache is full (further statements run unprepared rather than grow
    /// the server's memory).
    private func statement(_ sql: String, _ types: [UInt32]) throws -> String? {
        let key = types.allSatisfy { $0 == 0 } ? sql : sql + "\u{0}" + types.map(String.init).joined(separator: ",")
        if let name = statements[key] { return name }
        guard statements.count < statementCacheSize else { return nil }
        let name = "stmt_\(statements.count)"
        _ = try check(types.withUnsafeBufferPointer {
            PQprepare(try open(), name, sql, Int32(types.count), $0.baseAddress)
        })
        statements[key] = name
        return name
    }

    /// BEGIN, then `statements` (the transaction's settings, and whatever the caller wants to
    /// know at once), in one round trip with libpq's pipeline mode: the results of `statements`.
    /// If any fails, the transaction is rolled back and the first error thrown.
    func begin(then statements: [PipelinedStatement]) throws -> [PostgresRows] {
        wroteInTransaction = false
        let results = try pipeline([PipelinedStatement(sql: "BEGIN", parameters: [], prepared: false)] + statements)
        var rows: [PostgresRows] = []
        for result in results {
            switch result {
            case .success(let value): rows.append(value)
            case .failure(let error):
                if let connection, PQtransactionStatus(connection) != PQTRANS_IDLE { _ = try? executeScript("ROLLBACK") }
                throw error
            }
        }
        return Array(rows.dropFirst())
    }

    /// Sends `statements` together with libpq's pipeline mode and one sync point: one round trip.
    /// Returns each statement's rows or error, in order. Inside a transaction, a statement that
    /// fails aborts it, and the statements after it fail as they would sent one by one (`25P02`,
    /// "current transaction is aborted"): nothing after a failure is half-done. Outside one, the
    /// statements form one implicit transaction. Throws only when the connection is lost, which
    /// closes it if results are left unread.
    func pipeline(_ statements: [PipelinedStatement]) throws -> [Result<PostgresRows, PostgresError>] {
        let connection = try open()
        // Prepared statements are prepared first (a round trip each, once per connection); a
        // statement the full cache cannot take is sent unprepared.
        let names = try statements.map { $0.prepared ? try statement($0.sql, $0.parameters.map { $0?.binaryType?.oid ?? 0 }) : nil }
        guard PQenterPipelineMode(connection) == 1 else { throw lostOrFailed(connection) }
        var sent = true
        for (statement, name) in zip(statements, names) where sent {
            sent = try withParameters(statement.parameters) { count, values, lengths, formats in
                if let name { return PQsendQueryPrepared(connection, name, count, values, lengths, formats, 1) == 1 }
                let types = statement.parameters.map { $0?.binaryType?.oid ?? 0 }
                return types.withUnsafeBufferPointer {
                    PQsendQueryParams(connection, statement.sql, count, $0.baseAddress, values, lengths, formats, 1) == 1
                }
            }
        }
        sent = sent && PQpipelineSync(connection) == 1
        var results: [Result<PostgresRows, PostgresError>] = []
        if sent {
            readUntilSync(connection) { result in
                if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                    PQclear(result)
                    results.append(.failure(Self.abortedByEarlierFailure))
                    return
                }
                do { results.append(.success(try check(result))) } catch {
                    results.append(.failure(error as? PostgresError ?? lostOrFailed(connection)))
                }
            }
        }
        let lost = !sent || PQstatus(connection) != CONNECTION_OK || results.count != statements.count
        let failure = lost ? lostOrFailed(connection) : nil
        if PQexitPipelineMode(connection) != 1 {
            // Results are still pending: the connection cannot be trusted any more.
            close()
        }
        if let failure { throw failure }
        return results
    }

    /// Hands each result of a pipeline to `each` (which clears it) until its sync point, or until
    /// the connection is lost. Each statement's result is followed by a NULL, which is skipped.
    func readUntilSync(_ connection: OpaquePointer, _ each: (OpaquePointer) -> Void) {
        while PQstatus(connection) == CONNECTION_OK {
            guard let result = PQgetResult(connection) else { continue }
            if PQresultStatus(result) == PGRES_PIPELINE_SYNC {
                PQclear(result)
                return
            }
            each(result)
        }
    }

    /// What a statement sent after a failed one in the same pipeline gets: what PostgreSQL
    /// answers a statement sent on its own in a transaction a failure aborted.
    static let abortedByEarlierFailure = PostgresError(
        kind: .server, message: "current transaction is aborted, commands ignored until end of transaction block",
        sqlState: PostgresError.SQLState.inFailedTransaction)

    /// Runs SQL without parameters through the simple protocol: several statements may be given
    /// (a migration file), results come in text, and only the last result is returned.
    func executeScript(_ sql: String) throws -> PostgresRows {
        try check(PQexec(try open(), sql))
    }

    // MARK: COPY FROM STDIN

    func startCopy(_ sql: String) throws {
        let connection = try open()
        guard let result = PQexec(connection, sql) else { throw lostOrFailed(connection) }
        if PQresultStatus(result) == PGRES_COPY_IN {
            PQclear(result)
            return
        }
        _ = try check(result)
        throw PostgresError(kind: .copyFailed, message: "statement is not a COPY ... FROM STDIN")
    }

    func putCopyData(_ bytes: [UInt8]) throws {
        let connection = try open()
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(connection, $0.baseAddress, Int32($0.count)) }
        }
        if sent != 1 { throw lostOrFailed(connection) }
    }

    /// Ends the COPY; with an error message, aborts it (the server then reports that message).
    func endCopy(abortMessage: String?) throws -> PostgresRows {
        let connection = try open()
        if PQputCopyEnd(connection, abortMessage) != 1 { throw lostOrFailed(connection) }
        var last: PostgresRows?
        var failure: Error?
        while let result = PQgetResult(connection) {
            do { last = try check(result) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        guard let last else { throw lostOrFailed(connection) }
        return last
    }

    // MARK: Results and errors

    private func open() throws -> OpaquePointer {
        guard let connection else { throw PostgresError(kind: .connectionLost, message: "connection is closed") }
        if commitInFlight { try settleCommit(connection) }
        return connection
    }

    /// Turns a libpq result into rows, or into a `PostgresError` carrying the server's fields.
    private func check(_ result: OpaquePointer?) throws -> PostgresRows {
        let connection = try open()
        guard let result else { throw lostOrFailed(connection) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            if !wroteInTransaction, Self.isWrite(PQcmdStatus(result)) { wroteInTransaction = true }
            return PostgresRows(storage: ResultStorage(result))
        default:
            var error = PostgresError(
                kind: PQstatus(connection) == CONNECTION_OK ? .server : .connectionLost,
                message: field(result, "M") ?? String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines,
                sqlState: field(result, "C"), detail: field(result, "D"), hint: field(result, "H"))
            error.position = field(result, "P").flatMap { Int($0) }
            error.schemaName = field(result, "s")
            error.tableName = field(result, "t")
            error.columnName = field(result, "c")
            error.constraintName = field(result, "n")
            PQclear(result)
            if error.kind == .connectionLost { logger.warning("postgres connection lost: \(error.message)") }
            throw error
        }
    }

    private func lostOrFailed(_ connection: OpaquePointer) -> PostgresError {
        PostgresError(
            kind: PQstatus(connection) == CONNECTION_OK ? .server : .connectionLost,
            message: Self.errorMessage(connection))
    }

    private static func errorMessage(_ connection: OpaquePointer) -> String {
        String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines
    }

    private func field(_ result: OpaquePointer, _ code: Unicode.Scalar) -> String? {
        PQresultErrorField(result, Int32(code.value)).map { String(cString: $0) }
    }
}

/// One statement of a pipeline: its SQL, its parameters, and whether to send it as a prepared
/// statement (the connection's cache) or as it is (BEGIN).
struct PipelinedStatement: Sendable {
    var sql: String
    var parameters: [PostgresParameter?]
    var prepared = true
}

/// Notices carry no request context; they are logged under one label.
private let noticeLogger = Logger(label: "postgres.notice")

/// Lays parameters out for libpq: one contiguous buffer, text values NUL-terminated, binary
/// values with their lengths, NULLs as null pointers. Throws `invalidParameter`, before `body`
/// runs, for text holding U+0000: libpq would send it cut short at the NUL.
private func withParameters<T>(
    _ parameters: [PostgresParameter?],
    _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) throws -> T
) throws -> T {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(parameters.reduce(1) { $0 + ($1?.bytes.count ?? 0) + 1 })
    var offsets: [Int] = []
    var lengths: [Int32] = []
    var formats: [Int32] = []
    for parameter in parameters {
        guard let parameter else {
            offsets.append(-1)
            lengths.append(0)
            formats.append(0)
            continue
        }
        if parameter.binaryType == nil, parameter.bytes.contains(0) {
            throw PostgresError(
                kind: .invalidParameter,
                message: "parameter $\(offsets.count + 1) is text holding the NUL character (U+0000), which PostgreSQL cannot store")
        }
        offsets.append(buffer.count)
        buffer.append(contentsOf: parameter.bytes)
        if parameter.binaryType == nil { buffer.append(0) }
        lengths.append(Int32(parameter.bytes.count))
        formats.append(parameter.binaryType == nil ? 0 : 1)
    }
    buffer.append(0)  // never empty, so the base address exists
    return try buffer.withUnsafeBufferPointer { base in
        let start = UnsafeRawPointer(base.baseAddress!).assumingMemoryBound(to: CChar.self)
        let values: [UnsafePointer<CChar>?] = offsets.map { $0 < 0 ? nil : start + $0 }
        return try body(Int32(parameters.count), values, lengths, formats)
    }
}

/// Passes an array of Swift strings as a NULL-terminated `const char * const *`.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { body($0.baseAddress!) }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
