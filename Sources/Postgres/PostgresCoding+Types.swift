import Foundation

// Conformances of the Swift types Storykeep stores. Parameters are sent as text (the server
// parses them as the placeholder's inferred type); results arrive in binary.

extension String: PostgresCodable {
    public func postgresParameter() throws -> PostgresParameter? { .text(self) }

    public static func postgresDecode(_ value: PostgresValue) throws -> String {
        switch value.type {
        case .jsonb:
            // jsonb's binary form is a version byte (1) followed by the JSON text.
            guard value.bytes.first == 1 else { throw value.mismatch(String.self, "unknown jsonb version") }
            return String(decoding: UnsafeRawBufferPointer(rebasing: value.bytes.dropFirst()), as: UTF8.self)
        case .uuid:
            return try UUID.postgresDecode(value).lowercased
        case .numeric:
            return try numericText(value)
        case let type where type.isTextual:
            return value.string
        default:
            throw value.mismatch(String.self, "cast the column to text in SQL")
        }
    }
}

extension Bool: PostgresCodable {
    public func postgresParameter() throws -> PostgresParameter? { .text(self ? "t" : "f") }

    public static func postgresDecode(_ value: PostgresValue) throws -> Bool {
        guard value.type == .bool, value.bytes.count == 1 else { throw value.mismatch(Bool.self) }
        return value.bytes[0] != 0
    }
}

/// Integers decode from any integer column (and integral numerics, as `sum(bigint)` returns),
/// failing rather than truncating when the value does not fit.
public protocol PostgresInteger: FixedWidthInteger, PostgresCodable {}

extension PostgresInteger {
    public func postgresParameter() throws -> PostgresParameter? { .text(String(self)) }

    public static func postgresDecode(_ value: PostgresValue) throws -> Self {
        let wide: Int64?
        switch value.type {
        case .int2: wide = Int64(try value.integer(Int16.self))
        case .int4: wide = Int64(try value.integer(Int32.self))
        case .int8: wide = try value.integer(Int64.self)
        case .oidType: wide = Int64(try value.integer(UInt32.self))
        case .numeric: wide = Int64(try numericText(value))
        default: throw value.mismatch(Self.self)
        }
        guard let wide, let exact = Self(exactly: wide) else { throw value.mismatch(Self.self, "out of range") }
        return exact
    }
}

extension Int: PostgresInteger {}
extension Int64: PostgresInteger {}
extension Int32: PostgresInteger {}
extension Int16: PostgresInteger {}

extension UInt8: PostgresInteger {
    /// `[UInt8]` is `bytea`.
    public static func postgresArrayParameter(_ elements: [UInt8]) throws -> PostgresParameter {
        .binary(elements, type: .bytea)
    }

    public static func postgresDecodeArray(_ value: PostgresValue) throws -> [UInt8] {
        guard value.type == .bytea else { throw value.mismatch([UInt8].self, "expected bytea") }
        return Array(value.bytes)
    }
}

extension Double: PostgresCodable {
    public func postgresParameter() throws -> PostgresParameter? {
        if isNaN { return .text("NaN") }
        if isInfinite { return .text(self < 0 ? "-Infinity" : "Infinity") }
        return .text(description)
    }

    public static func postgresDecode(_ value: PostgresValue) throws -> Double {
        switch value.type {
        case .float8: return Double(bitPattern: try value.integer(UInt64.self))
        case .float4: return Double(Float(bitPattern: try value.integer(UInt32.self)))
        case .int2, .int4, .int8: return Double(try Int64.postgresDecode(value))
        case .numeric:
            guard let double = Double(try numericText(value)) else { throw value.mismatch(Double.self) }
            return double
        default: throw value.mismatch(Double.self)
        }
    }
}

extension UUID: PostgresCodable {
    /// Sent as text, which PostgreSQL reads as `uuid` or as `text` from context.
    public func postgresParameter() throws -> PostgresParameter? {
        let text = [UInt8](unsafeUninitializedCapacity: 36) { buffer, initialized in
            writeText(into: buffer, at: 0)
            initialized = 36
        }
        return PostgresParameter(bytes: text, binaryType: nil)
    }

    /// `{a,b}`: a uuid's text needs no quotes in an array literal.
    public static func postgresArrayParameter(_ elements: [UUID]) throws -> PostgresParameter {
        let count = elements.isEmpty ? 2 : 1 + elements.count * 37
        let literal = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer[0] = ASCII.openBrace
            for (index, element) in elements.enumerated() {
                element.writeText(into: buffer, at: 1 + index * 37)
                buffer[index * 37 + 37] = index == elements.count - 1 ? ASCII.closeBrace : ASCII.comma
            }
            if elements.isEmpty { buffer[1] = ASCII.closeBrace }
            initialized = count
        }
        return PostgresParameter(bytes: literal, binaryType: nil)
    }

    /// The canonical lower-case form: how ids appear in the API and go to PostgreSQL. Written
    /// byte by byte: Foundation's `uuidString` formats through `sprintf` and is upper-case.
    public var lowercased: String {
        String(unsafeUninitializedCapacity: 36) { text in
            writeText(into: text, at: 0)
            return 36
        }
    }

    /// Writes the 36 bytes of the lower-case form at `start`.
    private func writeText(into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        withUnsafeBytes(of: uuid) { bytes in
            var end = start
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    buffer[end] = UInt8(ascii: "-")
                    end += 1
                }
                buffer[end] = hexDigits[Int(byte >> 4)]
                buffer[end + 1] = hexDigits[Int(byte & 0x0f)]
                end += 2
            }
        }
    }

    public static func postgresDecode(_ value: PostgresValue) throws -> UUID {
        guard value.type == .uuid, value.bytes.count == 16 else { throw value.mismatch(UUID.self) }
        return UUID(uuid: value.bytes.loadUnaligned(as: uuid_t.self))
    }
}

