import Foundation
import GraphQL
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

// Failed logins over HTTP (issues 4 and 16): counted per person whichever of their names was typed,
// and per name for names nobody has; from the 3rd failure each attempt waits 2^n s; a locked
// attempt is refused unjudged, also in a burst of concurrent attempts from the first.
// The server's clock is the harness's TestClock: the tests move it, they never sleep.

@Suite("Accounts over HTTP: lockout")
struct AccountsLockoutHTTPTests {
    @Test func threeFailuresThenBackOffForAnExistingAccount() async throws {
        try await withAccounts { h in
            _ = try await h.admin()
            let name = "ada@\(h.tenant.slug).example"
            let right = "admin password 1"
            for attempt in 1...3 {
                let failed = try await h.login(name, "wrong password \(attempt)")
                #expect(failed.errorCode == "UNAUTHENTICATED")
                #expect(failed.errorMessage == "That username or password is not right.")
                // The 3rd failure says how long the next attempt must wait.
                #expect(failed.errorExtensions?["retryAfterSeconds"] == (attempt == 3 ? .int(2) : nil))
            }
            // Locked for 2 s from the 3rd failure, even with the right password.
            var locked = try await h.login(name, right)
            #expect(locked.errorCode == "LOCKED_OUT")
            #expect(locked.errorExtensions?["retryAfterSeconds"] == .int(2))
            #expect(locked["data"]?["login"] == nil || locked["data"] == .null)
            h.clock.advance(seconds: 1.2)
            locked = try await h.login(name, right)
            #expect(locked.errorExtensions?["retryAfterSeconds"] == .int(1))
            // Once the wait is over, the right password works and forgets the failures.
            h.clock.advance(seconds: 0.8)
            let success = try await h.login(name, right)
            #expect(success["data"]?["login"]?["token"]?.stringValue != nil, "\(success.json)")
            for _ in 1...2 {
                #expect(try await h.login(name, "wrong again").errorExtensions?["retryAfterSeconds"] == nil)
            }
        }
    }

    @Test func theSameBackOffForANameNobodyHas() async throws {
        try await withAccounts { h in
            let name = "nobody-\(h.tenant.slug.suffix(8))"
            var messages: Set<String> = []
            for _ in 1...3 {
                let failed = try await h.login(name, "some password")
                #expect(failed.errorCode == "UNAUTHENTICATED")
                messages.insert(failed.errorMessage ?? "")
            }
            #expect(messages == ["That username or password is not right."])
            #expect(try await h.login(name, "some password").errorExtensions?["retryAfterSeconds"] == .int(2))
            h.clock.advance(seconds: 2)
            // The 4th failure doubles the wait; the count is per name, in any case and spacing.
            let fourth = try await h.login(" \(name.uppercased()) ", "some password")
            #expect(fourth.errorCode == "UNAUTHENTICATED")
            #expect(fourth.errorExtensions?["retryAfterSeconds"] == .int(4))
            let locked = try await h.login(name, "some password")
            #expect(locked.errorCode == "LOCKED_OUT")
            #expect(locked.errorExtensions?["retryAfterSeconds"] == .int(4))
            // Another name is not locked.
            #expect(try await h.login("someone-else", "x").errorCode == "UNAUTHENTICATED")
        }
    }

    // An attempt that needed a hash would wait for the occupied thread until the time limit. The
    // limit is wall time, and the whole suite runs at once on two cores, where one test may wait
    // minutes for its turn: five, not one, so that only the hang fails it.
    @Test(.timeLimit(.minutes(5))) func aLockedAttemptRunsNoArgon2() async throws {
        try await withAccounts { h in
            let name = "nobody-\(h.tenant.slug.suffix(8))"
            for _ in 1...3 { _ = try await h.login(name, "wrong") }
            // Occupy the only Argon2 thread: an attempt that needed a hash would wait for it.
            let release = DispatchSemaphore(value: 0)
            let occupied = Task { try await h.argon2.run { release.wait() } }
            defer { release.signal() }
            let locked = try await h.login(name, "wrong")
            #expect(locked.errorCode == "LOCKED_OUT")
            release.signal()
            try await occupied.value
        }
    }

