public import Foundation
public import GraphQL
import Postgres

/// The core of every tenant's schema (`Schema/core.graphql`): the root types the modules extend,
/// the scalars they share (`Date`, `DateTime`, `Upload`) and Relay's `PageInfo`.
public enum CoreSchema {
    /// Its SDL file in `Schema/`, composed before every module's.
    public static let sdl = "core"

    /// Gives the shared scalars their coercion.
    public static func configure(_ schema: GraphQLSchema) {
        DateScalar.configure(in: schema)
        GraphQLUpload.configureScalar(in: schema)
    }
}

/// The `DateTime` scalar's text: ISO 8601 in UTC with milliseconds.
public enum DateTimeScalar {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `2026-11-24T10:11:12.345Z`: what Foundation's `ISO8601FormatStyle` (with fractional
    /// seconds) writes, digit for digit. Every entry of a page has one, so the years 1970 to 9999
    /// are written here directly (the format style cost 1.5 % of a page's CPU), their day by
    /// `PostgresDate`'s calendar; others go to the format style.
    public static func string(_ date: Date) -> String {
        // Foundation keeps seconds since 2001 and truncates their fraction to milliseconds.
        let sinceReference = date.timeIntervalSinceReferenceDate
        let seconds = sinceReference.rounded(.down)
        guard seconds >= -Double(secondsFrom1970To2001), seconds < 252_423_993_600 else { return date.formatted(style) }
        let milliseconds = min(999, Int(((sinceReference - seconds) * 1000).rounded(.down)))
        let sinceEpoch = (Int(seconds) + secondsFrom1970To2001) * 1000 + milliseconds
        let day = PostgresDate(daysSince2000: sinceEpoch / 86_400_000 - daysFrom1970To2000)
        let ofDay = sinceEpoch % 86_400_000
        return String(unsafeUninitializedCapacity: 24) { text in
            func put(_ value: Int, _ digits: Int, at start: Int) {
                var value = value
                for index in stride(from: start + digits - 1, through: start, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(day.year, 4, at: 0)
            put(day.month, 2, at: 5)
            put(day.day, 2, at: 8)
            put(ofDay / 3_600_000, 2, at: 11)
            put(ofDay / 60_000 % 60, 2, at: 14)
            put(ofDay / 1000 % 60, 2, at: 17)
            put(ofDay % 1000, 3, at: 20)
            for (index, mark) in marks { text[index] = mark }
            return 24
        }
    }

    /// The separators of `YYYY-MM-DDTHH:MM:SS.mmmZ`, by position.
    private static let marks: [(Int, UInt8)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "."), (23, "Z")].map {
        ($0.0, UInt8(ascii: $0.1))
    }
    private static let secondsFrom1970To2001 = 978_307_200
    private static let daysFrom1970To2000 = 10_957
}

/// The `Date` scalar: a calendar day, `YYYY-MM-DD`, a real one (no 31 June).
enum DateScalar {
    static func configure(in schema: GraphQLSchema) {
        guard case .scalar(let scalar) = schema.type(named: "Date") else { return }
        scalar.parseValue = { value in
            guard case .string(let text) = value, PostgresDate(text) != nil else {
                throw GraphQLError(message: "Date must be a day written YYYY-MM-DD, e.g. 2026-11-24.")
            }
            return value
        }
        scalar.parseLiteral = { literal in
            guard case .string(let text) = literal, PostgresDate(text.value) != nil else {
                throw GraphQLError(message: "Date must be a day written YYYY-MM-DD, e.g. 2026-11-24.")
            }
            return .string(text.value)
        }
        scalar.serialize = { value in
            switch value {
            case let value as GraphQLValue: return value
            case let date as PostgresDate: return .string(date.description)
            default: throw GraphQLError(message: "Date cannot represent \(value).")
            }
        }
    }
}