/// Microseconds between 2000-01-01 (PostgreSQL's epoch) and 2001-01-01 (Foundation's).
private let postgresToReferenceMicroseconds: Int64 = 366 * 86_400 * 1_000_000

extension Date: PostgresCodable {
    /// Sent as ISO 8601 in UTC with microseconds, PostgreSQL's own precision. A moment outside
    /// what 64-bit microseconds hold (or not finite) is an `.encoding` error, not a trap.
    public func postgresParameter() throws -> PostgresParameter? {
        guard let sinceReference = Int64(exactly: (timeIntervalSinceReferenceDate * 1_000_000).rounded()),
            case (let sincePostgresEpoch, false) = sinceReference.addingReportingOverflow(postgresToReferenceMicroseconds)
        else { throw PostgresError(kind: .encoding, message: "\(timeIntervalSinceReferenceDate) s since 2001 is out of range for timestamptz") }
        let (days, micros) = floorDivide(sincePostgresEpoch, 86_400_000_000)
        let date = PostgresDate(daysSince2000: Int(days))
        let seconds = micros / 1_000_000
        let time = pad(Int(seconds / 3600), 2) + ":" + pad(Int(seconds / 60 % 60), 2) + ":"
            + pad(Int(seconds % 60), 2) + "." + pad(Int(micros % 1_000_000), 6)
        return .text(date.dayText + " " + time + "+00" + date.eraSuffix)
    }

    /// Reads `timestamptz`, `timestamp` (taken as UTC) and `date` (midnight UTC). PostgreSQL's
    /// infinities become `distantPast` and `distantFuture`.
    public static func postgresDecode(_ value: PostgresValue) throws -> Date {
        let micros: Int64
        switch value.type {
        case .timestamptz, .timestamp: micros = try value.integer(Int64.self)
        case .date:
            let days = try value.integer(Int32.self)
            if days == .max { return .distantFuture }
            if days == .min { return .distantPast }
            micros = Int64(days) * 86_400_000_000
        default: throw value.mismatch(Date.self)
        }
        if micros == .max { return .distantFuture }
        if micros == .min { return .distantPast }
        return Date(timeIntervalSinceReferenceDate: Double(micros - postgresToReferenceMicroseconds) / 1_000_000)
    }
}

/// A `json` or `jsonb` value carried as a Swift `Codable` type (encoded with `JSONEncoder`).
/// To read or write the raw JSON text, use `String`.
public struct PostgresJSON<Value: Sendable>: Sendable {
    public var value: Value
    public init(_ value: Value) { self.value = value }
}

extension PostgresJSON: PostgresEncodable where Value: Encodable {
    public func postgresParameter() throws -> PostgresParameter? {
        .text(String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
    }
}

extension PostgresJSON: PostgresDecodable where Value: Decodable {
    public static func postgresDecode(_ value: PostgresValue) throws -> Self {
        guard value.type == .json || value.type == .jsonb else { throw value.mismatch(Self.self) }
        let text = try String.postgresDecode(value)
        do {
            return Self(try JSONDecoder().decode(Value.self, from: Data(text.utf8)))
        } catch {
            throw value.mismatch(Self.self, "\(error)")
        }
    }
}

/// The decimal text of a binary `numeric`: base-10000 digits with a weight (the power of 10000 of
/// the first digit), a sign and a display scale.
private func numericText(_ value: PostgresValue) throws -> String {
    let count = Int(try value.integer(Int16.self, at: 0))
    let weight = Int(try value.integer(Int16.self, at: 2))
    let sign = try value.integer(UInt16.self, at: 4)
    let scale = Int(try value.integer(Int16.self, at: 6))
    switch sign {
    case 0xC000: return "NaN"
    case 0xD000: return "Infinity"
    case 0xF000: return "-Infinity"
    default: break
    }
    var digits: [Int] = []
    for index in 0..<count { digits.append(Int(try value.integer(Int16.self, at: 8 + 2 * index))) }
    func digit(_ index: Int) -> Int { index >= 0 && index < count ? digits[index] : 0 }

    var text = sign == 0x4000 ? "-" : ""
    if weight < 0 {
        text += "0"
    } else {
        text += String(digit(0))
        for index in stride(from: 1, through: weight, by: 1) { text += pad(digit(index), 4) }
    }
    if scale > 0 {
        var fraction = ""
        var index = weight + 1
        while fraction.count < scale {
            fraction += pad(digit(index), 4)
            index += 1
        }
        text += "." + fraction.prefix(scale)
    }
    return text
}

/// `value` in decimal, zero-padded on the left to `width` digits.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Division rounding towards negative infinity, with a remainder of the divisor's sign.
func floorDivide(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
    let quotient = a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0)
    return (quotient, a - quotient * b)
}
