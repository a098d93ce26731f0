/// A CBOR (RFC 8949) value as WebAuthn uses it: the attestation object, the credential's COSE key,
/// the authenticator's extensions.
package enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// -1 - n: `.negative(6)` is -7.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// In the order written; no key twice.
    case map([(key: CBORKey, value: CBOR)])
    case bool(Bool)
    case null

    package static func == (a: CBOR, b: CBOR) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)), (.negative(let x), .negative(let y)): x == y
        case (.bytes(let x), .bytes(let y)): x == y
        case (.text(let x), .text(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.map(let x), .map(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    /// The value of `key` in a map; nil for a missing key or a value that is no map.
    package subscript(key: CBORKey) -> CBOR? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The value as a whole number, when it is one that fits an `Int`.
    package var int: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    package var bytes: [UInt8]? {
        if case .bytes(let b) = self { b } else { nil }
    }

    package var text: String? {
        if case .text(let t) = self { t } else { nil }
    }

    package var array: [CBOR]? {
        if case .array(let a) = self { a } else { nil }
    }

    /// The keys of a map, in order; nil for anything else.
    package var keys: [CBORKey]? {
        if case .map(let entries) = self { entries.map(\.key) } else { nil }
    }
}

/// A key of a CBOR map: WebAuthn's maps are keyed by text (the attestation object) or by small
/// integers (COSE keys). Any other key is refused when decoding.
package enum CBORKey: Hashable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    case int(Int)
    case text(String)

    package init(integerLiteral value: Int) { self = .int(value) }
    package init(stringLiteral value: String) { self = .text(value) }
}

/// Why bytes are no CBOR this decoder accepts; ``offset`` is where it found out.
package struct CBORError: Error, Equatable, CustomStringConvertible {
    package var reason: String
    package var offset: Int

    package var description: String { "CBOR at byte \(offset): \(reason)" }
}

/// A strict CBOR decoder for what authenticators send (the CTAP2 subset): definite lengths only,
/// no tags, no floating point or other simple values than false, true and null, map keys only
/// whole numbers or text and never twice, valid UTF-8 text, at most ``maxDepth`` levels of
/// arrays and maps, and no length longer than the bytes left (checked before anything is
/// allocated). Lengths need not be in their shortest form: CTAP2 asks for it, but nothing is
/// ambiguous without it.
package struct CBORDecoder {
    /// Arrays and maps inside one another, at most: a COSE key in an attestation object is 3.
    package static let maxDepth = 16

    private let bytes: [UInt8]
    private var offset: Int

    private init(_ bytes: [UInt8], at offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The one value that `bytes` hold: anything after it is refused.
    package static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
        let (value, end) = try decodePrefix(bytes, at: 0)
        guard end == bytes.count else { throw CBORError(reason: "\(bytes.count - end) bytes after the value", offset: end) }
        return value
    }

    /// The value that starts at `start` of `bytes`, and the offset just after it (the COSE key in
    /// authenticator data is followed by the extensions, if any).
    package static func decodePrefix(_ bytes: [UInt8], at start: Int) throws(CBORError) -> (CBOR, end: Int) {
        var decoder = CBORDecoder(bytes, at: start)
        let value = try decoder.value(depth: 0)
        return (value, decoder.offset)
    }

    private mutating func fail(_ reason: String) -> CBORError {
        CBORError(reason: reason, offset: offset)
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw fail("the bytes end in the middle of a value") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The argument of a head with additional information `info`: the value itself below 24, or
    /// the 1, 2, 4 or 8 bytes after it.
    private mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24...27:
            var value: UInt64 = 0
            for _ in 0..<(1 << (info - 24)) { value = value << 8 | UInt64(try byte()) }
            return value
        case 31: throw fail("an indefinite length, which WebAuthn does not use")
        default: throw fail("a reserved additional information value \(info)")
        }
    }

    /// `length` bytes, if that many are left.
    private mutating func take(_ length: UInt64) throws(CBORError) -> ArraySlice<UInt8> {
        guard length <= UInt64(bytes.count - offset) else { throw fail("a length of \(length) bytes, more than are left") }
        defer { offset += Int(length) }
        return bytes[offset..<offset + Int(length)]
    }

    private mutating func value(depth: Int) throws(CBORError) -> CBOR {
        let initial = try byte()
        let (major, info) = (initial >> 5, initial & 0x1F)
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw fail("a simple value or float (\(info)) other than false, true or null")
            }
        }
        let argument = try argument(info)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(Array(try take(argument)))
        case 3:
            let start = offset
            let utf8 = try take(argument)
            guard let text = String(validating: utf8, as: UTF8.self) else {
                throw CBORError(reason: "text that is not UTF-8", offset: start)
            }
            return .text(text)
        case 4:
            guard depth < Self.maxDepth else { throw fail("arrays and maps nested deeper than \(Self.maxDepth)") }
            // Each item takes a byte at least: a longer count cannot be right.
            guard argument <= UInt64(bytes.count - offset) else { throw fail("\(argument) items, more than bytes are left") }
            var items: [CBOR] = []
            items.reserveCapacity(Int(argument))
            for _ in 0..<argument { items.append(try value(depth: depth + 1)) }
            return .array(items)
        case 5:
            guard depth < Self.maxDepth else { throw fail("arrays and maps nested deeper than \(Self.maxDepth)") }
            guard argument <= UInt64(bytes.count - offset) / 2 else { throw fail("\(argument) entries, more than bytes are left") }
            var entries: [(key: CBORKey, value: CBOR)] = []
            var seen: Set<CBORKey> = []
            for _ in 0..<argument {
                let keyOffset = offset
                let key: CBORKey
                switch try value(depth: depth + 1) {
                case .text(let text): key = .text(text)
                case let number where number.int != nil: key = .int(number.int!)
                default: throw CBORError(reason: "a map key that is neither text nor a whole number", offset: keyOffset)
                }
                guard seen.insert(key).inserted else { throw CBORError(reason: "a map key written twice", offset: keyOffset) }
                entries.append((key, try value(depth: depth + 1)))
            }
            return .map(entries)
        default:
            throw fail("a tag (major type 6), which WebAuthn does not use")
        }
    }
}
