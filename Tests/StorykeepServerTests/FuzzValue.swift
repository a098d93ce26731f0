/// One argument value as a request carries it: as JSON in `variables`, and as a GraphQL literal
/// written into the document. Both are bytes, written here by hand, so that a value a Swift
/// `String` cannot hold (a lone surrogate `\ud800`, bytes that are not UTF-8) can still be sent.
struct FuzzValue {
    /// The JSON text of the value.
    var json: [UInt8]
    /// The GraphQL literal of the value.
    var literal: [UInt8]

    /// A string, escaped the same way for JSON and GraphQL (the two share `\"`, `\\` and `\uXXXX`).
    static func string(_ text: String) -> FuzzValue {
        escaped(Array(text.utf8))
    }

    /// A string whose content is `bytes` as they are, apart from quotes, backslashes and control
    /// characters: for bytes that are not UTF-8.
    static func escaped(_ bytes: [UInt8]) -> FuzzValue {
        let quoted = [UInt8(ascii: "\"")] + escapeString(bytes) + [UInt8(ascii: "\"")]
        return FuzzValue(json: quoted, literal: quoted)
    }

    /// A string written with escapes already in it, such as `\ud800`: the same text in both forms.
    static func rawString(_ escapedText: String) -> FuzzValue {
        let quoted = Array("\"\(escapedText)\"".utf8)
        return FuzzValue(json: quoted, literal: quoted)
    }

    /// A number (or any token) written the same in both forms: `1e308`, `true`, `null`.
    static func token(_ text: String) -> FuzzValue {
        FuzzValue(json: Array(text.utf8), literal: Array(text.utf8))
    }

    /// An enum value: a string in JSON, a bare name in GraphQL.
    static func enumValue(_ name: String) -> FuzzValue {
        FuzzValue(json: string(name).json, literal: Array(name.utf8))
    }

    static let null = token("null")

    static func list(_ items: [FuzzValue]) -> FuzzValue {
        FuzzValue(
            json: bracketed("[", "]", items.map(\.json)),
            literal: bracketed("[", "]", items.map(\.literal)))
    }

    /// An object (an input object in GraphQL): keys in order.
    static func object(_ entries: [(String, FuzzValue)]) -> FuzzValue {
        FuzzValue(
            json: bracketed("{", "}", entries.map { string($0.0).json + Array(":".utf8) + $0.1.json }),
            literal: bracketed("{", "}", entries.map { Array("\($0.0):".utf8) + $0.1.literal }))
    }

    private static func bracketed(_ open: String, _ close: String, _ items: [[UInt8]]) -> [UInt8] {
        var out = Array(open.utf8)
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += item
        }
        return out + Array(close.utf8)
    }

    /// `bytes` for the inside of a JSON or GraphQL string: quotes, backslashes and control
    /// characters escaped, everything else (UTF-8 or not) as it is.
    static func escapeString(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 2)
        let hex = Array("0123456789abcdef".utf8)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        return out
    }
}

/// A named value to send.
struct FuzzCase {
    var name: String
    var value: FuzzValue
    /// Sent only as a variable: a huge value, whose literal would only try the document's size
    /// limits (tested on their own) at the cost of lexing it.
    var onlyAsVariable: Bool

    init(_ name: String, _ value: FuzzValue, onlyAsVariable: Bool = false) {
        self.name = name
        self.value = value
        self.onlyAsVariable = onlyAsVariable
    }
}
