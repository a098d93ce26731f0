import Foundation
import Postgres
import StorykeepTestSupport
import Testing

/// Every supported type, sent as a parameter and read back from the server.
@Suite struct CodingTests {
    /// Sends `value` as `$1::type` and decodes the single column.
    func roundTrip<T: PostgresCodable>(_ value: T, _ type: String, on tx: PostgresTransaction) async throws -> T {
        let rows = try await tx.query("select $1::\(type)", value)
        #expect(rows.count == 1)
        return try rows[0].decode(T.self, at: 0)
    }

    /// Expects `value` to come back from the server unchanged as a `type`.
    func expectRoundTrip<T: PostgresCodable & Equatable>(
        _ value: T, _ type: String, on tx: PostgresTransaction, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let back = try await roundTrip(value, type, on: tx)
        #expect(back == value, sourceLocation: sourceLocation)
    }

    @Test func scalarsRoundTrip() async throws {
        try await withAppPool(size: 1) { pool in
            try await pool.transaction { tx in
                for text in ["", "hello", "quote \" back\\slash", "ünïcödé ✓ 🙂", String(repeating: "x", count: 10_000)] {
                    try await expectRoundTrip(text, "text", on: tx)
                }
                for int in [0, 1, -1, Int.max, Int.min] { try await expectRoundTrip(int, "int8", on: tx) }
                for int in [Int32.max, Int32.min, 7] { try await expectRoundTrip(int, "int4", on: tx) }
                for int in [Int16.max, Int16.min] { try await expectRoundTrip(int, "int2", on: tx) }
                try await expectRoundTrip(Int64.max, "int8", on: tx)
                for double in [0.0, -1.5, 3.141592653589793, 1e300, -Double.leastNonzeroMagnitude, 2.5e-308, .infinity, -.infinity] {
                    try await expectRoundTrip(double, "float8", on: tx)
                }
                let nan = try await roundTrip(Double.nan, "float8", on: tx)
                #expect(nan.isNaN)
                try await expectRoundTrip(true, "bool", on: tx)
                try await expectRoundTrip(false, "bool", on: tx)
                let uuid = UUID()
                try await expectRoundTrip(uuid, "uuid", on: tx)
            }
        }
    }

    @Test func datesRoundTrip() async throws {
        try await withAppPool(size: 1) { pool in
            try await pool.transaction { tx in
                for seconds in [0.0, 1_700_000_000.123456, -1_000_000_000.5, 946_684_800, 4_102_444_800.999999] {
                    let date = Date(timeIntervalSince1970: seconds)
                    let back = try await roundTrip(date, "timestamptz", on: tx)
                    #expect(abs(back.timeIntervalSince(date)) < 0.000_001)
                }
                // The server reads our text as the instant we mean, whatever its time zone.
                let epoch = try await tx.query(
                    "select extract(epoch from $1::timestamptz)::float8", Date(timeIntervalSince1970: 1_234_567_890.25))
                #expect(try epoch[0].decode(Double.self, at: 0) == 1_234_567_890.25)

                for day in [
                    PostgresDate(year: 2024, month: 2, day: 29), PostgresDate(year: 2000, month: 1, day: 1),
                    PostgresDate(year: 1999, month: 12, day: 31), PostgresDate(year: 1, month: 1, day: 1),
                    PostgresDate(year: 0, month: 6, day: 15), PostgresDate(year: 9999, month: 12, day: 31),
                ] {
                    try await expectRoundTrip(day, "date", on: tx)
                    let text = try await tx.query("select $1::date::text", day)
                    #expect(try text[0].decode(String.self, at: 0) == day.description)
                }
                let infinite = try await tx.query("select 'infinity'::timestamptz, '-infinity'::timestamptz")
                #expect(try infinite[0].decode(Date.self, at: 0) == .distantFuture)
                #expect(try infinite[0].decode(Date.self, at: 1) == .distantPast)
            }
        }
    }

