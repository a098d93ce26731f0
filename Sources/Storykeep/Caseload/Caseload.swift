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
/// in anyway). Each function is one statement.
public struct Caseload<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// The adults currently assigned to the young person `youngPersonID`: social workers first,
    /// then carers, then other professionals, each by name.
    public func currentAdults(of youngPersonID: UUID) async throws -> [TeamMember] {
        try await database.query(
            """
            select a.id, a.relationship::text, a.since, \(CaseloadRows.person("ad", "adr"))
            from assignments a
            \(CaseloadRows.join("ad", "adr", on: "a.adult_id"))
            where a.tenant_id = current_tenant_id() and a.young_person_id = $1 and a.until is null
              and ad.disabled_at is null
            order by a.relationship, \(CaseloadRows.nameOrder("ad", "adr")), ad.id
            """, youngPersonID
        ).map { row in
            TeamMember(
                assignmentID: try row.decode(UUID.self, at: 0), adult: try CaseloadRows.person(row, at: 3),
                relationship: try CaseloadRows.relationship(row, at: 1), since: try row.decode(Date.self, at: 2))
        }
    }

    /// The young people the adult `adultID` is currently assigned to, by name.
    public func currentYoungPeople(of adultID: UUID) async throws -> [CaseloadYoungPerson] {
        try await database.query(
            """
            select a.id, a.relationship::text, a.since, \(CaseloadRows.person("yp", "ypr"))
            from assignments a
            \(CaseloadRows.join("yp", "ypr", on: "a.young_person_id"))
            where a.tenant_id = current_tenant_id() and a.adult_id = $1 and a.until is null
              and yp.disabled_at is null
            order by \(CaseloadRows.nameOrder("yp", "ypr")), yp.id
            """, adultID
        ).map { row in
            CaseloadYoungPerson(
                assignmentID: try row.decode(UUID.self, at: 0), youngPerson: try CaseloadRows.person(row, at: 3),
                relationship: try CaseloadRows.relationship(row, at: 1), since: try row.decode(Date.self, at: 2))
        }
    }

    /// Every assignment of the young person `youngPersonID`, current and ended, newest first.
    public func history(of youngPersonID: UUID) async throws -> [Assignment] {
        try await assignments(where: "a.young_person_id = $1", youngPersonID)
    }

    /// The assignment `id`, or nil.
    public func assignment(id: UUID) async throws -> Assignment? {
        try await assignments(where: "a.id = $1", id).first
    }

    private func assignments(where condition: String, _ id: UUID) async throws -> [Assignment] {
        try await database.query(
            """
            select a.id, a.relationship::text, a.since, a.until,
                   \(CaseloadRows.person("yp", "ypr")), \(CaseloadRows.person("ad", "adr")),
                   \(CaseloadRows.person("ab", "abr")), \(CaseloadRows.person("eb", "ebr"))
            from assignments a
            \(CaseloadRows.join("yp", "ypr", on: "a.young_person_id"))
            \(CaseloadRows.join("ad", "adr", on: "a.adult_id"))
            \(CaseloadRows.join("ab", "abr", on: "a.assigned_by", optional: true))
            \(CaseloadRows.join("eb", "ebr", on: "a.ended_by", optional: true))
            where a.tenant_id = current_tenant_id() and \(condition)
            order by a.since desc, a.id desc
            """, id
        ).map { row in
            Assignment(
                id: try row.decode(UUID.self, at: 0), youngPerson: try CaseloadRows.person(row, at: 4),
                adult: try CaseloadRows.person(row, at: 4 + CaseloadRows.personColumns),
                relationship: try CaseloadRows.relationship(row, at: 1), since: try row.decode(Date.self, at: 2),
                until: try row.decode(Date?.self, at: 3),
                assignedBy: try CaseloadRows.optionalPerson(row, at: 4 + 2 * CaseloadRows.personColumns),
                endedBy: try CaseloadRows.optionalPerson(row, at: 4 + 3 * CaseloadRows.personColumns))
        }
    }
}

/// How the caseload's statements read a person: their row in `people`, and their profile where
/// the reader may see it (an adult their young people's, a young person their adults'; an admin
/// sees no one's profile, so the name in the agency's records).
enum CaseloadRows {
    /// How many columns ``person(_:_:)`` selects.
    static let personColumns = 4

    /// The columns of a person of `people` aliased `p`, with `profiles` aliased `pr`.
    static func person(_ p: String, _ pr: String) -> String {
        "\(p).id, \(p).role::text, coalesce(\(pr).display_name, \(p).display_name), \(pr).avatar"
    }

    /// Joins the person `column` names as `p`, and their profile as `pr`; `optional` for a column
    /// that may be NULL.
    static func join(_ p: String, _ pr: String, on column: String, optional: Bool = false) -> String {
        """
        \(optional ? "left join" : "join") people \(p) on \(p).tenant_id = a.tenant_id and \(p).id = \(column)
        left join profiles \(pr) on \(pr).tenant_id = \(p).tenant_id and \(pr).person_id = \(p).id
        """
    }

    /// Orders by a joined person's name, as people read names (ICU's root collation).
    static func nameOrder(_ p: String, _ pr: String) -> String {
        "coalesce(\(pr).display_name, \(p).display_name) collate \"und-x-icu\""
    }

    static func person(_ row: PostgresRow, at column: Int) throws -> CaseloadPerson {
        guard let role = PersonRole(rawValue: try row.decode(String.self, at: column + 1)) else {
            throw PostgresError(kind: .decoding, message: "unknown person_role")
        }
        return CaseloadPerson(
            id: try row.decode(UUID.self, at: column), role: role, displayName: try row.decode(String.self, at: column + 2),
            avatar: try row.decode(String?.self, at: column + 3))
    }

    static func optionalPerson(_ row: PostgresRow, at column: Int) throws -> CaseloadPerson? {
        try row.decode(UUID?.self, at: column) == nil ? nil : try person(row, at: column)
    }

    static func relationship(_ row: PostgresRow, at column: Int) throws -> AssignmentRelationship {
        guard let relationship = AssignmentRelationship(rawValue: try row.decode(String.self, at: column)) else {
            throw PostgresError(kind: .decoding, message: "unknown assignment_relationship")
        }
        return relationship
    }
}
