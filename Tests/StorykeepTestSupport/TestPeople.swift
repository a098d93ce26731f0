import Foundation
import GraphQL
import Postgres
import StorykeepAccounts
import StorykeepCore
import Testing

/// Someone made for a test over HTTP: created by the tenant's operator, then activated with their
/// code, which began a session.
public struct TestPerson: Sendable {
    public let id: UUID
    /// What they log in with: a young person's username, an adult's email.
    public let loginName: String
    public let password: String
    /// The session their activation began.
    public let token: String

    /// Their id as GraphQL sends it.
    public var idValue: GraphQLValue { .string(id.uuidString.lowercased()) }
}

extension AccountsHarness {
    /// A person of `role` in `tenant` (the first by default), activated: see
    /// ``TestTenant/newPerson(_:_:displayName:loginName:)`` for the names, and their password is
    /// `password` or `<name> likes long passwords`.
    public func person(
        _ role: PersonRole, _ name: String, displayName: String? = nil, loginName: String? = nil, password: String? = nil,
        tenant: TestTenant? = nil
    ) async throws -> TestPerson {
        let new = (tenant ?? self.tenant).newPerson(role, name, displayName: displayName, loginName: loginName)
        let password = password ?? "\(name) likes long passwords"
        let issued = try await createAsOperator(new, tenant: tenant)
        let token = try await activate(issued.code.displayText, password: password, tenant: tenant)
        return TestPerson(
            id: issued.person.id, loginName: try #require(new.username ?? new.email), password: password, token: token)
    }

    /// A young person, activated: their token and id.
    public func youngPerson(_ name: String, tenant: TestTenant? = nil) async throws -> (token: String, id: UUID) {
        let person = try await person(.youngPerson, name, tenant: tenant)
        return (person.token, person.id)
    }

    /// A tenant's admin (Ada unless named: `ada@<slug>.example`), added by the operator and
    /// activated with the password `admin password 1`: their token.
    public func admin(_ name: String = "Ada", tenant: TestTenant? = nil) async throws -> String {
        try await person(.agencyAdmin, name.lowercased(), displayName: name, password: "admin password 1", tenant: tenant).token
    }

    /// A person made as `storykeep user create` makes them (the tenant's operator), and their code.
    public func createAsOperator(_ person: NewPerson, tenant: TestTenant? = nil) async throws -> IssuedActivation {
        let id = (tenant ?? self.tenant).id
        return try await app.transaction(settings: AccountContext.tenantOperator(tenantID: id).settings) { tx in
            try await PeopleAdmin.create(person, in: tx)
        }
    }

    /// Activates with `code` over HTTP and returns the session token.
    public func activate(_ code: String, password: String, username: String? = nil, tenant: TestTenant? = nil) async throws -> String {
        let response = try await graphQL(
            "mutation($c: String!, $u: String, $p: String!) { activateAccount(code: $c, username: $u, password: $p) { token } }",
            ["c": .string(code), "u": username.map(GraphQLValue.string) ?? .null, "p": .string(password)], tenant: tenant)
        return try #require(response["data"]?["activateAccount"]?["token"]?.stringValue, "\(response.json)")
    }

    /// Logs in over HTTP: the whole response.
    public func login(_ username: String, _ password: String, tenant: TestTenant? = nil) async throws -> GraphQLValue {
        try await graphQL(
            "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token expiresAt person { id } } }",
            ["u": .string(username), "p": .string(password)], tenant: tenant)
    }

    /// Logs `person` in again with their password: the new session's token.
    public func logIn(_ person: TestPerson, tenant: TestTenant? = nil) async throws -> String {
        let response = try await login(person.loginName, person.password, tenant: tenant)
        return try #require(response["data"]?["login"]?["token"]?.stringValue, "\(response.json)")
    }
}
