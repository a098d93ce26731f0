import Foundation
import Testing

import Storykeep
@testable import StorykeepAccounts

@Suite("Accounts: lockout back-off")
struct AccountsLockoutTests {
    @Test func fromTheThirdFailureTheWaitDoubles() {
        let lockout = Lockout()
        let waits = (0...12).map { lockout.backoffSeconds(afterFailures: $0) }
        #expect(waits == [0, 0, 0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900])
    }

    @Test func theTenantsCapHoldsForAnyCount() {
        let lockout = Lockout(freeAttempts: 2, maxBackoffSeconds: 60)
        #expect(lockout.backoffSeconds(afterFailures: 7) == 32)
        #expect(lockout.backoffSeconds(afterFailures: 8) == 60)
        for failures in [64, 65, 66, 1_000, Int.max] {
            #expect(lockout.backoffSeconds(afterFailures: failures) == 60, "\(failures)")
        }
    }

    @Test func freeAttemptsComeFromThePolicy() {
        let lockout = Lockout(freeAttempts: 5, maxBackoffSeconds: 900)
        #expect((0...7).map { lockout.backoffSeconds(afterFailures: $0) } == [0, 0, 0, 0, 0, 0, 2, 4])
    }

    @Test func anAttemptWaitsFromTheLastFailure() {
        let lockout = Lockout()
        let last = Date(timeIntervalSince1970: 1_800_000_000)
        func decide(_ failures: Int, after seconds: Double) -> Lockout.Decision {
            lockout.decide(failures: failures, lastFailureAt: last, now: last.addingTimeInterval(seconds))
        }
        #expect(decide(2, after: 0) == .allowed)
        #expect(decide(3, after: 0) == .locked(retryAfterSeconds: 2))
        #expect(decide(3, after: 0.2) == .locked(retryAfterSeconds: 2))
        #expect(decide(3, after: 1) == .locked(retryAfterSeconds: 1))
        #expect(decide(3, after: 1.999) == .locked(retryAfterSeconds: 1))
        #expect(decide(3, after: 2) == .allowed)
        #expect(decide(4, after: 2) == .locked(retryAfterSeconds: 2))
        #expect(decide(4, after: 4.5) == .allowed)
        #expect(decide(20, after: 899.5) == .locked(retryAfterSeconds: 1))
        #expect(decide(20, after: 900) == .allowed)
        // A clock that went back: still locked, never for longer than the back-off.
        #expect(decide(3, after: -10) == .locked(retryAfterSeconds: 12))
        #expect(lockout.decide(failures: 5, lastFailureAt: nil, now: last) == .allowed)
    }
}
