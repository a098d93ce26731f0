/// Reads GraphQL tokens from the UTF-8 bytes of a `Source`, skipping ignored tokens
/// (white space, line terminators, commas, byte order marks and comments).
///
/// The lexer follows graphql-js's `Lexer`: the same tokens, and the same syntax errors at the
/// same positions. It works on bytes, never on `Character`s: names, numbers and punctuators are
/// ASCII, and only strings decode UTF-8. A byte sequence that is not UTF-8 is reported as an
/// invalid character where graphql-js, reading UTF-16, would report a lone surrogate.
///
/// The bytes are borrowed: a `Lexer` lives only inside `Source.body.withUnsafeBufferPointer`.
struct Lexer {
    let source: Source
    let bytes: UnsafeBufferPointer<UInt8>
    /// The current token: the next one the parser has not consumed.
    private(set) var token: Token
    /// The token consumed most recently, whose end is the end of the node being parsed.
    private(set) var lastToken: Token
    /// The token after `token` when the parser has looked ahead, else a `<SOF>` token (a plain
    /// value rather than an optional keeps `advance` cheap).
    private var peeked: Token

    init(source: Source, bytes: UnsafeBufferPointer<UInt8>) {
        self.source = source
        self.bytes = bytes
        self.token = Token(.sof, 0, 0)
        self.lastToken = token
        self.peeked = token
    }

    /// Moves to the next token. At the end it stays on `<EOF>`.
    mutating func advance() throws(GraphQLError) {
        lastToken = token
        if peeked.kind != .sof {
            token = peeked
            peeked.kind = .sof
        } else {
            token = try readToken(from: token.end)
        }
    }

    /// The token after the current one, without moving.
    mutating func lookahead() throws(GraphQLError) -> Token {
        if token.kind == .eof { return token }
        if peeked.kind == .sof { peeked = try readToken(from: token.end) }
        return peeked
    }

