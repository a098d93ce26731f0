import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Who may do what through the tenant endpoint, tried by breaking it (issue 4), and what the
// database keeps of secrets.

@Suite("Accounts over HTTP: authorisation and secrets")
struct AccountsSecurityTests {
    static let adminOperations = [
        "{ people { edges { cursor } } }",
        "mutation { createPerson(input: {role: YOUNG_PERSON, displayName: \"X\", username: \"xxx-yyy\"}) { activationCode } }",
        "mutation { issueActivationCode(personId: \"00000000-0000-0000-0000-000000000000\") { activationCode } }",
        "mutation { disablePerson(personId: \"00000000-0000-0000-0000-000000000000\") { id } }",
        "{ passwordResetRequests { id } }",
        "mutation { requestPasswordReset(personId: \"00000000-0000-0000-0000-000000000000\", reason: \"x\") { id } }",
        "mutation { approvePasswordReset(requestId: \"00000000-0000-0000-0000-000000000000\") { activationCode } }",
        "mutation { refusePasswordReset(requestId: \"00000000-0000-0000-0000-000000000000\") { id } }",
    ]

    @Test func aTokenOfOneTenantIsRefusedAtAnother() async throws {
        try await withAccounts(tenants: 2) { h in
            let token = try await h.admin(tenant: h.tenants[0])
            let here = try await h.graphQL("{ me { role } }", token: token, tenant: h.tenants[0])
            #expect(here["data"]?["me"]?["role"] == .string("AGENCY_ADMIN"))
            for query in ["{ me { role } }"] + Self.adminOperations {
                let there = try await h.graphQL(query, token: token, tenant: h.tenants[1])
                #expect(there.errorCode == "UNAUTHENTICATED", "\(query): \(there.json)")
            }
        }
    }

    @Test func aYoungPersonCannotCallAdminOperations() async throws {
        try await withAccounts { h in
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-young"))
            let token = try await h.activate(issued.code.displayText, password: "a long enough password")
            for query in Self.adminOperations {
                let response = try await h.graphQL(query, token: token)
                #expect(response.errorCode == "FORBIDDEN", "\(query): \(response.json)")
            }
            // Nothing was created by the refused createPerson.
            let admin = try await h.admin()
            let people = try await h.graphQL("{ people { edges { node { displayName } } } }", token: admin)
            let names = people["data"]?["people"]?["edges"]?.listValue?.compactMap { $0["node"]?["displayName"]?.stringValue }
            #expect(names?.sorted() == ["Ada", "Sam"])
        }
    }

    @Test func anonymousRequestsReachOnlyLoginActivationMeAndIntrospection() async throws {
        try await withAccounts { h in
            for query in Self.adminOperations + [
                "mutation { logout }", "mutation { logoutEverywhere }", "mutation { acceptTerms(version: \"3\") { id } }",
                "mutation { changePassword(currentPassword: \"a\", newPassword: \"bbbbbbbbbbbb\") }",
            ] {
                let response = try await h.graphQL(query)
                #expect(response.errorCode == "UNAUTHENTICATED", "\(query): \(response.json)")
            }
            #expect(try await h.graphQL("{ me { id } }") == .object(["data": .object(["me": .null])]))
            let schema = try await h.graphQL("{ __schema { mutationType { name } } __type(name: \"Person\") { name } }")
            #expect(schema["data"]?["__schema"]?["mutationType"]?["name"] == .string("Mutation"))
            #expect(schema["data"]?["__type"]?["name"] == .string("Person"))
            // A document past the token limit is refused before validation.
            let huge = try await h.graphQL("{ " + String(repeating: "__typename ", count: TenantSchemas.maxTokens) + "}")
            #expect(huge["data"] == nil)
            #expect(huge.errorMessage?.contains("tokens") == true, "\(huge.json)")
            // A token that is not one (or no longer one) is refused, rather than taken as nobody.
            for token in ["not-a-token", String(repeating: "A", count: 43)] {
                #expect(try await h.graphQL("{ me { id } }", token: token).errorCode == "UNAUTHENTICATED")
            }
        }
    }

