/// Options of the parser.
public struct ParseOptions: Sendable {
    /// Leave every node's `loc` nil (graphql-js `noLocation`).
    public var noLocation: Bool
    /// Abort with a syntax error after this many tokens, comments not counted (graphql-js
    /// `maxTokens`): a bound on the work an untrusted document can cause before validation.
    public var maxTokens: Int?
    /// The deepest nesting of selection sets, list and object values and list types accepted;
    /// deeper input is a syntax error, never a stack overflow. graphql-core's limit is 200.
    public var maxDepth: Int

    public init(noLocation: Bool = false, maxTokens: Int? = nil, maxDepth: Int = 200) {
        self.noLocation = noLocation
        self.maxTokens = maxTokens
        self.maxDepth = maxDepth
    }
}

/// Parses a GraphQL document: executable definitions and the type system language alike.
///
/// Syntax errors are thrown with graphql-js's messages ("Syntax Error: Expected Name, found
/// <EOF>.") and the line and column of the offending token. The grammar is graphql-core 3.3's
/// default one: descriptions on operations, fragments and variables (September 2025 edition),
/// empty selection sets `{}` and directives on directive definitions are accepted; its
/// `extend directive` and experimental fragment arguments are not.
public func parse(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Document {
    try Parser.run(source, options) { parser throws(GraphQLError) in try parser.parseDocument() }
}

public func parse(_ text: String, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Document {
    try parse(Source(text), options: options)
}

/// Parses a single value, e.g. `[1, $a]`, as graphql-js `parseValue`.
public func parseValue(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Value {
    try Parser.run(source, options) { parser throws(GraphQLError) in
        try parser.parseWhole { parser throws(GraphQLError) in try parser.parseValueLiteral(isConst: false) }
    }
}

/// Parses a single constant value (no variables), as graphql-js `parseConstValue`.
public func parseConstValue(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Value {
    try Parser.run(source, options) { parser throws(GraphQLError) in
        try parser.parseWhole { parser throws(GraphQLError) in try parser.parseValueLiteral(isConst: true) }
    }
}

/// Parses a type reference, e.g. `[String!]!`, as graphql-js `parseType`.
public func parseType(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> TypeReference {
    try Parser.run(source, options) { parser throws(GraphQLError) in
        try parser.parseWhole { parser throws(GraphQLError) in try parser.parseTypeReference() }
    }
}

/// A recursive-descent parser over a `Lexer`, one method per grammar rule as in graphql-js.
/// The grammar rules are in `ParserExecutable.swift`, `ParserValues.swift` and
/// `ParserTypeSystem.swift`; this file has the token-level helpers they share.
struct Parser {
    var lexer: Lexer
    let options: ParseOptions
    private var depth = 0
    private var tokenCount = 0

    /// Runs `body` on a parser over `source`, whose bytes are borrowed for the duration.
    static func run<T>(
        _ source: Source, _ options: ParseOptions, _ body: (inout Parser) throws(GraphQLError) -> T
    ) throws(GraphQLError) -> T {
        let result: Result<T, GraphQLError> = source.body.withUnsafeBufferPointer { bytes in
            var parser = Parser(lexer: Lexer(source: source, bytes: bytes), options: options)
            do throws(GraphQLError) {
                return .success(try body(&parser))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private init(lexer: Lexer, options: ParseOptions) {
        self.lexer = lexer
        self.options = options
    }

    /// Parses `<SOF> rule <EOF>`.
    mutating func parseWhole<T>(_ rule: (inout Parser) throws(GraphQLError) -> T) throws(GraphQLError) -> T {
        try expect(.sof)
        let result = try rule(&self)
        try expect(.eof)
        return result
    }

    // MARK: - Tokens

    var token: Token { lexer.token }

    /// Moves to the next token, counting it against `maxTokens`.
    mutating func advance() throws(GraphQLError) {
        try lexer.advance()
        if let maxTokens = options.maxTokens, lexer.token.kind != .eof {
            tokenCount += 1
            if tokenCount > maxTokens {
                throw lexer.syntaxError(
                    "Document contains more than \(maxTokens) tokens. Parsing aborted.", at: lexer.token.start)
            }
        }
    }

    /// The location from the start of `startToken` to the end of the last token consumed.
    func loc(_ startToken: Token) -> Location? {
        options.noLocation ? nil : Location(start: startToken.start, end: lexer.lastToken.end)
    }

    func peek(_ kind: TokenKind) -> Bool { lexer.token.kind == kind }

    /// Consumes a token of `kind`, or throws "Expected …, found …".
    @discardableResult
    mutating func expect(_ kind: TokenKind) throws(GraphQLError) -> Token {
        let token = lexer.token
        guard token.kind == kind else {
            throw lexer.syntaxError("Expected \(kind.description), found \(lexer.describe(token)).", at: token.start)
        }
        try advance()
        return token
    }

    /// Consumes a token of `kind` if it is next.
    mutating func expectOptional(_ kind: TokenKind) throws(GraphQLError) -> Bool {
        guard lexer.token.kind == kind else { return false }
        try advance()
        return true
    }

    /// Consumes the name `keyword`, or throws "Expected "keyword", found …".
    mutating func expectKeyword(_ keyword: StaticString) throws(GraphQLError) {
        let token = lexer.token
        guard lexer.isKeyword(token, keyword) else {
            throw lexer.syntaxError("Expected \"\(keyword)\", found \(lexer.describe(token)).", at: token.start)
        }
        try advance()
    }

    /// Consumes the name `keyword` if it is next.
    mutating func expectOptionalKeyword(_ keyword: StaticString) throws(GraphQLError) -> Bool {
        guard lexer.isKeyword(lexer.token, keyword) else { return false }
        try advance()
        return true
    }

    /// "Unexpected …" at `token`, by default the current one.
    func unexpected(_ token: Token? = nil) -> GraphQLError {
        let token = token ?? lexer.token
        return lexer.syntaxError("Unexpected \(lexer.describe(token)).", at: token.start)
    }

    /// The token's text or string value, as graphql-js's `token.value`.
    func value(of token: Token) -> String? {
        switch token.kind {
        case .name, .int, .float: lexer.text(of: token)
        case .string, .blockString: lexer.stringValue(of: token)
        default: nil
        }
    }

    /// Enters one level of nesting; the error is reported at the current token.
    mutating func enterNesting() throws(GraphQLError) {
        depth += 1
        if depth > options.maxDepth {
            throw lexer.syntaxError("Document is nested too deeply. Parsing aborted.", at: lexer.token.start)
        }
    }

    mutating func leaveNesting() { depth -= 1 }

    // MARK: - Lists of nodes

    /// `open item* close`: possibly empty.
    mutating func any<T>(
        _ open: TokenKind, _ close: TokenKind, _ item: (inout Parser) throws(GraphQLError) -> T
    ) throws(GraphQLError) -> [T] {
        try expect(open)
        var nodes: [T] = []
        while try !expectOptional(close) {
            nodes.append(try item(&self))
        }
        return nodes
    }

    /// `open item+ close`.
    mutating func many<T>(
        _ open: TokenKind, _ close: TokenKind, _ item: (inout Parser) throws(GraphQLError) -> T
    ) throws(GraphQLError) -> [T] {
        try expect(open)
        var nodes = [try item(&self)]
        while try !expectOptional(close) {
            nodes.append(try item(&self))
        }
        return nodes
    }

    /// `(open item+ close)?`: empty only when `open` is absent.
    mutating func optionalMany<T>(
        _ open: TokenKind, _ close: TokenKind, _ item: (inout Parser) throws(GraphQLError) -> T
    ) throws(GraphQLError) -> [T] {
        guard lexer.token.kind == open else { return [] }
        return try many(open, close, item)
    }

    /// `delimiter? item (delimiter item)*`.
    mutating func delimitedMany<T>(
        _ delimiter: TokenKind, _ item: (inout Parser) throws(GraphQLError) -> T
    ) throws(GraphQLError) -> [T] {
        _ = try expectOptional(delimiter)
        var nodes: [T] = []
        repeat {
            nodes.append(try item(&self))
        } while try expectOptional(delimiter)
        return nodes
    }

    // MARK: - Names

    mutating func parseName() throws(GraphQLError) -> Name {
        let token = try expect(.name)
        return Name(lexer.text(of: token), loc: options.noLocation ? nil : Location(start: token.start, end: token.end))
    }
}
