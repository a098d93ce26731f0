public import Foundation
import GraphQL
public import Postgres
import StorykeepCaseload
import StorykeepCore

/// Safety alerts, in the transaction it is given, for the person that transaction runs as: a
/// young person raises theirs and reads where they stand; staff (social workers of the young
/// person, admins once an alert is escalated) list, acknowledge and resolve them. Who sees and
/// changes what is held by the policies of Migrations/0014_safety.sql.
public struct SafetyAlerts<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    // MARK: The young person's

    /// Raises an alert with `message` as ``cleanMessage(_:)`` makes it: the alert, never refused
    /// for its message.
    public func raise(message: String?) async throws -> SafetyAlert {
        try SafetyRows.alert(try await database.query(SafetyStatements.raise, Self.cleanMessage(message))[0], notes: [])
    }

    /// The newest `first` of the person's own alerts.
    public func own(first: Int) async throws -> [SafetyAlert] {
        try PageSize.check(first)
        return try await database.query(SafetyStatements.own, first).map { try SafetyRows.alert($0, notes: []) }
    }

    /// What is kept of a message: without NUL characters (which PostgreSQL text cannot hold),
    /// trimmed, and cut after the last whole character within ``TextLimit/safetyAlertMessage``;
    /// nil when nothing is left.
    public static func cleanMessage(_ message: String?) -> String? {
        guard let message else { return nil }
        let trimmed = String(String.UnicodeScalarView(message.unicodeScalars.filter { $0 != "\u{0}" }))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let most = TextLimit.safetyAlertMessage.range.upperBound
        guard TextLimit.length(of: trimmed) > most else { return trimmed }
        var kept = ""
        var length = 0
        for character in trimmed {
            let size = character.unicodeScalars.count
            guard length + size <= most else { break }
            kept.append(character)
            length += size
        }
        // A first character longer than the limit on its own: its code points, cut.
        return kept.isEmpty ? String(String.UnicodeScalarView(trimmed.unicodeScalars.prefix(most))) : kept
    }

    // MARK: Staff's

    /// The newest `first` alerts the person sees, of `status` (any when nil), with their notes.
    /// Two statements.
    public func alerts(status: SafetyAlertStatus?, first: Int) async throws -> [SafetyAlert] {
        try PageSize.check(first)
        return try await withNotes(try await database.query(SafetyStatements.alerts, nil as UUID?, status?.rawValue, first))
    }

    /// The alert `id` with its notes, if the person sees it.
    public func alert(id: UUID) async throws -> SafetyAlert? {
        try await withNotes(try await database.query(SafetyStatements.alerts, id, nil as String?, 1)).first
    }

    /// Acknowledges the open alert `id`, noting `note`: the alert, as the person now sees it.
    /// NOT_FOUND when the person sees no alert `id`, BAD_USER_INPUT on `id` when it is not open,
    /// on `note` for a note of more than ``TextLimit/safetyAlertNote``.
    public func acknowledge(id: UUID, note: String?) async throws -> SafetyAlert {
        let note = try Self.checkNote(note)
        guard try await database.query(SafetyStatements.acknowledge, id).first != nil else { throw try await refusal(id) }
        try await database.execute(SafetyStatements.note, id, SafetyAlertAction.acknowledged.rawValue, note)
        return try await acted(on: id)
    }

    /// Resolves the alert `id`, open or acknowledged, noting `note`: the alert, and whether
    /// this acknowledged it too (it was open). Refused as ``acknowledge(id:note:)`` is, when it
    /// is resolved already.
    public func resolve(id: UUID, note: String?) async throws -> (alert: SafetyAlert, acknowledged: Bool) {
        let note = try Self.checkNote(note)
        guard let row = try await database.query(SafetyStatements.resolve, id).first else { throw try await refusal(id) }
        let acknowledged = try row.decode(Bool.self, at: 1)
        if acknowledged {
            try await database.execute(SafetyStatements.note, id, SafetyAlertAction.acknowledged.rawValue, nil as String?)
        }
        try await database.execute(SafetyStatements.note, id, SafetyAlertAction.resolved.rawValue, note)
        return (try await acted(on: id), acknowledged)
    }

    /// Why the alert `id` could not be acted on: NOT_FOUND when the person does not see it, else
    /// BAD_USER_INPUT on `id` saying where it stands.
    private func refusal(_ id: UUID) async throws -> GraphQLError {
        guard let alert = try await alert(id: id) else { return GraphQLError.notFound("There is no such safety alert that you see.") }
        return GraphQLError.badUserInput(field: "id", "This safety alert is \(alert.status.rawValue.lowercased()) already.")
    }

    /// The alert `id`, just acted on.
    private func acted(on id: UUID) async throws -> SafetyAlert {
        guard let alert = try await alert(id: id) else { throw GraphQLError.internal() }
        return alert
    }

    /// `rows` of alerts (``SafetyStatements/alerts``) with their notes, read in one statement.
    private func withNotes(_ rows: PostgresRows) async throws -> [SafetyAlert] {
        let ids = try rows.map { try $0.decode(UUID.self, at: 0) }
        guard !ids.isEmpty else { return [] }
        let notes = try await database.query(SafetyStatements.notes, ids).reduce(into: [UUID: [SafetyAlertNote]]()) { notes, row in
            notes[try row.decode(UUID.self, at: 0), default: []].append(try SafetyRows.note(row))
        }
        return try zip(rows, ids).map { row, id in try SafetyRows.alert(row, notes: notes[id] ?? []) }
    }

    /// A staff note as kept: trimmed, nil when empty; BAD_USER_INPUT on `note` past its limit.
    private static func checkNote(_ note: String?) throws -> String? {
        guard let note = note?.trimmingCharacters(in: .whitespacesAndNewlines), !note.isEmpty else { return nil }
        guard TextLimit.safetyAlertNote.admits(note) else {
            throw GraphQLError.badUserInput(field: "note", "note: at most \(TextLimit.safetyAlertNote.range.upperBound) characters (Unicode code points).")
        }
        return note
    }
}

/// How alerts and notes are read from the rows of `SafetyStatements` (see there for the columns).
enum SafetyRows {
    static func alert(_ row: PostgresRow, notes: [SafetyAlertNote]) throws -> SafetyAlert {
        guard let status = SafetyAlertStatus(rawValue: try row.decode(String.self, at: 3)) else {
            throw PostgresError(kind: .decoding, message: "unknown safety_alert_status")
        }
        return SafetyAlert(
            id: try row.decode(UUID.self, at: 0),
            youngPerson: try CaseloadPerson(row, at: 7),
            message: try row.decode(String?.self, at: 1), raisedAt: try row.decode(Date.self, at: 2), status: status,
            acknowledgedAt: try row.decode(Date?.self, at: 4), resolvedAt: try row.decode(Date?.self, at: 5),
            escalatedAt: try row.decode(Date?.self, at: 6), notes: notes)
    }

    /// A row of ``SafetyStatements/notes``.
    static func note(_ row: PostgresRow) throws -> SafetyAlertNote {
        guard let action = SafetyAlertAction(rawValue: try row.decode(String.self, at: 1)) else {
            throw PostgresError(kind: .decoding, message: "unknown safety_alert_action")
        }
        return SafetyAlertNote(
            action: action, by: SafetyAlertStaff(id: try row.decode(UUID.self, at: 2), displayName: try row.decode(String.self, at: 3)),
            note: try row.decode(String?.self, at: 4), at: try row.decode(Date.self, at: 5))
    }
}
