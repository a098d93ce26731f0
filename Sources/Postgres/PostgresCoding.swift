/// A PostgreSQL type, by its object identifier (`pg_type.oid`).
public struct PostgresDataType: Hashable, Sendable, CustomStringConvertible {
    public let oid: UInt32
    public init(oid: UInt32) { self.oid = oid }

    public static let bool = Self(oid: 16)
    public static let bytea = Self(oid: 17)
    public static let char = Self(oid: 18)
    public static let name = Self(oid: 19)
    public static let int8 = Self(oid: 20)
    public static let int2 = Self(oid: 21)
    public static let int4 = Self(oid: 23)
    public static let text = Self(oid: 25)
    public static let oidType = Self(oid: 26)
    public static let json = Self(oid: 114)
    public static let xml = Self(oid: 142)
    public static let float4 = Self(oid: 700)
    public static let float8 = Self(oid: 701)
    public static let unknown = Self(oid: 705)
    public static let bpchar = Self(oid: 1042)
    public static let varchar = Self(oid: 1043)
    public static let date = Self(oid: 1082)
    public static let timestamp = Self(oid: 1114)
    public static let timestamptz = Self(oid: 1184)
    public static let numeric = Self(oid: 1700)
    public static let uuid = Self(oid: 2950)
    public static let jsonb = Self(oid: 3802)

    /// Types whose binary form is their text in the client encoding (UTF-8).
    var isTextual: Bool {
        switch self {
        case .text, .varchar, .bpchar, .name, .unknown, .json, .xml, .char: true
        // Types created by users (enums, citext, ...) have OIDs from 16384 up; enums send their
        // label as text, which is the case worth supporting.
        default: oid >= 16384
        }
    }

    public var description: String {
        switch self {
        case .bool: "bool"
        case .bytea: "bytea"
        case .int2: "int2"
        case .int4: "int4"
        case .int8: "int8"
        case .text: "text"
        case .json: "json"
        case .jsonb: "jsonb"
        case .float4: "float4"
        case .float8: "float8"
        case .varchar: "varchar"
        case .date: "date"
        case .timestamp: "timestamp"
        case .timestamptz: "timestamptz"
        case .numeric: "numeric"
        case .uuid: "uuid"
        default: "oid \(oid)"
        }
    }
}

/// One bound parameter, as libpq sends it: text (the server parses it according to the type it
/// infers for the placeholder) or binary (used for `bytea`, declared with its type so the server
/// never misreads the bytes).
public struct PostgresParameter: Sendable {
    public var bytes: [UInt8]
    /// `nil` for text; the declared type of a binary parameter.
    public var binaryType: PostgresDataType?

    public static func text(_ string: String) -> Self { Self(bytes: Array(string.utf8), binaryType: nil) }
    public static func binary(_ bytes: [UInt8], type: PostgresDataType) -> Self { Self(bytes: bytes, binaryType: type) }
}

/// A Swift value that can be bound to a `$n` placeholder.
public protocol PostgresEncodable: Sendable {
    /// The value's parameter form, or `nil` for SQL NULL.
    func postgresParameter() throws -> PostgresParameter?
    /// How an array of this type is sent. The default builds a text array literal
    /// (`{"a","b",NULL}`), which the server parses as `text[]`, `int[]`, `uuid[]`... from context.
    static func postgresArrayParameter(_ elements: [Self]) throws -> PostgresParameter
}

/// A Swift value that can be decoded from a column of a result, which arrives in binary format.
public protocol PostgresDecodable: Sendable {
    /// Decodes a non-NULL value; throw `value.mismatch(Self.self)` for a type it cannot read.
    static func postgresDecode(_ value: PostgresValue) throws -> Self
    /// The value for SQL NULL; the default throws, `Optional` answers `nil`.
    static func postgresDecodeNull() throws -> Self
    /// Decodes an array whose elements are of this type. The default reads PostgreSQL's binary
    /// array format (one dimension); `UInt8` reads `bytea` instead, so `[UInt8]` means bytes.
    static func postgresDecodeArray(_ value: PostgresValue) throws -> [Self]
}

public typealias PostgresCodable = PostgresEncodable & PostgresDecodable

/// One non-NULL value of a result, in PostgreSQL's binary format, valid only during a decode call.
public struct PostgresValue {
    public let type: PostgresDataType
    public let bytes: UnsafeRawBufferPointer

    public init(type: PostgresDataType, bytes: UnsafeRawBufferPointer) {
        self.type = type
        self.bytes = bytes
    }

