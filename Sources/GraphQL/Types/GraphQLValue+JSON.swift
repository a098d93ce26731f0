/// Reading and writing `GraphQLValue` as JSON (RFC 8259), for variables, request bodies and
/// responses.
///
/// The reader is iterative: nesting costs heap, not stack, so a hostile document nested
/// 100,000 deep is refused with an error at `maxDepth` instead of overflowing the stack.
/// Integers that fit `Int` become `.int`, other numbers `.float`; a repeated object key keeps
/// the last value at the first key's position (as `JSON.parse` does).
///
/// The writer prints compact JSON the way JavaScript's `JSON.stringify` does, numbers included
/// (`1.0` prints as `1`, `1e-7` as `1e-7`, non-finite floats as `null`).

/// Why a JSON text could not be read, and the byte offset where reading stopped.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var offset: Int

    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at byte \(offset)" }
}

extension GraphQLValue {
    /// The default bound on how deeply arrays and objects may nest.
    public static let defaultJSONMaxDepth = 256

    /// Reads one JSON text; whitespace may surround it, nothing else may follow it.
    public init(json bytes: some Sequence<UInt8>, maxDepth: Int = GraphQLValue.defaultJSONMaxDepth) throws(JSONError) {
        let result: Result<GraphQLValue, JSONError> =
            bytes.withContiguousStorageIfAvailable { buffer in
                var reader = JSONReader(buffer, maxDepth: maxDepth)
                return Result { () throws(JSONError) in try reader.readDocument() }
            } ?? Array(bytes).withUnsafeBufferPointer { buffer in
                var reader = JSONReader(buffer, maxDepth: maxDepth)
                return Result { () throws(JSONError) in try reader.readDocument() }
            }
        self = try result.get()
    }

    /// Reads one JSON text from a string.
    public init(json string: String, maxDepth: Int = GraphQLValue.defaultJSONMaxDepth) throws(JSONError) {
        var string = string
        let result = string.withUTF8 { buffer in
            var reader = JSONReader(buffer, maxDepth: maxDepth)
            return Result { () throws(JSONError) in try reader.readDocument() }
        }
        self = try result.get()
    }

    /// The value as compact JSON.
    public var json: String {
        var bytes: [UInt8] = []
        writeJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value as compact JSON (see `JSONWriter`).
    public func writeJSON(to out: inout [UInt8]) {
        JSONWriter.write(self, to: &out)
    }
}

// MARK: - Reader

private struct JSONReader {
    /// An array or object being read: what it holds so far. Frames are mutated in place on
    /// the stack, so appending to a 100,000-item array never copies it.
    private struct Frame {
        var isList: Bool
        var items: [GraphQLValue] = []
        var object = ObjectBuilder()
    }

    /// Collects an object's members; finds repeated keys through a dictionary once the object
    /// is no longer small, so a 100,000-key object costs linear time.
    private struct ObjectBuilder {
        var keys: [String] = []
        var values: [GraphQLValue] = []
        var positions: [String: Int]?
        var pendingKey = ""

        mutating func add(_ value: GraphQLValue) {
            let key = pendingKey
            if positions == nil, keys.count >= 16 {
                positions = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            }
            if let positions {
                if let position = positions[key] {
                    values[position] = value
                    return
                }
                self.positions![key] = keys.count
            } else if let position = keys.firstIndex(of: key) {
                values[position] = value
                return
            }
            keys.append(key)
            values.append(value)
        }

