/// A calendar date with no time and no time zone: PostgreSQL's `date`. A journal's day is a
/// `PostgresDate`, not a `Date`, so that it never shifts with the reader's time zone.
///
/// Years follow the proleptic Gregorian calendar with astronomical numbering (year 0 is 1 BC), as
/// PostgreSQL does internally.
public struct PostgresDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` in ASCII digits, from 0001-01-01 to 9999-12-31; `nil` if malformed or
    /// not a real calendar day. Like PostgreSQL's own input, there is no year 0000 (the year
    /// before 0001 is 0001 BC).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
            let year = Int(parts[0]), year >= 1, let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
        guard PostgresDate(daysSince2000: daysSince2000) == self else { return nil }
    }

    /// The days PostgreSQL's `date` holds, counted from 2000-01-01: 4714-11-24 BC up to
    /// 5874897-12-31 (`DATETIME_MIN_JULIAN` and `DATE_END_JULIAN` of its `timestamp.h`).
    public static let validDaysSince2000: Range<Int> = -2_451_545..<2_145_031_949

    /// The first and the last day PostgreSQL's `date` holds (4714-11-24 BC and 5874897-12-31),
    /// infinities aside: bounds that leave out no day, for a range with no bound of its own.
    public static let earliest = PostgresDate(daysSince2000: validDaysSince2000.lowerBound)
    public static let latest = PostgresDate(daysSince2000: validDaysSince2000.upperBound - 1)

    /// The date `days` after 2000-01-01 (PostgreSQL's epoch); negative goes before it. `days`
    /// within ``validDaysSince2000`` (what PostgreSQL gives); the arithmetic overflows far beyond.
    public init(daysSince2000 days: Int) {
        // Days from 0000-03-01, counting in 400-year eras of 146,097 days, with the year starting
        // in March so that the leap day falls at its end.
        let shifted = days + 730_425
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 2000-01-01; the inverse of `init(daysSince2000:)`.
    public var daysSince2000: Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 730_425
    }

    /// `YYYY-MM-DD` (ISO 8601); years before 1 AD in PostgreSQL's `BC` form.
    public var description: String { dayText + eraSuffix }

    /// `YYYY-MM-DD`, with the year counted in the era `eraSuffix` names.
    var dayText: String {
        pad(year >= 1 ? year : 1 - year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    var eraSuffix: String { year >= 1 ? "" : " BC" }

    public static func < (a: Self, b: Self) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

extension PostgresDate: PostgresCodable {
    public func postgresParameter() throws -> PostgresParameter? { .text(description) }

    public static func postgresDecode(_ value: PostgresValue) throws -> PostgresDate {
        guard value.type == .date else { throw value.mismatch(PostgresDate.self) }
        let days = try value.integer(Int32.self)
        guard days != .max, days != .min else { throw value.mismatch(PostgresDate.self, "infinite date") }
        return PostgresDate(daysSince2000: Int(days))
    }
}

extension PostgresDate: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = PostgresDate(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected YYYY-MM-DD, got \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
