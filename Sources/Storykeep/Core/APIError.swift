public import GraphQL
public import Logging
public import Postgres

/// The errors the API answers with, by `extensions.code` (issue 4): what a client switches on.
/// Messages are for people (a 14-year-old reads some of them); codes are for programs.
extension GraphQLError {
    /// No valid session: no token where one is needed, or a token that is expired, revoked, of
    /// another tenant, or of a person who was switched off.
    public static func unauthenticated(_ message: String = "Please log in.") -> GraphQLError {
        coded(message, "UNAUTHENTICATED")
    }

    /// Logged in, but this is not for their role.
    public static func forbidden(_ message: String = "You are not allowed to do this.") -> GraphQLError {
        coded(message, "FORBIDDEN")
    }

    /// An argument was wrong; `field` names it (`password`, `input.email`), and `more` adds what
    /// a program needs to say why (unlocking: the balance and the price).
    public static func badUserInput(field: String, _ message: String, _ more: GraphQLObject = [:]) -> GraphQLError {
        var extensions: GraphQLObject = ["field": .string(field)]
        for (key, value) in more.entries { extensions.append(key, value) }
        return coded(message, "BAD_USER_INPUT", extensions)
    }

    /// No such thing of the person's: absent, deleted, or someone else's (never told apart, so
    /// that an id reveals nothing).
    public static func notFound(_ message: String = "Not found.") -> GraphQLError {
        coded(message, "NOT_FOUND")
    }

    /// Too many failed logins for this name: try again in `retryAfterSeconds`.
    public static func lockedOut(retryAfterSeconds: Int) -> GraphQLError {
        let unit = retryAfterSeconds == 1 ? "second" : "seconds"
        return coded(
            "Too many tries. Please wait \(retryAfterSeconds) \(unit) and try again.", "LOCKED_OUT",
            ["retryAfterSeconds": .int(retryAfterSeconds)])
    }

    /// The request's work in the database ran longer than the server allows
    /// (`database.statementTimeoutSeconds`) and was stopped; nothing it did was kept. The same
    /// request may work later, or asking for less (a shorter search, a smaller page).
    public static func timeout(
        _ message: String = "That took too long, so it was stopped. Please try again, asking for less (a shorter search or a smaller page)."
    ) -> GraphQLError {
        coded(message, "TIMEOUT")
    }

    /// The tenant runs only its registered documents (`graphql.trustedDocumentsOnly`) and this
    /// is not one of them (Apollo's code for an operation outside a safelist).
    public static func persistedQueryNotAllowed(
        _ message: String = "Only the operations registered for this agency's apps may run here."
    ) -> GraphQLError {
        coded(message, "PERSISTED_QUERY_NOT_ALLOWED")
    }

    /// The server cannot reach its database just now (a failover, a restart, every connection
    /// busy): nothing of the request was kept, unless the connection broke during its COMMIT,
    /// when the server cannot know. The same request may be sent again in a few seconds.
    public static func unavailable(
        _ message: String = "Storykeep is unavailable for a moment. Please try again in a few seconds."
    ) -> GraphQLError {
        coded(message, "UNAVAILABLE")
    }

    /// The database has no room left for what the request wrote (PostgreSQL's `disk_full`,
    /// SQLSTATE 53100: the disk of the uploaded files, or of any table, is full): nothing of it
    /// was kept. Reading, and writes that need no new room, go on working; the same request may
    /// work once the operators have made room.
    public static func storageFull(
        _ message: String = "There is no room to store this just now, so nothing of it was kept. Please try again later."
    ) -> GraphQLError {
        coded(message, "STORAGE_FULL")
    }

    /// Something failed on the server's side (it is logged there); the request may be retried.
    public static func `internal`(_ message: String = "Something went wrong on our side. Please try again.") -> GraphQLError {
        coded(message, "INTERNAL_SERVER_ERROR")
    }

