/// String and block string tokens, as graphql-js's `readString` and `readBlockString` read them.
///
/// Each is read twice: once when lexed, to find its end and its errors without building a value,
/// and again when the parser asks for its value (`decoding: true`), which cannot fail then.
extension Lexer {
    /// The value of a string or block string token.
    func stringValue(of token: Token) -> String {
        let read = token.kind == .blockString ? try? readBlockString(from: token.start, decoding: true)
            : try? readString(from: token.start, decoding: true)
        return read?.value ?? ""
    }

    /// Reads a `"string"`: escapes resolved; a line terminator or the end before the closing quote
    /// leaves it unterminated.
    func readString(from start: Int, decoding: Bool) throws(GraphQLError) -> (end: Int, value: String?) {
        var position = start + 1
        var chunkStart = position
        var decoded: [UInt8]? = nil  // only once an escape is met
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x22 {  // "
                guard decoding else { return (position + 1, nil) }
                let chunk = UnsafeBufferPointer(rebasing: bytes[chunkStart..<position])
                let value: String
                if var escaped = decoded {
                    escaped.append(contentsOf: chunk)
                    value = String(decoding: escaped, as: UTF8.self)
                } else {
                    value = String(decoding: chunk, as: UTF8.self)
                }
                return (position + 1, value)
            }
            if byte == 0x5C {  // backslash
                let (value, size) = try readEscape(at: position)
                if decoding {
                    var escaped = decoded ?? []
                    escaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]))
                    escaped.append(contentsOf: String(Character(value)).utf8)
                    decoded = escaped
                }
                position += size
                chunkStart = position
                continue
            }
            if byte == 0x0A || byte == 0x0D { break }
            position = try afterStringCharacter(at: position)
        }
        throw syntaxError("Unterminated string.", at: position)
    }

    /// Reads the escape sequence at `position` (a backslash): its value and length in bytes.
    private func readEscape(at position: Int) throws(GraphQLError) -> (Unicode.Scalar, Int) {
        guard code(at: position + 1) == 0x75 else {  // u
            let value: Unicode.Scalar? =
                switch code(at: position + 1) {
                case 0x22: "\""
                case 0x5C: "\\"
                case 0x2F: "/"
                case 0x62: "\u{08}"
                case 0x66: "\u{0C}"
                case 0x6E: "\n"
                case 0x72: "\r"
                case 0x74: "\t"
                default: nil
                }
            if let value { return (value, 2) }
            throw syntaxError(
                "Invalid character escape sequence: \"\(characters(from: position, count: 2))\".", at: position)
        }
        if code(at: position + 2) == 0x7B {  // {
            return try readVariableWidthUnicodeEscape(at: position)
        }
        let leading = hexCode(at: position + 2)
        if leading >= 0, let scalar = Unicode.Scalar(UInt32(leading)) {
            return (scalar, 6)
        }
        // A surrogate pair written as two escapes is one character; a lone surrogate is invalid.
        if leading >= 0xD800 && leading <= 0xDBFF && code(at: position + 6) == 0x5C && code(at: position + 7) == 0x75 {
            let trailing = hexCode(at: position + 8)
            if trailing >= 0xDC00 && trailing <= 0xDFFF {
                let value = 0x10000 + ((leading - 0xD800) << 10) + (trailing - 0xDC00)
                return (Unicode.Scalar(UInt32(value))!, 12)
            }
        }
        throw syntaxError("Invalid Unicode escape sequence: \"\(characters(from: position, count: 6))\".", at: position)
    }

    /// Reads `\u{…}`: one to eight hex digits (at most 12 characters in all) naming a scalar value.
    private func readVariableWidthUnicodeEscape(at start: Int) throws(GraphQLError) -> (Unicode.Scalar, Int) {
        var point = 0
        var size = 3  // characters read, as graphql-core counts them
        var position = start + 3  // bytes read
        while size < 12 && position < bytes.count {
            let byte = bytes[position]
            position += characterLength(at: position)
            size += 1
            if byte == 0x7D {  // }
                if size < 5 { break }
                guard let scalar = Unicode.Scalar(UInt32(clamping: point)) else { break }
                return (scalar, position - start)
            }
            let digit = hexDigit(Int(byte))
            if digit < 0 { break }
            point = point << 4 | digit
        }
        throw syntaxError(
            "Invalid Unicode escape sequence: \"\(decodedText(start..<position))\".", at: start)
    }

    /// The value of the four hex digits at `position`, or -1 if they are not all hex digits.
    private func hexCode(at position: Int) -> Int {
        var value = 0
        for offset in 0..<4 {
            let digit = hexDigit(code(at: position + offset))
            if digit < 0 { return -1 }
            value = value << 4 | digit
        }
        return value
    }

    private func hexDigit(_ code: Int) -> Int {
        switch code {
        case 0x30...0x39: code - 0x30
        case 0x41...0x46: code - 0x37
        case 0x61...0x66: code - 0x57
        default: -1
        }
    }

    /// Where the character of a string at `position` ends: one byte of ASCII, or a whole UTF-8
    /// scalar; a byte that starts no scalar is an invalid character.
    private func afterStringCharacter(at position: Int) throws(GraphQLError) -> Int {
        if bytes[position] < 0x80 { return position + 1 }
        guard let (_, length) = scalar(at: position) else {
            throw syntaxError("Invalid character within String: \(describeCodePoint(at: position)).", at: position)
        }
        return position + length
    }

    /// Up to `count` characters of the source from `start`, for error messages.
    private func characters(from start: Int, count: Int) -> String {
        var end = start
        for _ in 0..<count where end < bytes.count { end += characterLength(at: end) }
        return decodedText(start..<end)
    }

    private func decodedText(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Reads a `"""block string"""`: `\"""` is the only escape; lines are split at any line
    /// terminator, then dedented and joined with `\n` (the spec's `BlockStringValue`).
    func readBlockString(from start: Int, decoding: Bool) throws(GraphQLError) -> (end: Int, value: String?) {
        var position = start + 3
        var chunkStart = position
        var raw: [UInt8] = []  // the lines' content, escapes resolved
        var lineEnds: [Int] = []  // where each completed line ends in `raw`
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x22 && code(at: position + 1) == 0x22 && code(at: position + 2) == 0x22 {
                guard decoding else { return (position + 3, nil) }
                raw.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]))
                lineEnds.append(raw.count)
                let value = BlockString.dedentedValue(raw: raw, lineEnds: lineEnds)
                return (position + 3, value)
            }
            if byte == 0x5C && code(at: position + 1) == 0x22 && code(at: position + 2) == 0x22
                && code(at: position + 3) == 0x22
            {
                if decoding { raw.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position])) }
                chunkStart = position + 1  // keep the quotes, drop the backslash
                position += 4
                continue
            }
            if byte == 0x0A || byte == 0x0D {
                if decoding {
                    raw.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]))
                    lineEnds.append(raw.count)
                }
                position += byte == 0x0D && code(at: position + 1) == 0x0A ? 2 : 1
                chunkStart = position
                continue
            }
            position = try afterStringCharacter(at: position)
        }
        throw syntaxError("Unterminated string.", at: position)
    }
}
