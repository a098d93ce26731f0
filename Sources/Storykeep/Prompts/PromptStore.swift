public import Foundation
import GraphQL
public import Postgres
import StorykeepCaseload
import StorykeepCore

/// Prompts from adults, in the transaction it is given, for the person that transaction runs as:
/// an adult sends and lists what they sent, a young person lists, dismisses and answers theirs.
/// The policies of Migrations/0013_prompts.sql hold who may do what, and its triggers the limit
/// of open prompts; the store turns their refusals into errors that name the argument at fault.
public struct PromptStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// Sends `text` (trimmed) to the young person `youngPersonID`: the prompt. Refused with
    /// BAD_USER_INPUT on `text` for a text of no or too many characters, on `youngPersonId` when
    /// the sender does not look after that young person now (an unknown id, another agency's
    /// person, an ended assignment, a switched-off young person: one answer) or when they have
    /// `limit` open prompts already.
    public func send(to youngPersonID: UUID, text: String, limit: Int) async throws -> AdultPrompt {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLimit.adultPrompt.admits(text) else {
            throw GraphQLError.badUserInput(field: "text", "text: a prompt has \(TextLimit.adultPrompt) (Unicode code points).")
        }
        let rows: PostgresRows
        do {
            rows = try await database.query(PromptStatements.send, youngPersonID, text)
        } catch let error as PostgresError where error.constraintName == "adult_prompts_open_limit" {
            throw GraphQLError.badUserInput(
                field: "youngPersonId",
                "This young person already has \(limit) open prompts, as many as the agency allows: wait until they answer or dismiss one.")
        }
        guard let row = rows.first else { throw Self.notLookedAfter }
        return try PromptRows.prompt(row)
    }

    /// The newest `first` prompts the person sent to the young person `youngPersonID`, whom they
    /// must look after now (else BAD_USER_INPUT on `youngPersonId`).
    public func sent(to youngPersonID: UUID, first: Int) async throws -> [AdultPrompt] {
        try PageSize.check(first)
        guard try await database.query(PromptStatements.looksAfter, youngPersonID)[0].decode(Bool.self, at: 0) else {
            throw Self.notLookedAfter
        }
        return try await database.query(PromptStatements.sent, youngPersonID, first).map(PromptRows.prompt)
    }

    /// The newest `first` of the person's own prompts: open ones (`open` true), closed ones
    /// (false) or all (nil).
    public func received(open: Bool?, first: Int) async throws -> [AdultPrompt] {
        try PageSize.check(first)
        return try await database.query(PromptStatements.received, nil as UUID?, open, first).map(PromptRows.prompt)
    }

    /// Dismisses the person's open prompt `id`: the prompt. NOT_FOUND when they have no prompt
    /// `id`, BAD_USER_INPUT on `id` when it is answered or dismissed already.
    public func dismiss(id: UUID) async throws -> AdultPrompt {
        let dismissed = try await database.query(PromptStatements.dismiss, id)
        guard let prompt = try await database.query(PromptStatements.received, id, nil as Bool?, 1).first.map(PromptRows.prompt) else {
            throw GraphQLError.notFound("You have no such prompt.")
        }
        guard !dismissed.isEmpty else {
            throw GraphQLError.badUserInput(field: "id", "This prompt is \(prompt.status == .answered ? "answered" : "dismissed") already.")
        }
        return prompt
    }

    /// Who to tell that a prompt was answered: its adult, when they look after the young person
    /// now, and the young person's name as they go by.
    public struct Answer: Sendable {
        public var adultID: UUID
        public var adultLooksAfter: Bool
        public var youngPersonName: String
    }

    /// Answers the person's open prompt `id` with their entry `entryID`: who to tell, or nil
    /// when the prompt was answered with that entry already (an entry updated with its input as
    /// it was). BAD_USER_INPUT on `input.promptId` when `id` is no open prompt of theirs.
    public func answer(id: UUID, with entryID: UUID) async throws -> Answer? {
        if let row = try await database.query(PromptStatements.answer, id, entryID).first {
            return Answer(
                adultID: try row.decode(UUID.self, at: 0), adultLooksAfter: try row.decode(Bool.self, at: 1),
                youngPersonName: try row.decode(String.self, at: 2))
        }
        let answeredWith = try await database.query(PromptStatements.answeredWith, id).first.map { try $0.decode(UUID?.self, at: 0) }
        guard answeredWith == entryID else {
            throw GraphQLError.badUserInput(field: "input.promptId", "input.promptId: this is not one of your open prompts.")
        }
        return nil
    }

    private static var notLookedAfter: GraphQLError {
        .badUserInput(field: "youngPersonId", "You can send prompts only to the young people you look after now.")
    }
}

/// How prompts are read from the rows of `PromptStatements` (see there for the columns).
enum PromptRows {
    static func prompt(_ row: PostgresRow) throws -> AdultPrompt {
        AdultPrompt(
            id: try row.decode(UUID.self, at: 0), text: try row.decode(String.self, at: 1),
            youngPerson: try CaseloadPerson(row, at: 6), adult: try CaseloadPerson.optional(row, at: 10),
            sentAt: try row.decode(Date.self, at: 2), dismissedAt: try row.decode(Date?.self, at: 3),
            answeredAt: try row.decode(Date?.self, at: 4), answeredEntryID: try row.decode(UUID?.self, at: 5))
    }
}
