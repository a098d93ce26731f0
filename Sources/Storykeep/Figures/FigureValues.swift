import GraphQL
import Postgres
import StorykeepCore
import StorykeepJournals

/// A count as the figures show it (the GraphQL type `FigureCount`): any count under
/// ``threshold``, none included, is only `"<5"`, so that no child can be singled out.
struct FigureCount: Sendable, Equatable, GraphQLFieldReadable {
    /// The smallest count shown as a number.
    static let threshold = 5

    let count: Int

    init(_ count: Int) {
        self.count = count
    }

    var value: Int? { count < Self.threshold ? nil : count }
    var text: String { value.map(String.init) ?? "<\(Self.threshold)" }

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "text": text
        case "value": value
        default: nil
        }
    }
}

/// The days `agencyFigures(from:to:)` counts, checked: `to` not before `from`, at most
/// ``maxDays`` days.
struct FigureRange: Sendable {
    static let maxDays = 366

    let first: PostgresDate
    let last: PostgresDate

    init(from: String?, to: String?) throws {
        // The Date scalar has checked both.
        guard let first = from.flatMap(PostgresDate.init) else { throw GraphQLError.badUserInput(field: "from", "from: a day, YYYY-MM-DD.") }
        guard let last = to.flatMap(PostgresDate.init) else { throw GraphQLError.badUserInput(field: "to", "to: a day, YYYY-MM-DD.") }
        guard last >= first else { throw GraphQLError.badUserInput(field: "to", "to: the last day counted, not before from.") }
        guard last.daysSince2000 - first.daysSince2000 < Self.maxDays else {
            throw GraphQLError.badUserInput(field: "to", "to: at most \(Self.maxDays) days from from, both counted.")
        }
        self.first = first
        self.last = last
    }

    /// The Mondays of the weeks the range overlaps, oldest first.
    var weekStarts: [PostgresDate] {
        let start = Self.monday(of: first).daysSince2000
        return stride(from: start, through: last.daysSince2000, by: 7).map(PostgresDate.init(daysSince2000:))
    }

    /// The Monday on or before `day` (2000-01-03, day 2, was a Monday).
    static func monday(of day: PostgresDate) -> PostgresDate {
        let days = day.daysSince2000
        return PostgresDate(daysSince2000: days - ((days - 2) % 7 + 7) % 7)
    }
}

/// The figures of a range (the GraphQL type `AgencyFigures`).
struct AgencyFigures: Sendable, GraphQLFieldReadable {
    var range: FigureRange
    var activeByWeek: [PostgresDate: Int] = [:]
    var entriesByKind: [EntryKind: Int] = [:]
    /// Nil where the tenant has no sharing.
    var shares: Int?
    var alertsRaised = 0
    var alertsAcknowledged = 0
    var medianSecondsToAcknowledge: Double?

    /// The median in minutes, to a tenth, when at least ``FigureCount/threshold`` alerts were
    /// acknowledged: a median of fewer could tell how long one child's alert waited.
    var medianMinutesToAcknowledge: Double? {
        guard alertsAcknowledged >= FigureCount.threshold, let seconds = medianSecondsToAcknowledge else { return nil }
        return (seconds / 6).rounded() / 10
    }

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "from": range.first
        case "to": range.last
        case "weeklyActiveYoungPeople":
            range.weekStarts.map { WeekFigure(weekStart: $0, youngPeople: FigureCount(activeByWeek[$0] ?? 0)) }
        case "checkIns": FigureCount(entriesByKind[.mood] ?? 0)
        case "entriesByKind":
            EntryKind.allCases.filter { $0 != .mood }.map { KindFigure(kind: $0, entries: FigureCount(entriesByKind[$0] ?? 0)) }
        case "shares": shares.map(FigureCount.init)
        case "safetyAlertsRaised": FigureCount(alertsRaised)
        case "safetyAlertsAcknowledged": FigureCount(alertsAcknowledged)
        case "medianMinutesToAcknowledge": medianMinutesToAcknowledge
        default: nil
        }
    }
}

/// One week's active young people (the GraphQL type `WeekFigure`).
struct WeekFigure: Sendable, GraphQLFieldReadable {
    var weekStart: PostgresDate
    var youngPeople: FigureCount

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "weekStart": weekStart
        case "youngPeople": youngPeople
        default: nil
        }
    }
}

/// The entries of one kind (the GraphQL type `EntryKindFigure`).
struct KindFigure: Sendable, GraphQLFieldReadable {
    var kind: EntryKind
    var entries: FigureCount

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "kind": kind.rawValue
        case "entries": entries
        default: nil
        }
    }
}
