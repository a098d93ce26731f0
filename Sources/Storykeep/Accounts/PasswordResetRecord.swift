import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// A request to reset someone's password and what became of it, as staff see it (the GraphQL type
/// `PasswordResetRequest`; the rows of Migrations/0005_accounts_password_resets.sql).
struct PasswordResetRecord: Sendable {
    /// What became of it: computed from its events and expiry, never stored.
    enum State: String, Sendable {
        case pending = "PENDING"
        case approved = "APPROVED"
        case completed = "COMPLETED"
        case refused = "REFUSED"
        case expired = "EXPIRED"
    }

    /// A member of staff's step, under the name they had then.
    struct Step: Sendable {
        var personID: UUID
        var name: String
        var at: Date
    }

    var id: UUID
    /// Whose password.
    var person: PersonRecord
    var reason: String
    var requested: Step
    var expiresAt: Date
    var state: State
    /// The approval or refusal, once there is one.
    var decided: Step?
    /// A refusal's note.
    var note: String?
    /// When the person set a new password with the approval's code.
    var completedAt: Date?

    init(row: PostgresRow) throws {
        let at = PersonRecord.columnCount
        person = try PersonRecord(row: row)
        id = try row.decode(UUID.self, at: at)
        reason = try row.decode(String.self, at: at + 1)
        requested = Step(
            personID: try row.decode(UUID.self, at: at + 2), name: try row.decode(String.self, at: at + 3),
            at: try row.decode(Date.self, at: at + 4))
        expiresAt = try row.decode(Date.self, at: at + 5)
        guard let state = State(rawValue: try row.decode(String.self, at: at + 6)) else {
            throw PostgresError(kind: .decoding, message: "unknown password reset state")
        }
        self.state = state
        if let deciderID = try row.decode(UUID?.self, at: at + 7) {
            decided = Step(personID: deciderID, name: try row.decode(String.self, at: at + 8), at: try row.decode(Date.self, at: at + 9))
        }
        note = try row.decode(String?.self, at: at + 10)
        completedAt = try row.decode(Date?.self, at: at + 11)
    }

    /// The request with this id, as far as the transaction's context may see it.
    static func find(_ id: UUID, in tx: some PostgresQueryable) async throws -> PasswordResetRecord? {
        try await tx.query(PasswordResetStatements.requests, id, nil, nil, 1).first.map(Self.init(row:))
    }

    /// The `PasswordResetRequest` object.
    func graphQLValue(termsVersion: String) -> GraphQLValue {
        func time(_ date: Date?) -> GraphQLValue { date.map { .string(DateTimeScalar.string($0)) } ?? .null }
        return .object([
            "id": .string(id.uuidString.lowercased()),
            "person": person.graphQLValue(termsVersion: termsVersion),
            "reason": .string(reason),
            "requestedBy": .string(requested.name),
            "requestedById": .string(requested.personID.uuidString.lowercased()),
            "requestedAt": time(requested.at),
            "expiresAt": time(expiresAt),
            "state": .string(state.rawValue),
            "decidedBy": decided.map { .string($0.name) } ?? .null,
            "decidedById": decided.map { .string($0.personID.uuidString.lowercased()) } ?? .null,
            "decidedAt": time(decided?.at),
            "note": note.map(GraphQLValue.string) ?? .null,
            "completedAt": time(completedAt),
        ])
    }
}

/// An approved reset of the viewer's own password, as `me { passwordResets }` tells them of it
/// (the GraphQL type `PasswordResetNotice`): staff by display name only.
struct PasswordResetNotice: Sendable {
    var requested: (name: String, at: Date)
    var approved: (name: String, at: Date)
    var completedAt: Date?

    /// The person's approved resets, newest approval first, at most `first`. In the person's own
    /// context (the requests' policy shows them the ones about them).
    static func latest(personID: UUID, first: Int, in tx: some PostgresQueryable) async throws -> [PasswordResetNotice] {
        try await tx.query(PasswordResetStatements.notices, personID, first
        ).map { row in
            PasswordResetNotice(
                requested: (try row.decode(String.self, at: 0), try row.decode(Date.self, at: 1)),
                approved: (try row.decode(String.self, at: 2), try row.decode(Date.self, at: 3)),
                completedAt: try row.decode(Date?.self, at: 4))
        }
    }

    var graphQLValue: GraphQLValue {
        .object([
            "requestedBy": .string(requested.name),
            "requestedAt": .string(DateTimeScalar.string(requested.at)),
            "approvedBy": .string(approved.name),
            "approvedAt": .string(DateTimeScalar.string(approved.at)),
            "completedAt": completedAt.map { .string(DateTimeScalar.string($0)) } ?? .null,
        ])
    }
}
