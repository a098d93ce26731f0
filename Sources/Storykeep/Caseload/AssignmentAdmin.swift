public import Foundation
import GraphQL
public import Postgres
import StorykeepCore

/// What agency admins do to the caseload: assign an adult to a young person, end an assignment.
/// Each function runs in a transaction of an admin's context (`AGENCY_ADMIN`, or the tenant's
/// operator), whom the policies of Migrations/0010_caseload.sql alone let write assignments.
///
/// Every refusal is thrown before anything is written: BAD_USER_INPUT naming the argument at
/// fault (`youngPersonId`, `adultId`, `relationship`, `assignmentId`), or NOT_FOUND for an
/// assignment id that names none. The database holds the same rules (a trigger for who fits
/// which relationship, a unique index for one current assignment per pair) as a backstop.
public enum AssignmentAdmin {
    /// Assigns the adult `adultID` to the young person `youngPersonID` as `relationship`, from
    /// now. Refused when either id names nobody in the tenant, the young person is not one, the
    /// adult's role does not fit the relationship (a carer is assigned as CARER, a social worker
    /// as SOCIAL_WORKER or OTHER_PROFESSIONAL; nobody else as anything), either is switched off,
    /// or the two already have a current assignment.
    public static func assign(
        youngPersonID: UUID, adultID: UUID, relationship: AssignmentRelationship, in tx: some PostgresQueryable
    ) async throws -> Assignment {
        let people = try await people([youngPersonID, adultID], in: tx)
        guard let young = people[youngPersonID] else {
            throw GraphQLError.badUserInput(field: "youngPersonId", "There is no such person in this agency.")
        }
        guard young.role == PersonRole.youngPerson.rawValue else {
            throw GraphQLError.badUserInput(field: "youngPersonId", "Adults are assigned to young people: this person is not a young person.")
        }
        guard !young.disabled else {
            throw GraphQLError.badUserInput(field: "youngPersonId", "This young person is switched off: switch them on again first.")
        }
        guard let adult = people[adultID] else {
            throw GraphQLError.badUserInput(field: "adultId", "There is no such person in this agency.")
        }
        let fitting = Set(AssignmentRelationship.allCases.map(\.adultRole))
        guard let adultRole = PersonRole(rawValue: adult.role), fitting.contains(adultRole) else {
            throw GraphQLError.badUserInput(
                field: "adultId", "Only social workers and carers can be assigned to look after a young person: this person is a \(adult.role).")
        }
        guard adultRole == relationship.adultRole else {
            throw GraphQLError.badUserInput(
                field: "relationship",
                "A \(adult.role) cannot be assigned as \(relationship.rawValue): choose "
                    + AssignmentRelationship.allCases.filter { $0.adultRole == adultRole }.map(\.rawValue).joined(separator: " or ") + ".")
        }
        guard !adult.disabled else {
            throw GraphQLError.badUserInput(field: "adultId", "This person is switched off: switch them on again first.")
        }
        let inserted = try await fitOrRefused {
            try await tx.query(CaseloadStatements.assign, youngPersonID, adultID, relationship.rawValue)
        }
        guard let row = inserted.first else {
            throw GraphQLError.badUserInput(field: "adultId", "This adult is already assigned to this young person: end that assignment first.")
        }
        guard let assignment = try await Caseload(tx).assignment(id: try row.decode(UUID.self, at: 0)) else {
            throw GraphQLError.internal()
        }
        return assignment
    }

    /// Ends the assignment `id` now; it stays in the history. NOT_FOUND when there is none,
    /// BAD_USER_INPUT when it has ended already.
    public static func end(assignmentID id: UUID, in tx: some PostgresQueryable) async throws -> Assignment {
        let ended = try await tx.execute(CaseloadStatements.end, id)
        guard let assignment = try await Caseload(tx).assignment(id: id) else {
            throw GraphQLError.notFound("There is no such assignment in this agency.")
        }
        guard ended == 1 else {
            throw GraphQLError.badUserInput(field: "assignmentId", "This assignment has ended already.")
        }
        return assignment
    }

    /// The people `ids` of the tenant, by id: each one's role and whether they are switched off.
    private static func people(_ ids: [UUID], in tx: some PostgresQueryable) async throws -> [UUID: (role: String, disabled: Bool)] {
        try await tx.query(CaseloadStatements.people, ids).reduce(into: [:]) { found, row in
            found[try row.decode(UUID.self, at: 0)] = (try row.decode(String.self, at: 1), try row.decode(Bool.self, at: 2))
        }
    }

    /// `body`'s rows; the database's role-fit check, should a person change between the checks
    /// above and the insert (switched off meanwhile), as BAD_USER_INPUT.
    private static func fitOrRefused(_ body: () async throws -> PostgresRows) async throws -> PostgresRows {
        do {
            return try await body()
        } catch let error as PostgresError where error.constraintName == "assignments_role_fit" {
            throw GraphQLError.badUserInput(field: "adultId", "These two people cannot be assigned to each other.")
        }
    }
}

extension AssignmentAdmin {
    /// Every assignment of the young person `youngPersonID`, current and ended, newest first.
    /// NOT_FOUND when the id names nobody in the tenant, BAD_USER_INPUT when it names an adult.
    public static func history(of youngPersonID: UUID, in tx: some PostgresQueryable) async throws -> [Assignment] {
        guard let role = try await people([youngPersonID], in: tx)[youngPersonID]?.role else {
            throw GraphQLError.notFound("There is no such person in this agency.")
        }
        guard role == PersonRole.youngPerson.rawValue else {
            throw GraphQLError.badUserInput(field: "youngPersonId", "Only young people have adults assigned: this person is a \(role).")
        }
        return try await Caseload(tx).history(of: youngPersonID)
    }
}
