/// Something statements can be run on: a `PostgresConnection` or a `PostgresTransaction`.
///
/// Values only ever travel as bound parameters (`$1`, `$2`, ...), never spliced into SQL text.
public protocol PostgresQueryable: Sendable {
    /// Runs one statement with its parameters (`nil` is SQL NULL) and returns its rows.
    /// Statements are prepared once per connection and reused by their SQL text.
    func query(_ sql: String, parameters: [(any PostgresEncodable)?]) async throws -> PostgresRows

    /// Runs trusted SQL text without parameters, possibly several statements separated by `;`
    /// (a migration file). Never build this text from values.
    func executeScript(_ sql: String) async throws

    /// Runs `COPY table (columns) FROM STDIN` and feeds it the data `feed` writes, in COPY's
    /// text format (a row per line, tab-separated, `\N` for NULL). Returns the number of rows
    /// copied. If `feed` throws, the COPY is aborted and the error rethrown.
    func copyIn(_ sql: String, _ feed: (PostgresCopyWriter) async throws -> Void) async throws -> Int

    /// Runs `statements` together, in one round trip (libpq's pipeline mode), and returns their
    /// rows in order; the first that fails throws its error (``PostgresConnection/query(together:)``).
    func query(together statements: [PostgresStatement]) async throws -> [PostgresRows]
}

extension PostgresQueryable {
    /// Runs one statement: `try await tx.query("select name from t where id = $1", id)`.
    public func query(_ sql: String, _ parameters: (any PostgresEncodable)?...) async throws -> PostgresRows {
        try await query(sql, parameters: parameters)
    }

    /// Runs `statements` one after the other: what a conformer that cannot send them together
    /// (a wrapper that counts them, say) does.
    public func query(together statements: [PostgresStatement]) async throws -> [PostgresRows] {
        var rows: [PostgresRows] = []
        for statement in statements { rows.append(try await query(statement.sql, parameters: statement.parameters)) }
        return rows
    }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: String, _ parameters: (any PostgresEncodable)?...) async throws -> Int {
        try await query(sql, parameters: parameters).affectedRows
    }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: String, parameters: [(any PostgresEncodable)?]) async throws -> Int {
        try await query(sql, parameters: parameters).affectedRows
    }

    /// COPY from an asynchronous sequence of rows, each already in COPY's text format without
    /// its trailing newline.
    public func copyIn<Rows: AsyncSequence>(_ sql: String, rows: Rows) async throws -> Int
    where Rows.Element == String {
        try await copyIn(sql) { writer in
            for try await row in rows { try await writer.write(line: row) }
        }
    }
}

/// A transaction in progress, lent to the closure given to `PostgresPool.transaction`.
/// Its statements all run on one connection, inside BEGIN ... COMMIT.
public struct PostgresTransaction: PostgresQueryable {
    /// The connection the transaction runs on.
    public let connection: PostgresConnection

    public func query(_ sql: String, parameters: [(any PostgresEncodable)?]) async throws -> PostgresRows {
        try await connection.query(sql, parameters: parameters)
    }

    public func executeScript(_ sql: String) async throws {
        try await connection.executeScript(sql)
    }

    public func copyIn(_ sql: String, _ feed: (PostgresCopyWriter) async throws -> Void) async throws -> Int {
        try await connection.copyIn(sql, feed)
    }

    /// Runs `statements` together, in one round trip (``PostgresConnection/query(together:)``).
    public func query(together statements: [PostgresStatement]) async throws -> [PostgresRows] {
        try await connection.query(together: statements)
    }

    /// A gathering of `participants` concurrent pieces of work on this transaction
    /// (``StatementGathering``): their statements travel together.
    public func gathering(participants: Int) -> StatementGathering {
        StatementGathering(connection: connection, participants: participants)
    }
}

/// Buffers COPY data and sends it in chunks of about 256 KiB from the connection's thread.
public final class PostgresCopyWriter {
    private let connection: PostgresConnection
    private var buffer: [UInt8] = []
    private static let chunkSize = 256 * 1024

    init(connection: PostgresConnection) {
        self.connection = connection
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    /// Writes one row already in COPY's text format; the newline is added.
    public func write(line: String) async throws {
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.chunkSize { try await flush() }
    }

    /// Writes one row from its fields, escaping them for COPY's text format; `nil` is NULL.
    public func write(row fields: [String?]) async throws {
        for (index, field) in fields.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: "\t")) }
            Self.appendField(field, to: &buffer)
        }
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.chunkSize { try await flush() }
    }

    /// Writes rows already in COPY's text format, each ending with its newline.
    public func write(rows bytes: some Collection<UInt8>) async throws {
        var rest = bytes[...]
        while !rest.isEmpty {
            let room = max(Self.chunkSize - buffer.count, 1)
            buffer.append(contentsOf: rest.prefix(room))
            rest = rest.dropFirst(room)
            if buffer.count >= Self.chunkSize { try await flush() }
        }
    }

    /// Appends `field` escaped for COPY's text format (`\N` for nil), without a separator.
    public static func appendField(_ field: String?, to bytes: inout [UInt8]) {
        guard let field else {
            bytes.append(contentsOf: "\\N".utf8)
            return
        }
        for byte in field.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: "\\t".utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: "\\r".utf8)
            default: bytes.append(byte)
            }
        }
    }

    func flush() async throws {
        guard !buffer.isEmpty else { return }
        let chunk = buffer
        buffer.removeAll(keepingCapacity: true)
        try await connection.run { try $0.putCopyData(chunk) }
    }
}
