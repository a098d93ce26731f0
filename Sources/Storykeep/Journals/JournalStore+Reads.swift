import Foundation
import StorykeepCore
import Postgres

extension JournalStore {
    /// The most entries one page may hold.
    public static var maxPageSize: Int { 100 }

    /// A page of the person's live entries, newest first: by day, then by when they were written
    /// (then by id, so the order is total and a position never skips or repeats an entry).
    /// Two statements whatever `first` is: the entries and their media; one without their media
    /// (`withMedia` false: the GraphQL page loads them with the tags, in one round trip). A text
    /// filter is held to ``maxSearchLength`` and ``maxSearchWords`` (field `filter.text`).
    ///
    /// One statement text whatever the filter (``JournalStatements/entriesPage``), prepared once
    /// per connection, its position and days conditions of the `entries_timeline` index.
    public func entries(
        first: Int, after: EntryPosition? = nil, filter: EntryFilter = EntryFilter(), withMedia: Bool = true
    ) async throws -> Page<Entry, EntryPosition> {
        if let text = filter.text { try Self.checkSearch(text, field: "filter.text") }
        return try await page(first: first, after: after, filter: filter, withMedia: withMedia)
    }

    /// Entries whose text or tag names match `query` (web-search syntax, language-neutral), in
    /// the journal's order: `entries` with a text filter. `query` is held to
    /// ``maxSearchLength`` and ``maxSearchWords``.
    public func search(
        _ query: String, first: Int, after: EntryPosition? = nil, withMedia: Bool = true
    ) async throws -> Page<Entry, EntryPosition> {
        guard !query.allSatisfy(\.isWhitespace) else {
            throw JournalError.badInput(field: "query", message: "say what to search for")
        }
        try Self.checkSearch(query, field: "query")
        return try await page(first: first, after: after, filter: EntryFilter(text: query), withMedia: withMedia)
    }

    /// The longest search, in characters (Unicode scalars): a few sentences.
    public static var maxSearchLength: Int { 500 }
    /// The most words a search may hold (runs of letters, marks and digits, `or` included), about
    /// as PostgreSQL's parser counts its terms: far short of the tens of thousands that take it
    /// seconds and its stack.
    public static var maxSearchWords: Int { 32 }

    /// Refuses a search text longer than ``maxSearchLength`` or with more than ``maxSearchWords``.
    static func checkSearch(_ text: String, field: String) throws {
        guard text.unicodeScalars.count <= maxSearchLength else {
            throw JournalError.badInput(field: field, message: "a search can be at most \(maxSearchLength) characters long")
        }
        var words = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            let properties = scalar.properties
            let wordCharacter = properties.isAlphabetic || properties.numericType != nil
                || [.nonspacingMark, .spacingMark, .enclosingMark].contains(properties.generalCategory)
            if wordCharacter && !inWord { words += 1 }
            inWord = wordCharacter
        }
        guard words <= maxSearchWords else {
            throw JournalError.badInput(field: field, message: "a search can hold at most \(maxSearchWords) words")
        }
    }

    private func page(first: Int, after: EntryPosition?, filter: EntryFilter, withMedia: Bool) async throws -> Page<Entry, EntryPosition> {
        guard (0...Self.maxPageSize).contains(first) else {
            throw JournalError.badInput(field: "first", message: "must be 0 to \(Self.maxPageSize)")
        }
        // The first page starts past every entry; each filter left out is "any" (null).
        let position = after ?? .start
        let kinds = filter.kinds.flatMap { $0.isEmpty ? nil : $0.map(\.rawValue) }
        let tagIDs = filter.tagIDs.flatMap { $0.isEmpty ? nil : $0 }
        let text = filter.text.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        let rows = try await database.query(
            JournalStatements.entriesPage, position.day, position.createdAt, position.id,
            filter.from ?? .earliest, filter.to ?? .latest, kinds, tagIDs, text, first + 1)
        var decoded = try rows.prefix(first).map { try EntryRows.decode($0) }
        var entries = decoded.map(\.entry)
        if withMedia { try await EntryRows.attach(to: &entries, on: database) }
        for index in decoded.indices { decoded[index].entry = entries[index] }
        return Page(items: decoded.map { ($0.entry, $0.position) }, hasNextPage: rows.count > first)
    }

    /// Every day of `month` (`YYYY-MM`, 0001-01 to 9999-12), in order, with its number of live
    /// entries and the moods recorded: one statement.
    public func calendar(month: String) async throws -> [CalendarDay] {
        // Its first day, as the Date scalar reads days (0001-01 to 9999-12).
        guard let first = PostgresDate(month + "-01") else {
            throw JournalError.badInput(field: "month", message: "a month as YYYY-MM, e.g. 2026-11")
        }
        let next = first.month == 12
            ? PostgresDate(year: first.year + 1, month: 1, day: 1) : PostgresDate(year: first.year, month: first.month + 1, day: 1)
        var days = (first.daysSince2000..<next.daysSince2000).map {
            CalendarDay(day: PostgresDate(daysSince2000: $0), entryCount: 0, moods: [])
        }
        for row in try await database.query(JournalStatements.calendar, first, next) {
            let day = try row.decode(PostgresDate.self, at: 0)
            days[day.daysSince2000 - first.daysSince2000].entryCount = try row.decode(Int.self, at: 1)
            days[day.daysSince2000 - first.daysSince2000].moods = try row.decode([String].self, at: 2)
        }
        return days
    }
}
