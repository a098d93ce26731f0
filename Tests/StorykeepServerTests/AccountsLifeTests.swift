import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 4 over HTTP, end to end: real PostgreSQL, real Argon2, the tenant endpoint
// /t/<slug>/graphql as `storykeep serve` mounts it.

@Suite("Accounts over HTTP: the life of an account")
struct AccountsLifeTests {
    static let me = "{ me { id role username displayName disabled mustAcceptTerms termsVersionAccepted } }"

    @Test func createActivateLoginChangePasswordLogoutDisable() async throws {
        try await withAccounts { h in
            let admin = try await h.admin()
            var me = try await h.graphQL(Self.me, token: admin)
            #expect(me["data"]?["me"]?["role"] == .string("AGENCY_ADMIN"))
            #expect(me["data"]?["me"]?["mustAcceptTerms"] == .bool(true))
            let accepted = try await h.graphQL("mutation { acceptTerms(version: \"3\") { mustAcceptTerms termsVersionAccepted } }", token: admin)
            #expect(accepted["data"]?["acceptTerms"] == .object(["mustAcceptTerms": .bool(false), "termsVersionAccepted": .string("3")]))
            let wrongTerms = try await h.graphQL("mutation { acceptTerms(version: \"2\") { id } }", token: admin)
            #expect(wrongTerms.errorCode == "BAD_USER_INPUT")
            #expect(wrongTerms.errorExtensions?["field"] == .string("version"))

            // The admin adds a young person; the code is shown once.
            let created = try await h.graphQL(
                """
                mutation { createPerson(input: {role: YOUNG_PERSON, displayName: "Sam", username: "sam-\(h.tenant.slug.suffix(8))"}) {
                  person { id role username disabled } activationCode activationCodeExpiresAt } }
                """, token: admin)
            let payload = try #require(created["data"]?["createPerson"], "\(created.json)")
            let samID = try #require(payload["person"]?["id"]?.stringValue)
            let code = try #require(payload["activationCode"]?.stringValue)
            #expect(code.count == 14)
            let username = "Sam-\(h.tenant.slug.suffix(8))"

            // Sam activates (typing the code in lower case, without hyphens) and is logged in.
            let first = try await h.activate(code.lowercased().replacingOccurrences(of: "-", with: ""), password: "purple elephant 42")
            me = try await h.graphQL(Self.me, token: first)
            #expect(me["data"]?["me"]?["id"]?.stringValue == samID)
            #expect(me["data"]?["me"]?["role"] == .string("YOUNG_PERSON"))
            #expect(me["data"]?["me"]?["mustAcceptTerms"] == .bool(true))
            // The code is spent.
            let again = try await h.graphQL(
                "mutation($c: String!) { activateAccount(code: $c, password: \"another password\") { token } }", ["c": .string(code)])
            #expect(again.errorCode == "BAD_USER_INPUT")
            #expect(again.errorExtensions?["field"] == .string("code"))

            // Log in by username, in any case; then change the password from that session.
            let login = try await h.login(username.uppercased(), "purple elephant 42")
            let second = try #require(login["data"]?["login"]?["token"]?.stringValue, "\(login.json)")
            #expect(login["data"]?["login"]?["person"]?["id"]?.stringValue == samID)
            let tooShort = try await h.graphQL(
                "mutation { changePassword(currentPassword: \"purple elephant 42\", newPassword: \"short\") }", token: second)
            #expect(tooShort.errorCode == "BAD_USER_INPUT")
            #expect(tooShort.errorExtensions?["field"] == .string("newPassword"))
            let wrongCurrent = try await h.graphQL(
                "mutation { changePassword(currentPassword: \"not my password\", newPassword: \"green giraffe 77\") }", token: second)
            #expect(wrongCurrent.errorExtensions?["field"] == .string("currentPassword"))
            let changed = try await h.graphQL(
                "mutation { changePassword(currentPassword: \"purple elephant 42\", newPassword: \"green giraffe 77\") }", token: second)
            #expect(changed["data"]?["changePassword"] == .bool(true), "\(changed.json)")

            // The other session ended; this one goes on; the old password no longer works.
            #expect(try await h.graphQL(Self.me, token: first).errorCode == "UNAUTHENTICATED")
            #expect(try await h.graphQL(Self.me, token: second)["data"]?["me"]?["id"]?.stringValue == samID)
            #expect(try await h.login(username, "purple elephant 42").errorCode == "UNAUTHENTICATED")
            let third = try #require(try await h.login(username, "green giraffe 77")["data"]?["login"]?["token"]?.stringValue)

            // Logout ends that session only.
            #expect(try await h.graphQL("mutation { logout }", token: third)["data"]?["logout"] == .bool(true))
            #expect(try await h.graphQL(Self.me, token: third).errorCode == "UNAUTHENTICATED")
            #expect(try await h.graphQL(Self.me, token: second)["data"]?["me"]?["id"]?.stringValue == samID)

            // Disabled: the live session is refused at once, and so is the right password.
            let disabled = try await h.graphQL("mutation($id: ID!) { disablePerson(personId: $id) { disabled } }", ["id": .string(samID)], token: admin)
            #expect(disabled["data"]?["disablePerson"]?["disabled"] == .bool(true), "\(disabled.json)")
            #expect(try await h.graphQL(Self.me, token: second).errorCode == "UNAUTHENTICATED")
            #expect(try await h.login(username, "green giraffe 77").errorCode == "UNAUTHENTICATED")

            // The admin sees Sam, switched off, in the list of young people.
            let people = try await h.graphQL(
                "{ people(role: YOUNG_PERSON, first: 10) { edges { node { id disabled } } pageInfo { hasNextPage } } }", token: admin)
            #expect(people["data"]?["people"]?["edges"] == .list([.object(["node": .object(["id": .string(samID), "disabled": .bool(true)])])]))
        }
    }

    @Test func logoutEverywhereEndsEverySession() async throws {
        try await withAccounts { h in
            let first = try await h.admin()
            let second = try #require(try await h.login("ADA@\(h.tenant.slug).example", "admin password 1")["data"]?["login"]?["token"]?.stringValue)
            #expect(try await h.graphQL("mutation { logoutEverywhere }", token: second)["data"]?["logoutEverywhere"] == .bool(true))
            for token in [first, second] {
                let me = try await h.graphQL(Self.me, token: token)
                #expect(me.errorCode == "UNAUTHENTICATED")
                #expect(me["data"]?["me"] == .null)
            }
        }
    }

    @Test func peopleArePagedWithCursors() async throws {
        try await withAccounts { h in
            let admin = try await h.admin()
            for index in 1...3 {
                _ = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Kid \(index)", username: "kid-\(index)"))
            }
            var names: [String] = []
            var after: GraphQLValue = .null
            for _ in 1...3 {
                let page = try await h.graphQL(
                    "query($a: String) { people(role: YOUNG_PERSON, first: 2, after: $a) { edges { node { username } } pageInfo { hasNextPage endCursor } } }",
                    ["a": after], token: admin)
                let connection = try #require(page["data"]?["people"], "\(page.json)")
                names += connection["edges"]?.listValue?.compactMap { $0["node"]?["username"]?.stringValue } ?? []
                after = connection["pageInfo"]?["endCursor"] ?? .null
                if connection["pageInfo"]?["hasNextPage"] == .bool(false) { break }
            }
            #expect(names == ["kid-1", "kid-2", "kid-3"])
            let bad = try await h.graphQL("{ people(first: 500) { edges { cursor } } }", token: admin)
            #expect(bad.errorExtensions?["field"] == .string("first"))
        }
    }
}
