import Foundation
import Postgres
import Testing

@testable import Storykeep

// Failed logins in the database (Migrations/0006_accounts_login_failures_per_person.sql): counted
// on the person a name belongs to, or on a name nobody has, each seen only by the contexts the
// policy names. The lock that makes counting and judging one step is tried over HTTP
// (AccountsLockoutHTTPTests).

@Suite("Accounts: failed logins in the database")
struct AccountsLoginFailureTests {
    /// `body` in a LOGIN transaction for `name`, as typed.
    private func asLogin<T: Sendable>(
        _ app: PostgresPool, _ tenant: AccountsTenant, _ name: String, _ body: (PostgresTransaction) async throws -> T
    ) async throws -> T {
        try await app.transaction(settings: AccountContext.login(tenantID: tenant.id, loginName: name).settings, body)
    }

    @Test func countedPerPersonForTheirNamesAndPerNameForOthers() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let lockout = Lockout()
            for (name, subject) in [("alex", LoginFailures.Subject.person(tenant.alex)), ("nobody-has-this-name", .loginName)] {
                var last: LoginFailures.Record?
                for expected in 1...4 {
                    // As typed, in any case: one count per normalised name.
                    let typed = expected % 2 == 0 ? name.uppercased() : " \(name)"
                    last = try await asLogin(app, tenant, typed) { tx in try await LoginFailures.recordFailure(subject, in: tx) }
                    #expect(last?.failures == expected)
                }
                let record = try await asLogin(app, tenant, name) { tx in try await LoginFailures.read(subject, in: tx, locking: true) }
                #expect(record.failures == 4)
                #expect(record.lastFailureAt == last?.lastFailureAt)
                // Four failures: the next attempt waits 4 s from the last, by the database's clock.
                let lastFailureAt = try #require(record.lastFailureAt)
                #expect(lockout.decide(failures: 4, lastFailureAt: lastFailureAt, now: lastFailureAt) == .locked(retryAfterSeconds: 4))
                #expect(record.now >= lastFailureAt)
                guard case .locked = lockout.decide(failures: 4, lastFailureAt: lastFailureAt, now: record.now) else {
                    Issue.record("not locked \(record.now.timeIntervalSince(lastFailureAt)) s after the 4th failure")
                    return
                }
            }
            // Alex's count is on Alex, not on the name: one row, seen from a LOGIN for Alex's name
            // and from Alex's own context; not from Sam's, nor from a LOGIN for another name.
            let rows = try await asLogin(app, tenant, "alex") { tx in
                try await tx.query("select person_id, login_name from login_failures").map {
                    (try $0.decode(UUID?.self, at: 0), try $0.decode(String?.self, at: 1))
                }
            }
            #expect(rows.count == 1 && rows.first?.0 == tenant.alex && rows.first?.1 == nil, "\(rows)")
            try await app.transaction(settings: tenant.alexContext.settings) { tx throws in
                #expect(try await LoginFailures.read(.person(tenant.alex), in: tx).failures == 4)
            }
            try await app.transaction(settings: tenant.samContext.settings) { tx throws in
                #expect(try await LoginFailures.read(.person(tenant.alex), in: tx).failures == 0)
                #expect(try await tx.execute("delete from login_failures") == 0)
            }
            #expect(try await asLogin(app, tenant, tenant.samUsername) { tx in try await LoginFailures.read(.person(tenant.alex), in: tx) }.failures == 0)
            // A LOGIN for Alex's name cannot count on Sam.
            await expectRefusal(insufficientPrivilege, app, .login(tenantID: tenant.id, loginName: "alex")) { tx in
                try await LoginFailures.recordFailure(.person(tenant.sam), in: tx)
            }
            // A success forgets only its own.
            try await asLogin(app, tenant, "alex") { tx in
                try await LoginFailures.reset(.person(tenant.alex), in: tx)
                let after = try await LoginFailures.read(.person(tenant.alex), in: tx)
                #expect(after.failures == 0)
                #expect(after.lastFailureAt == nil)
            }
            let stranger = try await asLogin(app, tenant, "NOBODY-has-this-name") { tx in try await LoginFailures.read(.loginName, in: tx) }
            #expect(stranger.failures == 4)
            // Counts are per tenant.
            let other = try await AccountsTenant(app: app, owner: owner)
            let elsewhere = try await app.transaction(
                settings: AccountContext.login(tenantID: other.id, loginName: "nobody-has-this-name").settings
            ) { tx in try await LoginFailures.read(.loginName, in: tx) }
            #expect(elsewhere.failures == 0)
        }
    }
}
