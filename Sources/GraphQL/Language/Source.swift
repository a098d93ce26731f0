/// A line and column in a `Source`, both counted from 1, as GraphQL responses report them.
///
/// Columns count UTF-16 code units from the start of the line, as graphql-js does (a character
/// outside the Basic Multilingual Plane, such as most emoji, counts as two).
public struct SourceLocation: Hashable, Sendable, Codable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// The text of a GraphQL document, kept as the UTF-8 bytes the lexer reads.
///
/// The bytes are kept as given, even when they are not valid UTF-8: the lexer reports an
/// ill-formed byte as a syntax error at its position rather than silently replacing it.
public struct Source: Sendable {
    /// The document's text as UTF-8 bytes.
    public let body: [UInt8]
    /// The name used in diagnostics, such as a file path; graphql-js's default is "GraphQL request".
    public let name: String

    public init(_ body: String, name: String = "GraphQL request") {
        self.body = Array(body.utf8)
        self.name = name
    }

    public init(bytes: [UInt8], name: String = "GraphQL request") {
        self.body = bytes
        self.name = name
    }

    /// The line and column of the byte at `offset` (clamped to the body).
    ///
    /// Lines break at `\n`, `\r\n` and `\r`; the column counts UTF-16 code units from the start
    /// of the line, like graphql-js's `getLocation`.
    public func location(of offset: Int) -> SourceLocation {
        let offset = min(max(offset, 0), body.count)
        return body.withUnsafeBufferPointer { bytes in
            var line = 1
            var lineStart = 0
            var index = 0
            while index < offset {
                let byte = bytes[index]
                index += 1
                if byte == 0x0A {
                    line += 1
                    lineStart = index
                } else if byte == 0x0D {
                    if index < bytes.count && bytes[index] == 0x0A { index += 1 }
                    line += 1
                    lineStart = index
                }
            }
            // An offset inside a `\r\n` pair has no column of its own; graphql-js says 0.
            if lineStart > offset { return SourceLocation(line: line, column: 0) }
            var column = 1
            for byte in bytes[lineStart..<offset] {
                column += Self.utf16Width(leadByte: byte)
            }
            return SourceLocation(line: line, column: column)
        }
    }

    /// How many UTF-16 code units the UTF-8 sequence led by `byte` takes: continuation bytes
    /// take none, four-byte sequences take a surrogate pair.
    @inline(__always)
    static func utf16Width(leadByte byte: UInt8) -> Int {
        if byte < 0x80 { return 1 }
        if byte < 0xC0 { return 0 }
        return byte < 0xF0 ? 1 : 2
    }
}
