import Foundation
import StorykeepCore

/// Exponential back-off after failed logins, counted per person (whichever of their names was
/// typed) and, for a name nobody has, per name, so that the back-off itself reveals nothing.
///
/// The first ``freeAttempts`` failures in a row cost nothing. From then on, after the k-th failure
/// the next attempt must wait 2^n seconds from that failure, n = k − ``freeAttempts``, and never
/// more than ``maxBackoffSeconds``: with the defaults, 2 s after the 3rd failure, 4 s after the
/// 4th, 8 s after the 5th, ... up to 15 minutes. An attempt made while locked is answered at once,
/// without running Argon2, and is not counted (it was never judged). A success resets the count.
///
/// Pure arithmetic with the time passed in; `login_failures` (Migrations/0006_accounts_login_failures_per_person.sql,
/// through ``LoginFailures``) holds the count and the time of the last failure.
public struct Lockout: Sendable, Equatable {
    /// Failures in a row that do not yet lock (the "from the 3rd failure": 2).
    public var freeAttempts: Int
    /// The longest wait, whatever the count: the tenant's cap.
    public var maxBackoffSeconds: Int

    public init(freeAttempts: Int = 2, maxBackoffSeconds: Int = 900) {
        precondition(freeAttempts >= 0 && maxBackoffSeconds >= 1, "a lockout needs freeAttempts ≥ 0 and a cap ≥ 1 s")
        self.freeAttempts = freeAttempts
        self.maxBackoffSeconds = maxBackoffSeconds
    }

    /// Whether an attempt may be judged now.
    public enum Decision: Sendable, Equatable {
        case allowed
        /// Refused unjudged; the client may try again in this many whole seconds (at least 1).
        case locked(retryAfterSeconds: Int)
    }

    /// Seconds the next attempt must wait after the last of `failures` failures in a row.
    public func backoffSeconds(afterFailures failures: Int) -> Int {
        let n = failures - freeAttempts
        guard n > 0 else { return 0 }
        // 2^n overflows Int from n = 63; the cap is reached long before.
        guard n < Int.bitWidth - 1 else { return maxBackoffSeconds }
        return min(1 << n, maxBackoffSeconds)
    }

    /// The decision for an attempt at `now`, given the recorded count and last failure (nil when
    /// none is recorded).
    public func decide(failures: Int, lastFailureAt: Date?, now: Date) -> Decision {
        let backoff = backoffSeconds(afterFailures: failures)
        guard backoff > 0, let lastFailureAt else { return .allowed }
        let remaining = lastFailureAt.addingTimeInterval(Double(backoff)).timeIntervalSince(now)
        guard remaining > 0 else { return .allowed }
        return .locked(retryAfterSeconds: max(1, Int(remaining.rounded(.up))))
    }
}