    @Test func aFailedMutationChangesNothing() async throws {
        try await withAccounts { h in
            let admin = try await h.admin()
            // The second person takes the first one's username: the whole request is undone.
            let response = try await h.graphQL(
                """
                mutation {
                  a: createPerson(input: {role: YOUNG_PERSON, displayName: "First", username: "same-name"}) { activationCode }
                  b: createPerson(input: {role: YOUNG_PERSON, displayName: "Second", username: "SAME-NAME"}) { activationCode }
                }
                """, token: admin)
            #expect(response.errorCode == "BAD_USER_INPUT", "\(response.json)")
            #expect(response.errorExtensions?["field"] == .string("input.username"))
            // `a` ran (and was undone); `b` failed, and its non-null payload made `data` null.
            #expect(response["data"] == .null)
            let people = try await h.graphQL("{ people(role: YOUNG_PERSON) { edges { node { displayName } } } }", token: admin)
            #expect(people["data"]?["people"]?["edges"] == .list([]), "\(people.json)")
            // Adults need an email; the error names the field.
            let adult = try await h.graphQL("mutation { createPerson(input: {role: CARER, displayName: \"Carer\"}) { activationCode } }", token: admin)
            #expect(adult.errorExtensions?["field"] == .string("input.email"))
        }
    }

    @Test func storedRowsHoldNoTokenPasswordOrCode() async throws {
        try await withAccounts { h in
            let password = "correct horse battery"
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-secret"))
            let code = issued.code
            let first = try await h.activate(code.displayText, password: password)
            let second = try #require(try await h.login("sam-secret", password)["data"]?["login"]?["token"]?.stringValue)
            let secrets = [first, second, password, code.canonical, code.displayText]

            // Read as the owner role, in the contexts that see the rows (row-level security binds
            // the owner too): the person for credentials and sessions, the tenant's admin for the rest.
            let person = AccountContext.person(tenantID: h.tenant.id, personID: issued.person.id, role: .youngPerson)
            let admin = AccountContext.tenantOperator(tenantID: h.tenant.id)
            var rows: [String] = []
            for (table, context) in [("credentials", person), ("sessions", person), ("activation_codes", admin), ("people", admin)] {
                rows += try await h.owner.transaction(settings: context.settings) { tx in
                    try await tx.query("select row_to_json(t)::text from \(table) t where tenant_id = current_tenant_id()")
                        .map { try $0.decode(String.self, at: 0) }
                }
            }
            #expect(rows.count >= 5)
            for secret in secrets {
                #expect(!rows.contains { $0.contains(secret) }, "a stored row holds a secret")
            }
            // What is there instead: an Argon2id hash, and the tokens' SHA-256.
            let stored = try await h.owner.transaction(settings: person.settings) { tx in
                (
                    try await tx.query("select password_hash from credentials").map { try $0.decode(String.self, at: 0) },
                    try await tx.query("select token_hash from sessions").map { try $0.decode([UInt8].self, at: 0) }
                )
            }
            #expect(stored.0.count == 1 && stored.0[0].hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
            let hashes = try [first, second].map { try #require(SessionToken(presented: $0)).storageHash }
            #expect(Set(stored.1) == Set(hashes))
        }
    }

    @Test func aLoginRehashesAPasswordStoredWithWeakerParameters() async throws {
        let stronger = Argon2Parameters(memoryKiB: 19_456, iterations: 3, parallelism: 1)
        try await withAccounts(argon2: stronger) { h in
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-rehash"))
            _ = try await h.activate(issued.code.displayText, password: "an older password")
            // As if stored before the cost rose: a hash at the floor.
            let person = AccountContext.person(tenantID: h.tenant.id, personID: issued.person.id, role: .youngPerson)
            let weak = try await PasswordHasher(pool: h.argon2).hash("an older password")
            let storedHash = { @Sendable in
                try await h.app.transaction(settings: person.settings) { tx in
                    try await tx.query("select password_hash from credentials").first?.decode(String.self, at: 0)
                }
            }
            try await h.app.transaction(settings: person.settings) { tx in
                _ = try await tx.execute("update credentials set password_hash = $1", weak)
            }
            #expect(try await storedHash()?.contains("t=2,") == true)
            #expect(try await h.login("sam-rehash", "an older password")["data"]?["login"]?["token"] != nil)
            let rehashed = try #require(try await storedHash())
            #expect(rehashed.hasPrefix("$argon2id$v=19$m=19456,t=3,p=1$"))
            #expect(try await h.login("sam-rehash", "an older password")["data"]?["login"]?["token"] != nil)
        }
    }
}