    @Test func exactTimestampsRoundTripToTheEndsOfPostgresRange() async throws {
        try await withAppPool(size: 1) { pool in
            try await pool.transaction { tx in
                let range = PostgresTimestamp.validRange
                for micros in [0, 1, -1, 817_000_000_123_457, range.lowerBound, range.upperBound - 1] {
                    let timestamp = try #require(PostgresTimestamp(microsecondsSince2000: micros))
                    try await expectRoundTrip(timestamp, "timestamptz", on: tx)
                    // Bound exactly: the very microsecond (the comparison's own arithmetic goes through
                    // a double, exact below 2^52).
                    guard abs(micros) < 1 << 52 else { continue }
                    let same = try await tx.query(
                        "select $1::timestamptz = timestamptz '2000-01-01 00:00+00' + $2::int8 * interval '1 microsecond'",
                        timestamp, micros)
                    #expect(try same[0].decode(Bool.self, at: 0), "\(micros)")
                }
                // PostgreSQL's own ends and beyond: no such value to make or to read.
                #expect(PostgresTimestamp(microsecondsSince2000: range.upperBound) == nil)
                #expect(PostgresTimestamp(microsecondsSince2000: range.lowerBound - 1) == nil)
                #expect(PostgresTimestamp(microsecondsSince2000: .max) == nil)
                let infinite = try await tx.query("select 'infinity'::timestamptz")
                #expect(throws: PostgresError.self) { try infinite[0].decode(PostgresTimestamp.self, at: 0) }
                // The ends of the date range are PostgreSQL's too.
                for days in [PostgresDate.validDaysSince2000.lowerBound, PostgresDate.validDaysSince2000.upperBound - 1] {
                    try await expectRoundTrip(PostgresDate(daysSince2000: days), "date", on: tx)
                }
            }
        }
    }

    @Test func aDateBeyondMicrosecondsIsAnErrorNotATrap() {
        for seconds in [Double.infinity, -.infinity, .nan, 1e300, -1e300, 9.3e12] {
            #expect(throws: PostgresError.self) { try Date(timeIntervalSinceReferenceDate: seconds).postgresParameter() }
        }
    }

    @Test func calendarArithmetic() {
        // Every day from 1900 to 2100 converts to days and back, one apart from the next.
        var previous = PostgresDate(year: 1899, month: 12, day: 31).daysSince2000
        var date = PostgresDate(year: 1900, month: 1, day: 1)
        while date.year < 2100 {
            #expect(date.daysSince2000 == previous + 1)
            #expect(PostgresDate(daysSince2000: date.daysSince2000) == date)
            previous = date.daysSince2000
            date = PostgresDate(daysSince2000: previous + 1)
        }
        #expect(PostgresDate(year: 2000, month: 1, day: 1).daysSince2000 == 0)
        #expect(PostgresDate("2023-02-29") == nil)
        #expect(PostgresDate("2024-02-29") == PostgresDate(year: 2024, month: 2, day: 29))
        // As PostgreSQL reads dates: four ASCII digits, no year 0000, no signs.
        #expect(PostgresDate("0001-01-01") == PostgresDate(year: 1, month: 1, day: 1))
        #expect(PostgresDate("9999-12-31") == PostgresDate(year: 9999, month: 12, day: 31))
        for text in ["0000-01-01", "+999-01-01", "-999-01-01", "10000-01-01", "２０２４-01-01", "2024-+1-01", "2024-01-+1", "2024-1-01"] {
            #expect(PostgresDate(text) == nil, "\(text)")
        }
    }

