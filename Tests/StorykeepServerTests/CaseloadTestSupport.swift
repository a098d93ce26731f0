import Foundation
import GraphQL
import Storykeep
import Testing

/// What the caseload's and the notifications' tests over HTTP share: adults made and logged in as
/// an agency makes them, and assignments made by an admin over HTTP.
enum CaseloadHTTP {
    /// The fields of an `Assignment` the tests read back.
    static let assignmentFields = """
        id relationship since until current
        youngPerson { id role displayName avatar } adult { id role displayName avatar }
        assignedBy { id } endedBy { id }
        """
    static let assignAdult = """
        mutation($y: ID!, $a: ID!, $r: AssignmentRelationship!) {
          assignAdult(youngPersonId: $y, adultId: $a, relationship: $r) { \(assignmentFields) }
        }
        """
    static let endAssignment = "mutation($id: ID!) { endAssignment(assignmentId: $id) { \(assignmentFields) } }"
    static let assignments = "query($y: ID!) { assignments(youngPersonId: $y) { \(assignmentFields) } }"
    static let myTeam = "{ myTeam { id displayName avatar role relationship since } }"
    static let myYoungPeople = "{ myYoungPeople { youngPerson { id role displayName avatar } relationship since } }"
}

/// `strings` as GraphQL strings, to compare with fields read from a list of objects.
func values(_ strings: String...) -> [GraphQLValue?] {
    strings.map { .string($0) }
}

/// A person of the test: their session's token and their id.
struct TestPerson: Sendable {
    let token: String
    let id: UUID
    var idValue: GraphQLValue { .string(id.uuidString.lowercased()) }
}

extension AccountsHarness {
    /// An adult of `role` (a carer, a social worker, an admin) named `name`, created by the
    /// tenant's operator and activated.
    func adult(_ role: PersonRole, _ name: String, tenant: TestTenant? = nil) async throws -> TestPerson {
        let slug = (tenant ?? self.tenant).slug
        let issued = try await createAsOperator(
            NewPerson(role: role, displayName: name, email: "\(name.lowercased().filter(\.isLetter))@\(slug).example"), tenant: tenant)
        let token = try await activate(issued.code.displayText, password: "\(name) has a long password", tenant: tenant)
        return TestPerson(token: token, id: issued.person.id)
    }

    /// A young person (see `youngPerson(_:tenant:)`), as a ``TestPerson``.
    func young(_ name: String, tenant: TestTenant? = nil) async throws -> TestPerson {
        let (token, id) = try await youngPerson(name, tenant: tenant)
        return TestPerson(token: token, id: id)
    }

    /// `assignAdult` as `admin` (of `tenant`, by default the first): the whole response.
    func assignAdult(
        _ youngPerson: GraphQLValue, _ adult: GraphQLValue, _ relationship: String, admin: TestPerson, tenant: TestTenant? = nil
    ) async throws -> GraphQLValue {
        try await graphQL(
            CaseloadHTTP.assignAdult, ["y": youngPerson, "a": adult, "r": .string(relationship)], token: admin.token, tenant: tenant)
    }

    /// Assigns `adult` to `youngPerson` as `admin`, which must succeed: the `Assignment`.
    @discardableResult
    func assign(
        _ youngPerson: TestPerson, _ adult: TestPerson, _ relationship: String, admin: TestPerson, tenant: TestTenant? = nil
    ) async throws -> GraphQLValue {
        let response = try await assignAdult(youngPerson.idValue, adult.idValue, relationship, admin: admin, tenant: tenant)
        return try #require(response["data"]?["assignAdult"], "\(response.json)")
    }

    /// One root field's data as `person`, which must answer without errors.
    func data(_ query: String, _ field: String, _ variables: GraphQLObject = [:], as person: TestPerson) async throws -> GraphQLValue {
        let response = try await graphQL(query, variables, token: person.token)
        #expect(response["errors"] == nil, "\(response.json)")
        return try #require(response["data"]?[field], "\(response.json)")
    }
}