        var object: GraphQLObject {
            var object = GraphQLObject()
            for (key, value) in zip(keys, values) { object.append(key, value) }
            return object
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var position = 0
    private var stack: [Frame] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func readDocument() throws(JSONError) -> GraphQLValue {
        while true {
            guard var value = try readValueOrOpen() else { continue }
            // Add the finished value to the innermost open container and read the separator
            // after it: when the container closes, its value is finished in turn.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    guard position == bytes.count else { throw error("Unexpected data after the JSON value") }
                    return value
                }
                let top = stack.count - 1
                skipWhitespace()
                if stack[top].isList {
                    stack[top].items.append(value)
                    guard let byte = peek(), byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") else {
                        throw error("Expected ',' or ']' in an array")
                    }
                    position += 1
                    if byte == UInt8(ascii: ",") { break }
                    value = .list(stack.removeLast().items)
                } else {
                    stack[top].object.add(value)
                    guard let byte = peek(), byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") else {
                        throw error("Expected ',' or '}' in an object")
                    }
                    position += 1
                    if byte == UInt8(ascii: ",") {
                        stack[top].object.pendingKey = try readKey()
                        break
                    }
                    value = .object(stack.removeLast().object.object)
                }
            }
        }
    }

    /// Reads a scalar value, or opens an array or object (returning nil, or the empty
    /// container when it closes at once).
    private mutating func readValueOrOpen() throws(JSONError) -> GraphQLValue? {
        skipWhitespace()
        guard position < bytes.count else { throw error("Unexpected end of JSON") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try open()
            position += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                position += 1
                return .object(GraphQLObject())
            }
            var frame = Frame(isList: false)
            frame.object.pendingKey = try readKey(afterWhitespace: true)
            stack.append(frame)
            return nil
        case UInt8(ascii: "["):
            try open()
            position += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                position += 1
                return .list([])
            }
            stack.append(Frame(isList: true))
            return nil
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber()
        default:
            throw error("Unexpected character in JSON")
        }
    }

    private mutating func open() throws(JSONError) {
        guard stack.count < maxDepth else {
            throw error("JSON nested deeper than \(maxDepth) levels")
        }
    }

    private mutating func readKey(afterWhitespace: Bool = false) throws(JSONError) -> String {
        if !afterWhitespace { skipWhitespace() }
        guard peek() == UInt8(ascii: "\"") else { throw error("Expected a string key in an object") }
        let key = try readString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error("Expected ':' after an object key") }
        position += 1
        return key
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw error("Unexpected end of JSON") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw error("Unexpected character in JSON") }
        position += count
    }

    private mutating func readString() throws(JSONError) -> String {
        position += 1  // the opening quote
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                guard let string = String(validating: raw, as: UTF8.self) else {
                    throw JSONError(message: "Invalid UTF-8 in a JSON string", offset: start)
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("Unescaped control character in a JSON string") }
            position += 1
        }
        var scalars: [UInt8] = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: scalars, as: UTF8.self) else {
                    throw JSONError(message: "Invalid UTF-8 in a JSON string", offset: start)
                }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                try readEscape(into: &scalars)
            case ..<0x20:
                throw error("Unescaped control character in a JSON string")
            default:
                scalars.append(byte)
                position += 1
            }
        }
        throw error("Unterminated JSON string")
    }

    private mutating func readEscape(into out: inout [UInt8]) throws(JSONError) {
        guard let byte = peek() else { throw error("Unterminated JSON string") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var code = try readHex4()
            if (0xD800..<0xDC00).contains(code) {
                guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw error("Unpaired surrogate in a JSON string") }
                position += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("Unpaired surrogate in a JSON string") }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(code) {
                throw error("Unpaired surrogate in a JSON string")
            }
            out.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
        default:
            throw error("Invalid escape in a JSON string")
        }
    }

    private mutating func readHex4() throws(JSONError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw error("Invalid \\u escape in a JSON string") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("Invalid \\u escape in a JSON string")
            }
            code = code << 4 | UInt32(digit)
            position += 1
        }
        return code
    }

    private mutating func readNumber() throws(JSONError) -> GraphQLValue {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw error("Invalid number in JSON") }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let digit = peek(), isDigit(digit) else { throw error("Invalid number in JSON") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), isDigit(digit) else { throw error("Invalid number in JSON") }
            skipDigits()
        }
        if isInteger, let int = integer(from: start) { return .int(int) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let double = Double(text) else { throw JSONError(message: "Invalid number in JSON", offset: start) }
        return .float(double)
    }

    /// The integer in `bytes[start..<position]`, or nil when it does not fit `Int`.
    private func integer(from start: Int) -> Int? {
        let negative = bytes[start] == UInt8(ascii: "-")
        var result = 0
        for index in (negative ? start + 1 : start)..<position {
            let digit = Int(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            result = next
        }
        return result
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private func error(_ message: String) -> JSONError { JSONError(message: message, offset: position) }
}