    @Test func byteaJSONAndNumeric() async throws {
        try await withAppPool(size: 1) { pool in
            try await pool.transaction { tx in
                let bytes: [UInt8] = [0, 1, 2, 127, 128, 255, 0]
                try await expectRoundTrip(bytes, "bytea", on: tx)
                try await expectRoundTrip([UInt8](), "bytea", on: tx)

                let json = #"{"b": [1, 2], "a": "x"}"#
                let raw = try await tx.query("select $1::jsonb, $2::json", json, json)
                #expect(try raw[0].decode(String.self, at: 0) == #"{"a": "x", "b": [1, 2]}"#)
                #expect(try raw[0].decode(String.self, at: 1) == #"{"b": [1, 2], "a": "x"}"#)

                struct Config: Codable, Sendable, Equatable { var a: String; var b: [Int] }
                let config = Config(a: "ü", b: [3])
                let decoded = try await tx.query("select $1::jsonb", PostgresJSON(config))
                #expect(try decoded[0].decodeJSON(Config.self, at: 0) == config)

                let numeric = try await tx.query(
                    "select 12345678901234567890.000123::numeric, (-0.5)::numeric, 0::numeric, 10000::numeric, 'NaN'::numeric, sum(x) from unnest(array[9223372036854775807::int8, -1]) x")
                #expect(try numeric[0].decode(String.self, at: 0) == "12345678901234567890.000123")
                #expect(try numeric[0].decode(String.self, at: 1) == "-0.5")
                #expect(try numeric[0].decode(String.self, at: 2) == "0")
                #expect(try numeric[0].decode(String.self, at: 3) == "10000")
                #expect(try numeric[0].decode(String.self, at: 4) == "NaN")
                #expect(try numeric[0].decode(Double.self, at: 1) == -0.5)
                #expect(try numeric[0].decode(Int.self, at: 5) == Int.max - 1)
            }
        }
    }

    @Test func arraysRoundTrip() async throws {
        try await withAppPool(size: 1) { pool in
            try await pool.transaction { tx in
                let texts = ["a", "", "with \"quotes\" and \\", "NULL", "{braces}, commas", "ü"]
                try await expectRoundTrip(texts, "text[]", on: tx)
                try await expectRoundTrip([String](), "text[]", on: tx)
                try await expectRoundTrip([1, -2, Int.max], "int8[]", on: tx)
                try await expectRoundTrip([Int32(4), 5], "int4[]", on: tx)
                let uuids = [UUID(), UUID()]
                try await expectRoundTrip(uuids, "uuid[]", on: tx)
                let withNulls: [String?] = ["x", nil, "y"]
                try await expectRoundTrip(withNulls, "text[]", on: tx)
                let blobs: [[UInt8]] = [[1, 2], [], [255]]
                try await expectRoundTrip(blobs, "bytea[]", on: tx)
                let days = [PostgresDate(year: 2025, month: 1, day: 2)]
                try await expectRoundTrip(days, "date[]", on: tx)
                // An array reaches `= any($1)` as one parameter.
                let found = try await tx.query("select count(*) from unnest(array[1, 2, 3]) x where x = any($1)", [2, 3])
                #expect(try found[0].decode(Int.self, at: 0) == 2)
            }
        }
    }

    @Test func nullsDecodeAsOptionals() async throws {
        try await withAppPool(size: 1) { pool in
            try await pool.transaction { tx in
                let none: String? = nil
                let rows = try await tx.query(
                    "select $1::text, $2::int8, null::bool, null::uuid, null::timestamptz, null::date, null::bytea, null::jsonb, null::text[], $3::int4",
                    none, nil, Int32?.some(3))
                let row = rows[0]
                #expect(try row.decode(String?.self, at: 0) == nil)
                #expect(try row.decode(Int?.self, at: 1) == nil)
                #expect(try row.decode(Bool?.self, at: 2) == nil)
                #expect(try row.decode(UUID?.self, at: 3) == nil)
                #expect(try row.decode(Date?.self, at: 4) == nil)
                #expect(try row.decode(PostgresDate?.self, at: 5) == nil)
                #expect(try row.decode([UInt8]?.self, at: 6) == nil)
                #expect(try row.decode(String?.self, at: 7) == nil)
                #expect(try row.decode([String]?.self, at: 8) == nil)
                #expect(try row.decode(Int32?.self, at: 9) == 3)
                #expect(row.isNull(at: 0) && !row.isNull(at: 9))
                let error = try #require(throws: PostgresError.self) { try row.decode(String.self, at: 0) }
                #expect(error.kind == .decoding)
            }
        }
    }

