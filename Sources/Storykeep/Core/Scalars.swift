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
    /// are written here directly (the format style cost 1.5 % of a page's CPU); others go to it.
    public static func string(_ date: Date) -> String {
        // Foundation keeps seconds since 2001 and truncates their fraction to milliseconds.
        let sinceReference = date.timeIntervalSinceReferenceDate
        let seconds = sinceReference.rounded(.down)
        guard seconds >= -978_307_200, seconds < 252_423_993_600 else { return date.formatted(style) }
        let milliseconds = min(999, Int64(((sinceReference - seconds) * 1000).rounded(.down)))
        let sinceEpoch = (Int64(seconds) + 978_307_200) * 1000 + milliseconds
        let (year, month, day) = civilDate(daysSinceEpoch: sinceEpoch / 86_400_000)
        let ofDay = sinceEpoch % 86_400_000
        return String(unsafeUninitializedCapacity: 24) { text in
            func put(_ value: Int64, _ digits: Int, at start: Int) {
                var value = value
                for index in stride(from: start + digits - 1, through: start, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 0)
            put(month, 2, at: 5)
            put(day, 2, at: 8)
            put(ofDay / 3_600_000, 2, at: 11)
            put(ofDay / 60_000 % 60, 2, at: 14)
            put(ofDay / 1000 % 60, 2, at: 17)
            put(ofDay % 1000, 3, at: 20)
            for (index, mark) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "."), (23, "Z")] as [(Int, Unicode.Scalar)] {
                text[index] = UInt8(ascii: mark)
            }
            return 24
        }
    }

    /// The proleptic Gregorian year, month and day of a day counted from 1970-01-01 (0 or more).
    private static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        // Days since 0000-03-01, in 400-year eras of 146,097 days; a year from March, so that
        // February's leap day comes last.
        let sinceMarch = days + 719_468
        let era = sinceMarch / 146_097
        let dayOfEra = sinceMarch - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
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