    @Test func wrongCurrentPasswordsInChangePasswordBackOffToo() async throws {
        try await withAccounts { h in
            let token = try await h.admin()
            let change = "mutation($c: String!) { changePassword(currentPassword: $c, newPassword: \"a brand new password\") }"
            for _ in 1...3 {
                let wrong = try await h.graphQL(change, ["c": .string("guess")], token: token)
                #expect(wrong.errorExtensions?["field"] == .string("currentPassword"))
            }
            // Locked for the name, for changing the password and for logging in alike.
            let locked = try await h.graphQL(change, ["c": .string("admin password 1")], token: token)
            #expect(locked.errorCode == "LOCKED_OUT")
            #expect(locked.errorExtensions?["retryAfterSeconds"] == .int(2))
            #expect(try await h.login("ada@\(h.tenant.slug).example", "admin password 1").errorCode == "LOCKED_OUT")
            h.clock.advance(seconds: 2)
            #expect(try await h.graphQL(change, ["c": .string("admin password 1")], token: token)["data"]?["changePassword"] == .bool(true))
        }
    }

    @Test func aPersonsUsernameAndEmailShareOneCount() async throws {
        try await withAccounts { h in
            let email = "Sam.Both@\(h.tenant.slug).example"
            let issued = try await h.createAsOperator(
                NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-both", email: email.lowercased()))
            let right = "the right password"
            _ = try await h.activate(issued.code.displayText, password: right)
            // Two free failures, one by each name; the third, by either, is the person's third.
            #expect(try await h.login("sam-both", "wrong 1").errorExtensions?["retryAfterSeconds"] == nil)
            #expect(try await h.login(email, "wrong 2").errorExtensions?["retryAfterSeconds"] == nil)
            let third = try await h.login("SAM-BOTH", "wrong 3")
            #expect(third.errorCode == "UNAUTHENTICATED")
            #expect(third.errorExtensions?["retryAfterSeconds"] == .int(2))
            // Locked by both names, the right password too.
            for name in ["sam-both", email] {
                let locked = try await h.login(name, right)
                #expect(locked.errorCode == "LOCKED_OUT", "\(name)")
                #expect(locked.errorExtensions?["retryAfterSeconds"] == .int(2))
            }
            // A fourth failure by the email doubles the wait for the username as well.
            h.clock.advance(seconds: 2)
            #expect(try await h.login(email, "wrong 4").errorExtensions?["retryAfterSeconds"] == .int(4))
            #expect(try await h.login("sam-both", right).errorExtensions?["retryAfterSeconds"] == .int(4))
            // A success by one name forgets the failures of both.
            h.clock.advance(seconds: 4)
            #expect(try await h.login(email, right)["data"]?["login"]?["token"]?.stringValue != nil)
            for name in ["sam-both", email] {
                #expect(try await h.login(name, "wrong again").errorExtensions?["retryAfterSeconds"] == nil, "\(name)")
            }
        }
    }

    @Test func aBurstOfGuessesFromTheFirstIsJudgedInTurn() async throws {
        // Four logins at once in their first transaction, as many as the pool has connections: the
        // attempts meet in the database, not at the server's gate.
        try await withAccounts(loginPermits: 4) { h in
            let tenant = Tenant(id: h.tenant.id, enabled: true, file: h.tenant.file)
            let free = h.tenant.file.lockout.freeAttempts
            let email = "sam.burst@\(h.tenant.slug).example"
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-burst", email: email))
            _ = try await h.activate(issued.code.displayText, password: "the right password")
            // A name nobody has; and one person, through both of their names at once.
            for names in [["burst-\(h.tenant.slug.suffix(8))"], ["sam-burst", email]] {
                // Every connection of the pool open beforehand, so that none of the attempts waits for one.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 1...4 { group.addTask { try await h.app.transaction { _ = try await $0.query("select pg_sleep(0.05)") } } }
                    try await group.waitForAll()
                }
                // Twelve at once from the first (straight to the engine: the test client sends one
                // request at a time): the free attempts and one more are judged, the others are locked.
                let codes = await withTaskGroup(of: String?.self) { group in
                    for index in 0..<12 {
                        group.addTask {
                            // One document for all (parsed and validated once), so they start together.
                            let request = GraphQLRequest(
                                query: "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }",
                                variables: ["u": .string(names[index % names.count]), "p": .string("guess \(index)")])
                            guard case .response(let response) = await h.engine.execute(request, tenant: tenant, credential: .none, links: TenantLinks(root: "/")) else {
                                return nil
                            }
                            return response.errors.first?.extensions?["code"]?.stringValue
                        }
                    }
                    return await group.reduce(into: [String?]()) { $0.append($1) }
                }
                #expect(codes.filter { $0 == "UNAUTHENTICATED" }.count == free + 1, "\(names): \(codes)")
                #expect(codes.filter { $0 == "LOCKED_OUT" }.count == 12 - free - 1, "\(names): \(codes)")
            }
        }
    }
}