    @Test func decodingByNameAndMismatches() async throws {
        try await withAppPool(size: 1) { pool in
            let rows = try await pool.transaction { tx in
                try await tx.query("select 1::int4 as one, 'two' as two, 300::int4 as big")
            }
            #expect(rows.columns.map(\.name) == ["one", "two", "big"])
            #expect(try rows[0].decode(Int.self, column: "one") == 1)
            #expect(try rows[0].decode(String.self, column: "two") == "two")
            #expect(throws: PostgresError.self) { try rows[0].decode(Int.self, column: "two") }
            #expect(throws: PostgresError.self) { try rows[0].decode(Int.self, column: "three") }
            #expect(throws: PostgresError.self) { try rows[0].decode(Int8OutOfRange.self, column: "big") }
            #expect(throws: PostgresError.self) { try rows[0].decode(UUID.self, at: 0) }
        }
    }

    typealias Int8OutOfRange = UInt8

    /// Sent and received in binary (no hex text); its speed is measured by benchmarks, not here.
    @Test(.timeLimit(.minutes(1))) func tenMegabyteBytea() async throws {
        try await withAppPool(size: 1) { pool in
            // Ten different mebibytes, all 256 byte values in each.
            var payload: [UInt8] = []
            payload.reserveCapacity(10 * 1024 * 1024)
            let mebibyte = (0..<1024 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
            for shift in 0..<10 { payload.append(contentsOf: mebibyte.dropFirst(shift) + mebibyte.prefix(shift)) }
            let (back, length) = try await pool.transaction { tx in
                let rows = try await tx.query("select $1::bytea, length($1::bytea)", payload)
                return (try rows[0].decode([UInt8].self, at: 0), try rows[0].decode(Int.self, at: 1))
            }
            #expect(length == payload.count)
            #expect(Data(back) == Data(payload))  // memcmp: element-wise == is slow in debug builds
        }
    }

    /// Text holding U+0000 is refused before anything is sent, never cut short at the NUL (libpq
    /// sends text NUL-terminated): as a parameter, in an array, and in a transaction's settings.
    @Test func textHoldingNULIsRefusedNotTruncated() async throws {
        func expectRefused(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async {
            do {
                try await body()
                Issue.record("text with a NUL was sent", sourceLocation: sourceLocation)
            } catch let error as PostgresError {
                #expect(error.kind == .invalidParameter, "\(error)", sourceLocation: sourceLocation)
                #expect(error.message.contains("NUL"), "\(error)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(error)", sourceLocation: sourceLocation)
            }
        }
        try await withAppPool(size: 1) { pool in
            await expectRefused { _ = try await pool.transaction { tx in try await tx.query("select $1::text", "kept\u{0}dropped") } }
            await expectRefused { _ = try await pool.transaction { tx in try await tx.query("select $1::text[]", ["a", "b\u{0}"]) } }
            await expectRefused { _ = try await pool.transaction(settings: ["storykeep.login_name": "probey1\u{0}zzz"]) { _ in } }
            // The one connection is still there and usable, in and out of a transaction.
            let (text, setting) = try await pool.transaction(settings: ["storykeep.login_name": "probey1"]) { tx in
                let text = try await tx.query("select $1::text", "kept")[0].decode(String.self, at: 0)
                await expectRefused { _ = try await tx.query("select $1::text", "\u{0}") }
                let setting = try await tx.query("select current_setting('storykeep.login_name')")[0].decode(String.self, at: 0)
                return (text, setting)
            }
            #expect(text == "kept")
            #expect(setting == "probey1")
        }
    }
}
