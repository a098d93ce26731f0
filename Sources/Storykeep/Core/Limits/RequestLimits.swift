public import Foundation
public import GraphQL

/// The rate limits of the request being handled: its tenant's ``RateLimitPolicy``, its client's
/// address and the process's ``TokenBuckets``. The server binds it for the request's task
/// (``current``), as it does the request's log metadata; the domain takes from it where a limit
/// applies (a failed login, a mutation). Without one (commands, tests of the domain alone),
/// nothing is limited.
public struct RequestLimits: Sendable {
    @TaskLocal public static var current: RequestLimits?

    public let buckets: TokenBuckets
    public let policy: RateLimitPolicy
    /// The tenant's id, so that one tenant's traffic never spends another's buckets.
    public let tenantID: UUID
    /// The client's address (``ClientAddress``), or `unknown`.
    public let address: String

    public init(buckets: TokenBuckets, policy: RateLimitPolicy, tenantID: UUID, address: String) {
        self.buckets = buckets
        self.policy = policy
        self.tenantID = tenantID
        self.address = address
    }

    private func key(_ kind: String, _ who: String) -> String { "\(kind)|\(tenantID)|\(who)" }

    /// Runs a login or an activation, `attempt`, unless its address has used up its failures
    /// (RATE_LIMITED, at once, before any Argon2 work); a failure of `attempt` (anything it throws)
    /// takes one.
    ///
    /// Attempts run concurrently, so many may pass the first check before the first failure is
    /// counted. Their outcomes are judged again when they end: a failure that finds no token
    /// left, and a success that finds the bucket empty, answer RATE_LIMITED too (the success's
    /// session is left unused to expire), so a burst of guesses learns no more than the limit
    /// allows, while successes never spend and a class logging in together is never stopped.
    public func countingFailedLogins<T: Sendable>(_ attempt: () async throws -> T) async throws -> T {
        let (key, rate) = (key("login", address), RatePerMinute(policy.failedLoginsPerMinute))
        if let seconds = buckets.wait(key, rate) { throw GraphQLError.rateLimited(retryAfterSeconds: seconds) }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await attempt())
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let value):
            if let seconds = buckets.wait(key, rate) { throw GraphQLError.rateLimited(retryAfterSeconds: seconds) }
            return value
        case .failure(let error):
            if let seconds = buckets.take(key, rate) { throw GraphQLError.rateLimited(retryAfterSeconds: seconds) }
            throw error
        }
    }

    /// ``countingFailedLogins(_:)`` of the request's limits, or just `attempt` without any.
    public static func countingFailedLogins<T: Sendable>(_ attempt: () async throws -> T) async throws -> T {
        guard let current else { return try await attempt() }
        return try await current.countingFailedLogins(attempt)
    }

    /// Takes a mutation from the address's bucket and, for a logged-in person, from theirs;
    /// RATE_LIMITED when either is empty.
    public func takeMutation(personID: UUID?) throws {
        if let seconds = buckets.take(key("mutation", address), RatePerMinute(policy.mutationsPerMinutePerAddress)) {
            throw GraphQLError.rateLimited(retryAfterSeconds: seconds)
        }
        if let personID, let seconds = buckets.take(key("mutation-person", personID.uuidString), RatePerMinute(policy.mutationsPerMinutePerPerson)) {
            throw GraphQLError.rateLimited(retryAfterSeconds: seconds)
        }
    }

    /// Takes an upload request from the address's bucket: nil, or the seconds to wait.
    public func takeUpload() -> Int? {
        buckets.take(key("upload", address), RatePerMinute(policy.uploadsPerMinute))
    }

    /// Takes a request to the OAuth token endpoint from the address's bucket: nil, or the seconds to wait.
    public func takeTokenRequest() -> Int? {
        buckets.take(key("token", address), RatePerMinute(policy.tokenRequestsPerMinute))
    }
}

extension GraphQLError {
    /// Too many requests of this kind from this address or person: try again in `retryAfterSeconds`.
    public static func rateLimited(retryAfterSeconds: Int) -> GraphQLError {
        let unit = retryAfterSeconds == 1 ? "second" : "seconds"
        var error = GraphQLError(message: "Too many tries from here. Please wait \(retryAfterSeconds) \(unit) and try again.")
        error.extensions = ["code": .string("RATE_LIMITED"), "retryAfterSeconds": .int(retryAfterSeconds)]
        return error
    }
}
