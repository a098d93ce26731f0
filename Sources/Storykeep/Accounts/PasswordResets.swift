import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// Resetting the password of someone who has one takes two members of staff (four eyes): an
/// agency admin asks (``request(personID:reason:viewer:in:)``), a second, different one who may
/// decide approves (``approve(requestID:viewer:in:)``) or refuses. Only an approval yields a code,
/// shown once to the approver, who hands it to the person; the person sets a new password with it
/// (`activateAccount`, which records the reset as completed) and sees it in `me { passwordResets }`.
///
/// The database holds the same rules (Migrations/0005_accounts_password_resets.sql); here they are
/// checked first so that each refusal gets a clear error. Each function runs in a transaction of
/// the acting person's context.
enum PasswordResets {
    /// Who may approve or refuse a reset, with `may_decide_password_reset` in the migration: agency
    /// admins. Not a young person's assigned social worker (Migrations/0010_caseload.sql says why).
    static let deciders: Set<PersonRole> = [.agencyAdmin]
    /// How long a request waits for a decision.
    static let requestLifetimeHours = 72
    /// How long an approval's code works: shorter than an onboarding code's, as it opens an account
    /// in use.
    static let codeLifetimeHours = 48

    /// `requestPasswordReset(personId, reason)`: asks for a reset of the password of someone who
    /// has one, in the viewer's name.
    static func request(personID: String, reason: String, viewer: Viewer, in tx: some PostgresQueryable) async throws -> PasswordResetRecord {
        let reason = try PeopleInput.text(reason, field: "reason", what: "A reason", limit: .passwordResetReason)
        let person = try await PeopleAdmin.find(personID, in: tx)
        guard person.id != viewer.personID else {
            throw GraphQLError.badUserInput(
                field: "personId", "You cannot ask for a reset of your own password: change it with changePassword, or ask another admin.")
        }
        guard !person.disabled else {
            throw GraphQLError.badUserInput(field: "personId", "This person is switched off: they cannot log in.")
        }
        guard person.activatedAt != nil else {
            throw GraphQLError.badUserInput(
                field: "personId", "\(person.displayName) has not set a password yet: give them an activation code (issueActivationCode).")
        }
        let rows = try await tx.query(PasswordResetStatements.request, person.id, reason, requestLifetimeHours)
        guard let id = try rows.first?.decode(UUID.self, at: 0), let record = try await PasswordResetRecord.find(id, in: tx) else {
            throw GraphQLError.internal()
        }
        return record
    }

    /// `approvePasswordReset(requestId)`: the second pair of eyes. Issues the reset's code, to the
    /// viewer, once; the person's other unused codes stop working.
    static func approve(requestID: String, viewer: Viewer, in tx: some PostgresQueryable) async throws -> IssuedActivation {
        let request = try await pending(requestID, in: tx)
        guard request.requested.personID != viewer.personID else {
            throw GraphQLError.forbidden("You asked for this reset: another member of staff must approve it.")
        }
        guard request.person.id != viewer.personID else {
            throw GraphQLError.forbidden("A reset of your own password is approved by someone else.")
        }
        guard !request.person.disabled else {
            throw GraphQLError.badUserInput(field: "requestId", "This person is switched off: they cannot log in.")
        }
        try await record(.approved, requestID: request.id, note: nil, in: tx)
        try await PeopleAdmin.expireCodes(personID: request.person.id, in: tx)
        var issued = try await PeopleAdmin.issueCode(
            for: request.person, passwordReset: request.id, lifetimeHours: codeLifetimeHours, in: tx)
        issued.passwordReset = try await PasswordResetRecord.find(request.id, in: tx)
        return issued
    }

    /// `refusePasswordReset(requestId, note)`: says no, or withdraws one's own request.
    static func refuse(requestID: String, note: String?, in tx: some PostgresQueryable) async throws -> PasswordResetRecord {
        let note = try note.map { try PeopleInput.text($0, field: "note", what: "A note", limit: .passwordResetNote) }
        let request = try await pending(requestID, in: tx)
        try await record(.refused, requestID: request.id, note: note, in: tx)
        guard let refused = try await PasswordResetRecord.find(request.id, in: tx) else { throw GraphQLError.internal() }
        return refused
    }

    /// Records that the person of the transaction's context set a new password with the code of
    /// the reset `requestID` (from `activateAccount`).
    static func complete(requestID: UUID, in tx: some PostgresQueryable) async throws {
        try await record(.completed, requestID: requestID, note: nil, in: tx)
    }

    /// `passwordResetRequests(personId, state, first)`: newest first.
    static func list(personID: String?, state: String?, first: Int, in tx: some PostgresQueryable) async throws -> [PasswordResetRecord] {
        guard (1...100).contains(first) else { throw GraphQLError.badUserInput(field: "first", "Ask for 1 to 100 requests at a time.") }
        let person = try personID.map { text in
            guard let id = UUID(uuidString: text) else { throw GraphQLError.badUserInput(field: "personId", "That is not a person's id.") }
            return id
        }
        return try await tx.query(PasswordResetStatements.requests, nil, person, state, first
        ).map(PasswordResetRecord.init(row:))
    }

    /// The request `text` names, if it still waits for a decision: NOT_FOUND when the context
    /// sees no such request, BAD_USER_INPUT when it is decided or expired.
    private static func pending(_ text: String, in tx: some PostgresQueryable) async throws -> PasswordResetRecord {
        guard let id = UUID(uuidString: text) else { throw GraphQLError.badUserInput(field: "requestId", "That is not a request's id.") }
        guard let request = try await PasswordResetRecord.find(id, in: tx) else {
            throw GraphQLError.notFound("There is no such password reset request.")
        }
        switch request.state {
        case .pending: return request
        case .expired:
            throw GraphQLError.badUserInput(field: "requestId", "This request has expired: ask for a new one.")
        case .approved, .completed:
            throw GraphQLError.badUserInput(field: "requestId", "This request has already been approved.")
        case .refused:
            throw GraphQLError.badUserInput(field: "requestId", "This request has already been refused.")
        }
    }

    private enum Event: String {
        case approved = "APPROVED", refused = "REFUSED", completed = "COMPLETED"
    }

    /// Appends an event in the name of the context's person; a decision already taken (by someone
    /// else at the same moment) is BAD_USER_INPUT.
    private static func record(_ event: Event, requestID: UUID, note: String?, in tx: some PostgresQueryable) async throws {
        do {
            try await tx.execute(PasswordResetStatements.record, requestID, event.rawValue, note)
        } catch let error as PostgresError
            where error.sqlState == PostgresError.SQLState.uniqueViolation && error.constraintName == "password_reset_events_decision"
        {
            throw GraphQLError.badUserInput(field: "requestId", "This request has just been decided by someone else.")
        }
    }
}