    private static func coded(_ message: String, _ code: String, _ more: GraphQLObject = [:]) -> GraphQLError {
        var error = GraphQLError(message: message)
        var extensions: GraphQLObject = ["code": .string(code)]
        for (key, value) in more.entries { extensions.append(key, value) }
        error.extensions = extensions
        return error
    }
}

/// A module's error that the API answers with as a coded GraphQL error (`JournalError`'s
/// BAD_USER_INPUT and NOT_FOUND). Each module declares its errors this way; the composition maps
/// them wherever a module's resolver or loader throws them (``ResolverContext/apiError(_:at:)``).
public protocol APIErrorConvertible: Error {
    /// The error the client sees.
    var graphQLError: GraphQLError { get }
}

extension ResolverContext {
    /// What the client sees of `error`, thrown while resolving `coordinate` (`Query.entries`): a
    /// `GraphQLError` as it is, a module's error as it declares (``APIErrorConvertible``), and
    /// anything else as ``GraphQLError/failure(_:logger:_:metadata:)`` maps it.
    public func apiError(_ error: any Error, at coordinate: String) -> GraphQLError {
        switch error {
        case let error as GraphQLError: return error
        case let error as any APIErrorConvertible: return error.graphQLError
        default: return .failure(error, logger: services.logger, "Resolver failed", metadata: ["field": "\(coordinate)"])
        }
    }
}

extension GraphQLError {
    /// What the client sees of a failure that is not the API's own, logged here with `metadata`
    /// (where it happened): TIMEOUT for a statement PostgreSQL stopped at the request's
    /// `statement_timeout`, UNAVAILABLE when the database cannot be reached
    /// (``PostgresError/isUnavailable``), STORAGE_FULL when its disk is full (SQLSTATE 53100), and
    /// INTERNAL_SERVER_ERROR for anything else, logged as `failed` with what it was. The one
    /// mapping of a resolver's failures (``ResolverContext/apiError(_:at:)``) and of a request's
    /// own (its session lookup, its COMMIT).
    package static func failure(_ error: any Error, logger: Logger, _ failed: Logger.Message, metadata: Logger.Metadata) -> GraphQLError {
        let described = metadata.merging(["error": "\(error)"]) { $1 }
        switch error {
        case let error as PostgresError where error.sqlState == PostgresError.SQLState.queryCanceled:
            logger.warning("Statement stopped by the request's statement_timeout", metadata: metadata)
            return .timeout()
        case let error as PostgresError where error.isUnavailable:
            logger.warning("Database unavailable", metadata: described)
            return .unavailable()
        case let error as PostgresError where error.sqlState == PostgresError.SQLState.diskFull:
            logger.error("The database's disk is full", metadata: described)
            return .storageFull()
        default:
            logger.error(failed, metadata: described)
            return .internal()
        }
    }
}

extension DataLoader {
    /// A loader for a module's field on a type (`Entry.tags`): `batch` runs once per round for all
    /// the keys of a request, in the request's transaction (as its viewer), and its errors reach
    /// the client as ``ResolverContext/apiError(_:at:)`` says.
    /// With `staleReads`, `batch` only reads and runs where the request's stale reads go
    /// (``ResolverContext/staleReadTransaction(_:)``).
    public static func inTransaction(
        _ coordinate: String, staleReads: Bool = false,
        _ batch: @escaping @Sendable (_ keys: [Key], _ context: ResolverContext, _ tx: PostgresTransaction) async throws -> [Value]
    ) -> DataLoader {
        DataLoader { keys, context in
            guard let context = context as? ResolverContext else { throw GraphQLError(message: "Internal error: no request context.") }
            do {
                if staleReads { return try await context.staleReadTransaction { tx in try await batch(keys, context, tx) } }
                return try await context.transaction { tx in try await batch(keys, context, tx) }
            } catch {
                throw context.apiError(error, at: coordinate)
            }
        }
    }
}
