/// An error from the PostgreSQL client: one raised by the server, or one the client met itself
/// (a lost connection, an exhausted pool, a value that cannot be decoded).
///
/// Server errors keep every field PostgreSQL sends that a caller may act on: the SQLSTATE code,
/// the primary message, the detail and hint, and the schema object the error concerns (so a
/// unique violation can be told apart by constraint name without parsing messages).
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, broadly; `sqlState` says precisely for server errors.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String {
            case server, connectionFailed, connectionLost, poolTimeout, poolClosed
            case transactionRolledBack, decoding, encoding, copyFailed, migration, invalidParameter
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The server rejected a statement; see `sqlState`, `message`, `detail`, `hint`.
        public static let server = Kind(.server)
        /// A new connection could not be opened (bad connection string, server down, auth failed).
        public static let connectionFailed = Kind(.connectionFailed)
        /// The connection broke while in use (backend terminated, network dropped). The pool
        /// discards it; the work that was running on it may or may not have been committed only
        /// if the loss happened during COMMIT.
        public static let connectionLost = Kind(.connectionLost)
        /// No connection became free within the pool's `acquireTimeout`.
        public static let poolTimeout = Kind(.poolTimeout)
        /// The pool was closed before or while waiting for a connection.
        public static let poolClosed = Kind(.poolClosed)
        /// COMMIT answered ROLLBACK: a statement failed earlier in the transaction and its error
        /// was caught and swallowed by the caller.
        public static let transactionRolledBack = Kind(.transactionRolledBack)
        /// A column's value could not be decoded into the requested Swift type.
        public static let decoding = Kind(.decoding)
        /// A Swift value could not be sent as a parameter: it lies outside what its PostgreSQL type holds.
        public static let encoding = Kind(.encoding)
        /// A COPY ... FROM STDIN could not be started or finished.
        public static let copyFailed = Kind(.copyFailed)
        /// A migration directory is malformed, or the database disagrees with it.
        public static let migration = Kind(.migration)
        /// A parameter cannot be sent as given: text holding U+0000, which PostgreSQL's text
        /// types cannot store and libpq would cut short there. Nothing was sent.
        public static let invalidParameter = Kind(.invalidParameter)

        public var description: String { base.rawValue }
    }

    public var kind: Kind
    /// The five-character SQLSTATE code of a server error (e.g. `23505` unique violation).
    public var sqlState: String?
    /// The primary, human-readable message.
    public var message: String
    public var detail: String?
    public var hint: String?
    /// 1-based character position in the statement the error points at, when the server gave one.
    public var position: Int?
    public var schemaName: String?
    public var tableName: String?
    public var columnName: String?
    public var constraintName: String?

    public init(
        kind: Kind, message: String, sqlState: String? = nil, detail: String? = nil, hint: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.hint = hint
    }

    public var description: String {
        var text = "PostgresError.\(kind)"
        if let sqlState { text += " [\(sqlState)]" }
        text += ": \(message)"
        if let detail { text += " (detail: \(detail))" }
        if let hint { text += " (hint: \(hint))" }
        return text
    }
}

extension PostgresError {
    /// Whether the database could not do the work for a reason of its own availability, not of
    /// the work: no connection could be opened (the server is down, or only a standby answers a
    /// URL that asks for `target_session_attrs=read-write`), the connection broke, none became
    /// free in time, or the server is shutting down or starting (SQLSTATE class 08, 57P01-57P03).
    /// The same request may succeed a moment later, on another connection.
    public var isUnavailable: Bool {
        if [.connectionFailed, .connectionLost, .poolTimeout].contains(kind) { return true }
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// Common SQLSTATE codes, so callers need not remember them.
    public enum SQLState {
        public static let uniqueViolation = "23505"
        public static let foreignKeyViolation = "23503"
        public static let notNullViolation = "23502"
        public static let checkViolation = "23514"
        public static let insufficientPrivilege = "42501"
        public static let syntaxError = "42601"
        public static let undefinedTable = "42P01"
        public static let invalidTextRepresentation = "22P02"
        public static let serializationFailure = "40001"
        public static let deadlockDetected = "40P01"
        public static let adminShutdown = "57P01"
        /// A statement sent into a transaction that an earlier failed statement aborted.
        public static let inFailedTransaction = "25P02"
        /// The statement was cancelled: it ran past `statement_timeout`, or someone cancelled it.
        public static let queryCanceled = "57014"
        /// A file of the database could not grow: its disk (its tablespace's) is full.
        public static let diskFull = "53100"
    }
}
