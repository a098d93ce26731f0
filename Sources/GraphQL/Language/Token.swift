/// The kinds of lexical tokens, named as in graphql-js's `TokenKind`.
enum TokenKind: UInt8, Sendable {
    case sof, eof
    case bang, dollar, amp, parenL, parenR, spread, colon, equals, at, bracketL, bracketR, braceL, pipe, braceR
    case name, int, float, string, blockString

    /// How graphql-js names the kind in error messages: punctuators quoted, others by name.
    var description: String {
        switch self {
        case .sof: "<SOF>"
        case .eof: "<EOF>"
        case .bang: "\"!\""
        case .dollar: "\"$\""
        case .amp: "\"&\""
        case .parenL: "\"(\""
        case .parenR: "\")\""
        case .spread: "\"...\""
        case .colon: "\":\""
        case .equals: "\"=\""
        case .at: "\"@\""
        case .bracketL: "\"[\""
        case .bracketR: "\"]\""
        case .braceL: "\"{\""
        case .pipe: "\"|\""
        case .braceR: "\"}\""
        case .name: "Name"
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .blockString: "BlockString"
        }
    }
}

/// A lexical token: its kind and the byte range `start..<end` it spans in the source.
///
/// A token is plain data; its text or string value is decoded from the source only when the
/// parser needs it (`Lexer.text(of:)`, `Lexer.stringValue(of:)`).
struct Token: Sendable {
    var kind: TokenKind
    var start: Int
    var end: Int

    init(_ kind: TokenKind, _ start: Int, _ end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
    }
}
