import Foundation
import StorykeepCore
import Postgres

/// Where today's check-in stands for the person.
public enum CheckInStatus: Sendable, Hashable {
    /// Not yet checked in, nor skipped: the greeting asks.
    case pending
    /// Checked in: the day's MOOD entry.
    case done(entryID: UUID, mood: String)
    /// Skipped: not asked again that day.
    case skipped
}

/// The daily mood check-in: one MOOD entry per person and day (the `entries_check_in` index),
/// and the skips. The day is the caller's to say (today in the tenant's time zone): nothing
/// here reads the clock to decide which day it is.
public struct CheckInStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// Records the person's mood for `day`: the day's MOOD entry, made by the first check-in
    /// and updated by the next ones (a `note` replaces its text; no note keeps it). One statement,
    /// so two check-ins at once still leave one entry.
    public func checkIn(day: PostgresDate, mood: String, note: String? = nil) async throws -> Entry {
        try JournalStore<Database>.checkLength(mood, field: "mood", .mood)
        try JournalStore<Database>.checkLength(note, field: "note", .entryText)
        let rows = try await database.query(CheckInStatements.checkIn, day, note, mood)
        return try await JournalStore(database).entry(id: try rows[0].decode(UUID.self, at: 0))!
    }

    /// Records that the person skipped `day`'s check-in; skipping twice is once.
    public func skip(day: PostgresDate) async throws {
        try await database.execute(CheckInStatements.skip, day)
    }

    /// Whether the person has checked in on `day`, skipped it, or neither: one statement.
    public func status(day: PostgresDate) async throws -> CheckInStatus {
        let row = try await database.query(CheckInStatements.status, day)[0]
        if let id = try row.decode(UUID?.self, at: 0) {
            return .done(entryID: id, mood: try row.decode(String.self, at: 1))
        }
        return try row.decode(Bool.self, at: 2) ? .skipped : .pending
    }
}

extension PostgresDate {
    /// The calendar day `moment` falls on in `timeZone`: with the tenant's zone, "today" for the
    /// check-in and the greeting (a young person in London checking in at 00:30 BST on 1 June is
    /// on 1 June, though it is still 31 May in UTC).
    public init(_ moment: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: moment)
        self.init(year: parts.year!, month: parts.month!, day: parts.day!)
    }
}
