public import Foundation
public import Postgres
import StorykeepCore

/// Who looks after whom, read in the transaction it is given, as far as the person that
/// transaction runs as may see (Migrations/0010_caseload.sql): a party to an assignment sees it,
/// an admin sees every one. What other modules ask of the caseload: a young person's current
/// adults (whom a safety alert goes to, whom an entry may be shared with), an adult's current
/// young people.
///
/// "Current" means not ended, between people who are not switched off: an admin who disables a
/// person should end their assignments, and until then they are left out here (they cannot log
/// in anyway). Each function is one statement (CaseloadStatements).
public struct Caseload<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// The adults currently assigned to the young person `youngPersonID`: social workers first,
    /// then carers, then other professionals, each by name.
    public func currentAdults(of youngPersonID: UUID) async throws -> [TeamMember] {
        try await database.query(CaseloadStatements.currentAdults, youngPersonID).map { row in
            TeamMember(
                assignmentID: try row.decode(UUID.self, at: 0), adult: try CaseloadPerson(row, at: 3),
                relationship: try CaseloadRows.relationship(row, at: 1), since: try row.decode(Date.self, at: 2))
        }
    }

    /// The young people the adult `adultID` is currently assigned to, by name.
    public func currentYoungPeople(of adultID: UUID) async throws -> [CaseloadYoungPerson] {
        try await database.query(CaseloadStatements.currentYoungPeople, adultID).map { row in
            CaseloadYoungPerson(
                assignmentID: try row.decode(UUID.self, at: 0), youngPerson: try CaseloadPerson(row, at: 3),
                relationship: try CaseloadRows.relationship(row, at: 1), since: try row.decode(Date.self, at: 2))
        }
    }

    /// Every assignment of the young person `youngPersonID`, current and ended, newest first.
    public func history(of youngPersonID: UUID) async throws -> [Assignment] {
        try await database.query(CaseloadStatements.assignments, nil as UUID?, youngPersonID).map(CaseloadRows.assignment)
    }

    /// The assignment `id`, or nil.
    public func assignment(id: UUID) async throws -> Assignment? {
        try await database.query(CaseloadStatements.assignments, id, nil as UUID?).first.map(CaseloadRows.assignment)
    }
}

/// How the caseload reads the rows of its statements (`CaseloadStatements`), people among them:
/// four columns each, their row in `people` and their profile where the reader may see it (an
/// adult their young people's, a young person their adults'; an admin sees no one's profile, so
/// the name in the agency's records).
enum CaseloadRows {
    /// How many columns a person takes.
    static let personColumns = 4

    /// An assignment of `CaseloadStatements.assignments`.
    static func assignment(_ row: PostgresRow) throws -> Assignment {
        Assignment(
            id: try row.decode(UUID.self, at: 0), youngPerson: try CaseloadPerson(row, at: 4),
            adult: try CaseloadPerson(row, at: 4 + personColumns),
            relationship: try relationship(row, at: 1), since: try row.decode(Date.self, at: 2),
            until: try row.decode(Date?.self, at: 3),
            assignedBy: try CaseloadPerson.optional(row, at: 4 + 2 * personColumns),
            endedBy: try CaseloadPerson.optional(row, at: 4 + 3 * personColumns))
    }

    /// The relationship in `column`.
    static func relationship(_ row: PostgresRow, at column: Int) throws -> AssignmentRelationship {
        guard let relationship = AssignmentRelationship(rawValue: try row.decode(String.self, at: column)) else {
            throw PostgresError(kind: .decoding, message: "unknown assignment_relationship")
        }
        return relationship
    }
}
