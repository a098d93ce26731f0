import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// A forgotten password, sessions that expire and slide (issue 4).

@Suite("Accounts over HTTP: recovery and session expiry")
struct AccountsRecoveryTests {
    @Test func aForgottenPasswordIsResetWithANewCode() async throws {
        try await withAccounts { h in
            let admin = try await h.admin()
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-first"))
            // Sam chooses a username of their own when activating.
            let old = try await h.activate(issued.code.displayText, password: "first password 1", username: "sam-forgets")
            #expect(try await h.graphQL("{ me { username } }", token: old)["data"]?["me"]?["username"] == .string("sam-forgets"))
            // Sam forgets it and gets locked out trying.
            for _ in 1...3 { _ = try await h.login("sam-forgets", "was it this one") }
            #expect(try await h.login("sam-forgets", "first password 1").errorCode == "LOCKED_OUT")

            // Sam has a password: one admin asks for a reset, another approves it and gets the code.
            let requested = try await h.graphQL(
                "mutation($id: ID!) { requestPasswordReset(personId: $id, reason: \"Sam forgot it\") { id } }",
                ["id": .string(issued.person.id.uuidString)], token: admin)
            let requestID = try #require(requested["data"]?["requestPasswordReset"]?["id"]?.stringValue, "\(requested.json)")
            let approved = try await h.graphQL(
                "mutation($id: ID!) { approvePasswordReset(requestId: $id) { activationCode person { username } } }",
                ["id": .string(requestID)], token: try await h.admin("Bea"))
            let code = try #require(approved["data"]?["approvePasswordReset"]?["activationCode"]?.stringValue, "\(approved.json)")
            #expect(approved["data"]?["approvePasswordReset"]?["person"]?["username"] == .string("sam-forgets"))
            #expect(code != issued.code.displayText)

            // The policy: at least 10 characters, at most 256 bytes.
            for (password, what) in [("short", "too short"), (String(repeating: "é", count: 129), "258 bytes")] {
                let refused = try await h.graphQL(
                    "mutation($c: String!, $p: String!) { activateAccount(code: $c, password: $p) { token } }",
                    ["c": .string(code), "p": .string(password)])
                #expect(refused.errorExtensions?["field"] == .string("password"), "\(what)")
            }
            // The old sessions end, and the lockout is forgotten: no waiting for the new password.
            let new = try await h.activate(code, password: "second password 2")
            #expect(try await h.graphQL("{ me { id } }", token: old).errorCode == "UNAUTHENTICATED")
            #expect(try await h.graphQL("{ me { username } }", token: new)["data"]?["me"]?["username"] == .string("sam-forgets"))
            let login = try await h.login("sam-forgets", "second password 2")
            #expect(login["data"]?["login"]?["token"]?.stringValue != nil, "\(login.json)")
            // The first code no longer works.
            let spent = try await h.graphQL(
                "mutation($c: String!) { activateAccount(code: $c, password: \"third password 3\") { token } }",
                ["c": .string(issued.code.displayText)])
            #expect(spent.errorExtensions?["field"] == .string("code"))
        }
    }

    @Test func anExpiredCodeIsRefused() async throws {
        try await withAccounts { h in
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-late"))
            try await h.app.transaction(settings: AccountContext.tenantOperator(tenantID: h.tenant.id).settings) { tx in
                _ = try await tx.execute(
                    "update activation_codes set expires_at = created_at + interval '1 millisecond' where person_id = $1", issued.person.id)
            }
            let late = try await h.graphQL(
                "mutation($c: String!) { activateAccount(code: $c, password: \"a good password\") { token } }",
                ["c": .string(issued.code.displayText)])
            #expect(late.errorCode == "BAD_USER_INPUT")
            #expect(late.errorExtensions?["field"] == .string("code"))
        }
    }

    @Test func anExpiredSessionIsRefusedAndUseSlidesExpiry() async throws {
        try await withAccounts { h in
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-sessions"))
            let token = try await h.activate(issued.code.displayText, password: "a fine password")
            let hash = try #require(SessionToken(presented: token)).storageHash
            let person = AccountContext.person(tenantID: h.tenant.id, personID: issued.person.id, role: .youngPerson)
            func session(_ sql: String) async throws -> Date {
                try await h.app.transaction(settings: person.settings) { tx in
                    try await tx.query(sql + " returning expires_at", hash)[0].decode(Date.self, at: 0)
                }
            }
            // Unused for two minutes: the next request slides the expiry forward.
            let before = try await session(
                "update sessions set last_used_at = now() - interval '2 minutes', expires_at = now() + interval '1 minute' where token_hash = $1")
            #expect(try await h.graphQL("{ me { id } }", token: token)["data"]?["me"] != .null)
            let after = try await session("update sessions set last_used_at = last_used_at where token_hash = $1")
            #expect(after.timeIntervalSince(before) > 8 * 60)
            // Past its expiry, the token is refused.
            _ = try await session("update sessions set expires_at = now() - interval '1 second' where token_hash = $1")
            #expect(try await h.graphQL("{ me { id } }", token: token).errorCode == "UNAUTHENTICATED")
        }
    }
}
