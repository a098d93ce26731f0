public import GraphQL

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

    /// An argument was wrong; `field` names it (`password`, `input.email`).
    public static func badUserInput(field: String, _ message: String) -> GraphQLError {
        coded(message, "BAD_USER_INPUT", ["field": .string(field)])
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
