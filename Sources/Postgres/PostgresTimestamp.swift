/// A moment exactly as PostgreSQL stores a `timestamptz`: whole microseconds since
/// 2000-01-01 00:00 UTC. A `Date` holds a `Double` and may round a microsecond away; this does
/// not, so a value read from a row compares equal to that row when bound again (what a page's
/// position needs).
///
/// Only finite moments within PostgreSQL's range can be made, so binding one never fails with
/// "timestamp out of range"; reading `infinity` or `-infinity` is a decoding error.
public struct PostgresTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since 2000-01-01 00:00 UTC (PostgreSQL's epoch).
    public let microsecondsSince2000: Int64

    /// The moments PostgreSQL accepts: from 4714-11-24 BC 00:00 UTC up to, not including,
    /// 294277-01-01 00:00 UTC (`MIN_TIMESTAMP` and `END_TIMESTAMP` of its `timestamp.h`).
    public static let validRange: Range<Int64> = -211_813_488_000_000_000..<9_223_371_331_200_000_000

    /// The last moment PostgreSQL's `timestamptz` holds (294276-12-31 23:59:59.999999 UTC),
    /// infinity aside: a bound that leaves out no moment.
    public static let latest = PostgresTimestamp(microsecondsSince2000: validRange.upperBound - 1)!

    /// `nil` outside ``validRange``.
    public init?(microsecondsSince2000: Int64) {
        guard Self.validRange.contains(microsecondsSince2000) else { return nil }
        self.microsecondsSince2000 = microsecondsSince2000
    }

    public var description: String { "\(microsecondsSince2000) µs since 2000-01-01 UTC" }

    public static func < (a: Self, b: Self) -> Bool { a.microsecondsSince2000 < b.microsecondsSince2000 }
}

extension PostgresTimestamp: PostgresCodable {
    /// Sent in binary, as `timestamptz`: the eight bytes PostgreSQL keeps, nothing parsed.
    public func postgresParameter() throws -> PostgresParameter? {
        withUnsafeBytes(of: microsecondsSince2000.bigEndian) { .binary(Array($0), type: .timestamptz) }
    }

    /// Reads `timestamptz` (and `timestamp`, taken as UTC).
    public static func postgresDecode(_ value: PostgresValue) throws -> PostgresTimestamp {
        guard value.type == .timestamptz || value.type == .timestamp else { throw value.mismatch(PostgresTimestamp.self) }
        guard let timestamp = PostgresTimestamp(microsecondsSince2000: try value.integer(Int64.self)) else {
            throw value.mismatch(PostgresTimestamp.self, "infinite timestamp")
        }
        return timestamp
    }
}
