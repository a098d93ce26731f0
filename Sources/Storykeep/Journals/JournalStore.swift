import Foundation
import StorykeepCore
import Postgres

/// A young person's journal, read and written in the transaction it is given, for the person
/// that transaction runs as (`AccountContext.person`): every statement names
/// `current_person_id()` as the author, and the policies of Migrations/0003_journals.sql hold
/// it to that whatever the statement says.
///
/// Input is checked before anything is written: a refused operation throws `JournalError` and
/// changes nothing, and the transaction stays usable. Reads of several entries load their tags
/// and media in one statement each (`EntryRows.attach`), so a page costs the same number of
/// statements whatever its size.
public struct JournalStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// Writes a new entry with its tags and media. Refused (`badInput`) when the date or kind is
    /// missing, a text is too long, a MOOD entry has no mood or its day already has a check-in,
    /// a tag id is not one of the person's tags, or a media id is not one of the person's
    /// files or is attached to another entry.
    public func createEntry(_ input: EntryInput) async throws -> Entry {
        let valid = try checkLocally(input)
        // The database's checks and the insert, which they hold back: one round trip.
        let row = try await database.query(
            JournalStatements.createEntry,
            valid.tagIDs, valid.mediaIDs, nil as UUID?, valid.kind.rawValue, valid.day,
            input.text, input.mood, input.background, input.suggestion)[0]
        try Self.judge(row, entryID: nil)
        return try await withMedia(EntryRows.decode(row, from: Self.checkColumns).entry, valid.mediaIDs)
    }

    /// Makes the live entry `id` what `input` says: every field, its tags and its media
    /// (send the current ones to keep them). Refused as `createEntry` is; `notFound` when the
    /// person has no live entry `id`.
    public func updateEntry(id: UUID, _ input: EntryInput) async throws -> Entry {
        let valid = try await validate(input, entryID: id)
        let rows = try await database.query(
            JournalStatements.updateEntry,
            id, valid.day, valid.kind.rawValue, input.text, input.mood, input.background, input.suggestion, valid.tagIDs)
        // The entry can have gone between the check and the update (deleted by a request beside).
        guard let row = rows.first else { throw JournalError.notFound(id: id) }
        // Its files again, in their new order, now that the old links are gone.
        try await database.execute(JournalStatements.attachMedia, id, valid.mediaIDs)
        return try await withMedia(EntryRows.decode(row).entry, valid.mediaIDs)
    }

    /// `entry` just written with the files `mediaIDs`, with their descriptions: read in one
    /// statement, none when it has no file.
    private func withMedia(_ entry: Entry, _ mediaIDs: [UUID]) async throws -> Entry {
        guard !mediaIDs.isEmpty else { return entry }
        var entry = entry
        entry.media = try await EntryRows.media(ofEntries: [entry.id], on: database)[entry.id] ?? []
        return entry
    }

    /// Deletes the person's live entry `id` as of `now`: it moves to the archive (see the archive
    /// module), where it stays restorable until purged; `notFound` if they have
    /// no live entry `id`.
    public func deleteEntry(id: UUID, now: Date) async throws {
        let archived = try await database.execute(JournalStatements.archiveEntry, id, now)
        guard archived == 1 else { throw JournalError.notFound(id: id) }
    }

    /// The person's live entry `id`, or `nil` (absent, archived, or not theirs: the same answer).
    public func entry(id: UUID) async throws -> Entry? {
        try await entries(ids: [id]).first
    }

    /// The person's live entries among `ids`, in the order of `ids`; the others are left out.
    /// Three statements, whatever the number of ids (what a batched GraphQL load calls).
    public func entries(ids: [UUID]) async throws -> [Entry] {
        var found = try await database.query(JournalStatements.entriesByID, ids).map { try EntryRows.decode($0).entry }
        try await EntryRows.attach(to: &found, on: database)
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    // MARK: Checking input

    /// An input that passed every check, with its lists deduplicated.
    struct ValidInput {
        var day: PostgresDate
        var kind: EntryKind
        var tagIDs: [UUID]
        var mediaIDs: [UUID]
    }

    /// Checks `input` for the entry `entryID` (`nil` for a new one): first what needs no database,
    /// then, in one statement, that the tags and files are the person's and the files free, that
    /// a MOOD entry's day has no other check-in, and that the entry to update exists.
    func validate(_ input: EntryInput, entryID: UUID?) async throws -> ValidInput {
        let valid = try checkLocally(input)
        let row = try await database.query(
            JournalStatements.checkInput, valid.tagIDs, valid.mediaIDs, entryID, valid.kind.rawValue, valid.day)[0]
        try Self.judge(row, entryID: entryID)
        return valid
    }

    /// What can be checked of `input` without the database; its lists deduplicated.
    func checkLocally(_ input: EntryInput) throws -> ValidInput {
        guard let day = input.day else { throw JournalError.badInput(field: "date", message: "an entry needs a date") }
        guard let kind = input.kind else { throw JournalError.badInput(field: "kind", message: "an entry needs a kind") }
        try Self.checkLength(input.text, field: "text", .entryText)
        try Self.checkLength(input.mood, field: "mood", .mood)
        try Self.checkLength(input.background, field: "background", .background)
        try Self.checkLength(input.suggestion, field: "suggestion", .suggestion)
        if kind == .mood && input.mood == nil {
            throw JournalError.badInput(field: "mood", message: "a MOOD entry needs a mood")
        }
        return ValidInput(day: day, kind: kind, tagIDs: input.tagIDs.uniqued(), mediaIDs: input.mediaIDs.uniqued())
    }

    /// The columns of `JournalStatements.checkInput`'s row, which `createEntry`'s row starts with.
    static var checkColumns: Int { 5 }

    /// Refuses the input whose `JournalStatements.checkInput` row is `row`, for the entry
    /// `entryID` (`nil` for a new one), with what the row found wrong first.
    static func judge(_ row: PostgresRow, entryID: UUID?) throws {
        if let entryID, try row.decode(Int.self, at: 0) == 0 { throw JournalError.notFound(id: entryID) }
        if let unknown = try row.decode([UUID].self, at: 1).first {
            throw JournalError.badInput(field: "tagIds", message: "no tag of yours has the id \(unknown.lowercased)")
        }
        if let unknown = try row.decode([UUID].self, at: 2).first {
            throw JournalError.badInput(field: "mediaIds", message: "no file of yours has the id \(unknown.lowercased)")
        }
        if let attached = try row.decode([UUID].self, at: 3).first {
            throw JournalError.badInput(
                field: "mediaIds", message: "the file \(attached.lowercased) belongs to another entry")
        }
        if try row.decode(Bool.self, at: 4) {
            throw JournalError.badInput(
                field: "date", message: "that day already has a mood check-in; check in again to change it")
        }
    }

    /// Refuses `text` that `limit` does not admit, naming `field`.
    static func checkLength(_ text: String?, field: String, _ limit: TextLimit) throws {
        guard let text, !limit.admits(text) else { return }
        throw JournalError.badInput(field: field, message: "must have \(limit)")
    }
}