    /// The error to throw when a value of this column's type cannot become a `T`.
    public func mismatch<T>(_: T.Type, _ reason: String? = nil) -> PostgresError {
        PostgresError(
            kind: .decoding,
            message: "cannot decode \(type) as \(T.self)" + (reason.map { ": \($0)" } ?? ""))
    }

    /// Reads a big-endian integer at `offset`, checking bounds.
    func integer<I: FixedWidthInteger>(_: I.Type, at offset: Int = 0) throws -> I {
        guard offset >= 0, offset + MemoryLayout<I>.size <= bytes.count else {
            throw mismatch(I.self, "value is \(bytes.count) bytes long")
        }
        return I(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: I.self))
    }

    /// The value read as UTF-8 text.
    var string: String { String(decoding: bytes, as: UTF8.self) }
}

extension PostgresEncodable {
    public static func postgresArrayParameter(_ elements: [Self]) throws -> PostgresParameter {
        var literal: [UInt8] = [ASCII.openBrace]
        for (index, element) in elements.enumerated() {
            if index > 0 { literal.append(ASCII.comma) }
            guard let parameter = try element.postgresParameter() else {
                literal += "NULL".utf8
                continue
            }
            literal.append(ASCII.quote)
            if parameter.binaryType == nil {
                // Escaped byte by byte: no byte of a multi-byte UTF-8 character is `"` or `\`.
                for byte in parameter.bytes {
                    if byte == ASCII.quote || byte == ASCII.backslash { literal.append(ASCII.backslash) }
                    literal.append(byte)
                }
            } else {
                // A binary element (bytea) goes in bytea's hex text form, its `\` escaped: `\\x0a1b`.
                literal += [ASCII.backslash, ASCII.backslash, UInt8(ascii: "x")]
                appendHex(parameter.bytes, to: &literal)
            }
            literal.append(ASCII.quote)
        }
        literal.append(ASCII.closeBrace)
        return PostgresParameter(bytes: literal, binaryType: nil)
    }
}

/// The bytes of an array literal.
enum ASCII {
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}"), comma = UInt8(ascii: ",")
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
}

extension PostgresDecodable {
    public static func postgresDecodeNull() throws -> Self {
        throw PostgresError(kind: .decoding, message: "unexpected NULL for non-optional \(Self.self)")
    }

    public static func postgresDecodeArray(_ value: PostgresValue) throws -> [Self] {
        // Binary array: ndim, has-null flag, element type, then (size, lower bound) per dimension,
        // then each element as a 4-byte length (-1 for NULL) and its bytes.
        let dimensions = try value.integer(Int32.self, at: 0)
        if dimensions == 0 { return [] }
        guard dimensions == 1 else { throw value.mismatch([Self].self, "\(dimensions)-dimensional array") }
        let elementType = PostgresDataType(oid: try value.integer(UInt32.self, at: 8))
        let count = Int(try value.integer(Int32.self, at: 12))
        var offset = 20
        var elements: [Self] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            let length = Int(try value.integer(Int32.self, at: offset))
            offset += 4
            if length < 0 {
                elements.append(try postgresDecodeNull())
                continue
            }
            guard offset + length <= value.bytes.count else { throw value.mismatch([Self].self, "truncated") }
            let slice = UnsafeRawBufferPointer(rebasing: value.bytes[offset..<offset + length])
            elements.append(try postgresDecode(PostgresValue(type: elementType, bytes: slice)))
            offset += length
        }
        return elements
    }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public func postgresParameter() throws -> PostgresParameter? {
        try self?.postgresParameter()
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public static func postgresDecode(_ value: PostgresValue) throws -> Self {
        try Wrapped.postgresDecode(value)
    }
    public static func postgresDecodeNull() throws -> Self { nil }
}

extension Array: PostgresEncodable where Element: PostgresEncodable {
    public func postgresParameter() throws -> PostgresParameter? {
        try Element.postgresArrayParameter(self)
    }
}

extension Array: PostgresDecodable where Element: PostgresDecodable {
    public static func postgresDecode(_ value: PostgresValue) throws -> Self {
        try Element.postgresDecodeArray(value)
    }
}

let hexDigits = Array("0123456789abcdef".utf8)

/// Appends each byte as two lower-case hex digits.
func appendHex(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
    for byte in bytes {
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0x0f)])
    }
}

func hexString(_ bytes: [UInt8]) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    appendHex(bytes, to: &out)
    return String(decoding: out, as: UTF8.self)
}
