import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepCore
import Testing

// Assignments made for tests (Migrations/0010_caseload.sql), for any module whose tests need an
// adult to look after a young person: at the database, as the domain makes them, and over HTTP,
// as an agency admin does.

extension TestPools {
    /// Assigns `adult` to `youngPerson` as `relationship` in `admin`'s context (an agency admin's,
    /// or the tenant's operator's), through `AssignmentAdmin` and the policies: the assignment.
    /// Nothing is published or notified, as no resolver runs.
    @discardableResult
    public func assign(
        _ youngPerson: UUID, _ adult: UUID, _ relationship: AssignmentRelationship, by admin: AccountContext
    ) async throws -> Assignment {
        try await asPerson(admin) { tx in
            try await AssignmentAdmin.assign(youngPersonID: youngPerson, adultID: adult, relationship: relationship, in: tx)
        }
    }

    /// Ends the assignment `id` in `admin`'s context, as ``assign(_:_:_:by:)`` made it: the
    /// assignment, ended.
    @discardableResult
    public func endAssignment(_ id: UUID, by admin: AccountContext) async throws -> Assignment {
        try await asPerson(admin) { tx in try await AssignmentAdmin.end(assignmentID: id, in: tx) }
    }
}

/// The caseload's operations as an app sends them.
public enum CaseloadHTTP {
    /// The fields of an `Assignment` the tests read back.
    public static let assignmentFields = """
        id relationship since until current
        youngPerson { id role displayName avatar } adult { id role displayName avatar }
        assignedBy { id } endedBy { id }
        """
    public static let assignAdult = """
        mutation($y: ID!, $a: ID!, $r: AssignmentRelationship!) {
          assignAdult(youngPersonId: $y, adultId: $a, relationship: $r) { \(assignmentFields) }
        }
        """
    public static let endAssignment = "mutation($id: ID!) { endAssignment(assignmentId: $id) { \(assignmentFields) } }"
    public static let assignments = "query($y: ID!) { assignments(youngPersonId: $y) { \(assignmentFields) } }"
    public static let myTeam = "{ myTeam { id displayName avatar role relationship since } }"
    public static let myYoungPeople = "{ myYoungPeople { youngPerson { id role displayName avatar } relationship since } }"
}

extension AccountsHarness {
    /// `assignAdult` as `admin` (of `tenant`, by default the first), with any values, valid or
    /// not: the whole response.
    public func assignAdult(
        _ youngPerson: GraphQLValue, _ adult: GraphQLValue, _ relationship: String, admin: TestPerson, tenant: TestTenant? = nil
    ) async throws -> GraphQLValue {
        try await graphQL(
            CaseloadHTTP.assignAdult, ["y": youngPerson, "a": adult, "r": .string(relationship)], token: admin.token, tenant: tenant)
    }

    /// Assigns `adult` to `youngPerson` as `admin` over HTTP (the young person is told, the
    /// caseload's events are published), which must succeed: the `Assignment`, with
    /// ``CaseloadHTTP/assignmentFields``.
    @discardableResult
    public func assign(
        _ youngPerson: TestPerson, _ adult: TestPerson, _ relationship: AssignmentRelationship, admin: TestPerson,
        tenant: TestTenant? = nil
    ) async throws -> GraphQLValue {
        let response = try await assignAdult(youngPerson.idValue, adult.idValue, relationship.rawValue, admin: admin, tenant: tenant)
        return try #require(response["data"]?["assignAdult"], "\(response.json)")
    }
}