    /// The text of a token as written, e.g. a name or a number.
    func text(of token: Token) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }

    /// Whether the token is the name `keyword`, compared byte by byte without decoding.
    func isKeyword(_ token: Token, _ keyword: StaticString) -> Bool {
        guard token.kind == .name, token.end - token.start == keyword.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: keyword.utf8Start, count: keyword.utf8CodeUnitCount)
        var index = 0
        while index < expected.count {
            if bytes[token.start + index] != expected[index] { return false }
            index += 1
        }
        return true
    }

    /// How graphql-js describes a token in error messages: its kind, and its value if it has one.
    func describe(_ token: Token) -> String {
        switch token.kind {
        case .name, .int, .float: "\(token.kind.description) \"\(text(of: token))\""
        case .string, .blockString: "\(token.kind.description) \"\(stringValue(of: token))\""
        default: token.kind.description
        }
    }

    func syntaxError(_ description: String, at offset: Int) -> GraphQLError {
        .syntaxError(description, source: source, offset: offset)
    }

    // MARK: - Reading tokens

    /// The byte at `position`, or -1 past the end.
    @inline(__always)
    func code(at position: Int) -> Int {
        position < bytes.count ? Int(bytes[position]) : -1
    }

    private func readToken(from start: Int) throws(GraphQLError) -> Token {
        var position = start
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            switch byte {
            case 0x20, 0x09, 0x2C, 0x0A, 0x0D:  // space, tab, comma, line feed, carriage return
                position += 1
                continue
            case 0xEF where code(at: position + 1) == 0xBB && code(at: position + 2) == 0xBF:  // BOM
                position += 3
                continue
            case 0x23:  // #
                position = endOfComment(from: position + 1)
                continue
            case 0x21: return Token(.bang, position, position + 1)
            case 0x24: return Token(.dollar, position, position + 1)
            case 0x26: return Token(.amp, position, position + 1)
            case 0x28: return Token(.parenL, position, position + 1)
            case 0x29: return Token(.parenR, position, position + 1)
            case 0x3A: return Token(.colon, position, position + 1)
            case 0x3D: return Token(.equals, position, position + 1)
            case 0x40: return Token(.at, position, position + 1)
            case 0x5B: return Token(.bracketL, position, position + 1)
            case 0x5D: return Token(.bracketR, position, position + 1)
            case 0x7B: return Token(.braceL, position, position + 1)
            case 0x7C: return Token(.pipe, position, position + 1)
            case 0x7D: return Token(.braceR, position, position + 1)
            case 0x22:  // "
                if code(at: position + 1) == 0x22 && code(at: position + 2) == 0x22 {
                    return Token(.blockString, position, try readBlockString(from: position, decoding: false).end)
                }
                return Token(.string, position, try readString(from: position, decoding: false).end)
            case 0x30...0x39, 0x2D:  // digit, -
                return try readNumber(from: position)
            case 0x41...0x5A, 0x61...0x7A, 0x5F:  // letter, _
                return readName(from: position)
            case 0x2E:  // .
                if code(at: position + 1) == 0x2E {
                    if code(at: position + 2) == 0x2E { return Token(.spread, position, position + 3) }
                    throw syntaxError("Unexpected \"..\", did you mean \"...\"?", at: position)
                }
                if isDigit(code(at: position + 1)) {
                    var end = position + 1
                    while isDigit(code(at: end)) { end += 1 }
                    let digits = String(decoding: UnsafeBufferPointer(rebasing: bytes[position + 1..<end]), as: UTF8.self)
                    throw syntaxError(
                        "Invalid number, expected digit before \".\", did you mean \"0.\(digits)\"?", at: position)
                }
                throw syntaxError("Unexpected character: \(describeCodePoint(at: position)).", at: position)
            case 0x27:  // '
                throw syntaxError(
                    "Unexpected single quote character ('), did you mean to use a double quote (\")?", at: position)
            default:
                if byte < 0x80 || scalar(at: position) != nil {
                    throw syntaxError("Unexpected character: \(describeCodePoint(at: position)).", at: position)
                }
                throw syntaxError("Invalid character: \(describeCodePoint(at: position)).", at: position)
            }
        }
        return Token(.eof, count, count)
    }

    /// The end of a comment whose text starts at `position`: the next line terminator, or a byte
    /// that is not UTF-8 (which the next token then reports).
    private func endOfComment(from start: Int) -> Int {
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x0A || byte == 0x0D { break }
            if byte < 0x80 {
                position += 1
            } else if let (_, length) = scalar(at: position) {
                position += length
            } else {
                break
            }
        }
        return position
    }

    private func readName(from start: Int) -> Token {
        var position = start + 1
        while position < bytes.count && isNameContinue(Int(bytes[position])) { position += 1 }
        return Token(.name, start, position)
    }

    /// Reads an `IntValue` or a `FloatValue`; a number may not be followed by `.` or a name.
    private func readNumber(from start: Int) throws(GraphQLError) -> Token {
        var position = start
        var code = code(at: position)
        var isFloat = false
        if code == 0x2D {  // -
            position += 1
            code = self.code(at: position)
        }
        if code == 0x30 {  // 0
            position += 1
            code = self.code(at: position)
            if isDigit(code) {
                throw syntaxError(
                    "Invalid number, unexpected digit after 0: \(describeCodePoint(at: position)).", at: position)
            }
        } else {
            position = try readDigits(from: position)
            code = self.code(at: position)
        }
        if code == 0x2E {  // .
            isFloat = true
            position = try readDigits(from: position + 1)
            code = self.code(at: position)
        }
        if code == 0x45 || code == 0x65 {  // E e
            isFloat = true
            position += 1
            code = self.code(at: position)
            if code == 0x2B || code == 0x2D { position += 1 }  // + -
            position = try readDigits(from: position)
            code = self.code(at: position)
        }
        if code == 0x2E || isNameStart(code) {
            throw syntaxError("Invalid number, expected digit but got: \(describeCodePoint(at: position)).", at: position)
        }
        return Token(isFloat ? .float : .int, start, position)
    }

    private func readDigits(from start: Int) throws(GraphQLError) -> Int {
        guard isDigit(code(at: start)) else {
            throw syntaxError("Invalid number, expected digit but got: \(describeCodePoint(at: start)).", at: start)
        }
        var position = start + 1
        while isDigit(code(at: position)) { position += 1 }
        return position
    }

    // MARK: - Characters

    @inline(__always) func isDigit(_ code: Int) -> Bool { code >= 0x30 && code <= 0x39 }

    @inline(__always) func isNameStart(_ code: Int) -> Bool {
        (code >= 0x61 && code <= 0x7A) || (code >= 0x41 && code <= 0x5A) || code == 0x5F
    }

    @inline(__always) func isNameContinue(_ code: Int) -> Bool { isNameStart(code) || isDigit(code) }

    /// The Unicode scalar encoded at `position` and its length in bytes, or nil where the bytes
    /// are not well-formed UTF-8 (including encoded surrogates).
    func scalar(at position: Int) -> (value: UInt32, length: Int)? {
        let lead = UInt32(bytes[position])
        if lead < 0x80 { return (lead, 1) }
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> UInt32? {
            guard position + offset < bytes.count else { return nil }
            let byte = bytes[position + offset]
            return byte >= low && byte <= high ? UInt32(byte & 0x3F) : nil
        }
        switch lead {
        case 0xC2...0xDF:
            guard let b1 = continuation(1) else { return nil }
            return ((lead & 0x1F) << 6 | b1, 2)
        case 0xE0...0xEF:
            let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
            guard let b1 = continuation(1, low, high), let b2 = continuation(2) else { return nil }
            return ((lead & 0x0F) << 12 | b1 << 6 | b2, 3)
        case 0xF0...0xF4:
            let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
            guard let b1 = continuation(1, low, high), let b2 = continuation(2), let b3 = continuation(3) else {
                return nil
            }
            return ((lead & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, 4)
        default:
            return nil
        }
    }

    /// The byte length of the character at `position`, counting a byte that is not UTF-8 as one.
    func characterLength(at position: Int) -> Int {
        scalar(at: position)?.length ?? 1
    }

    /// Describes the character at `position` as graphql-js does: printable ASCII quoted, other
    /// characters as `U+XXXX`, the end as `<EOF>`. A UTF-8-encoded surrogate is shown as the
    /// surrogate graphql-js would see; any other byte that is not UTF-8 as `byte 0xXX (not UTF-8)`.
    func describeCodePoint(at position: Int) -> String {
        guard position < bytes.count else { return "<EOF>" }
        let byte = bytes[position]
        if byte >= 0x20 && byte <= 0x7E {
            return byte == 0x22 ? "'\"'" : "\"\(Character(Unicode.Scalar(byte)))\""
        }
        if let (value, _) = scalar(at: position) { return Self.unicodeNotation(value) }
        if byte == 0xED, position + 2 < bytes.count, bytes[position + 1] & 0xE0 == 0xA0,
            bytes[position + 2] & 0xC0 == 0x80
        {
            return Self.unicodeNotation(0xD000 | UInt32(bytes[position + 1] & 0x3F) << 6 | UInt32(bytes[position + 2] & 0x3F))
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex) (not UTF-8)"
    }

    static func unicodeNotation(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
