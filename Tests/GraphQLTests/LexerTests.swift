import Testing

@testable import GraphQL

/// Lexes the whole of `bytes`: the kinds and texts of its tokens, or the syntax error.
func lex(_ bytes: [UInt8]) -> Result<[(TokenKind, String)], GraphQLError> {
    let source = Source(bytes: bytes)
    return source.body.withUnsafeBufferPointer { buffer in
        var lexer = Lexer(source: source, bytes: buffer)
        var tokens: [(TokenKind, String)] = []
        do throws(GraphQLError) {
            repeat {
                try lexer.advance()
                let token = lexer.token
                let text = token.kind == .string || token.kind == .blockString
                    ? lexer.stringValue(of: token) : lexer.text(of: token)
                tokens.append((token.kind, text))
            } while lexer.token.kind != .eof
            return .success(tokens)
        } catch {
            return .failure(error)
        }
    }
}

func lexError(_ bytes: [UInt8]) -> (String, Int, Int)? {
    guard case .failure(let error) = lex(bytes) else { return nil }
    return (error.message, error.locations[0].line, error.locations[0].column)
}

@Suite struct LexerTests {
    @Test func tokensAreByteRangesOfTheSource() throws {
        let tokens = try lex(Array("query Q($a: [Int!] = 1.5e3) @d { ...F, b: c(d: \"e\\u00e9\") } \"\"\"\n  x\n\"\"\"".utf8)).get()
        #expect(tokens.map(\.0) == [
            .name, .name, .parenL, .dollar, .name, .colon, .bracketL, .name, .bang, .bracketR, .equals, .float, .parenR,
            .at, .name, .braceL, .spread, .name, .name, .colon, .name, .parenL, .name, .colon, .string, .parenR,
            .braceR, .blockString, .eof,
        ])
        #expect(tokens[11].1 == "1.5e3")
        #expect(tokens[24].1 == "eé")
        #expect(tokens[27].1 == "x")
    }

    @Test func ignoresByteOrderMarksCommasAndComments() throws {
        let tokens = try lex([0xEF, 0xBB, 0xBF] + Array(",a # comment é\r\n,b".utf8)).get()
        #expect(tokens.map(\.1) == ["a", "b", ""])
    }

    @Test func describesCharactersAsGraphQLJSDoes() {
        #expect(lexError(Array("?".utf8))! == ("Syntax Error: Unexpected character: \"?\".", 1, 1))
        #expect(lexError(Array("\"".utf8))! == ("Syntax Error: Unterminated string.", 1, 2))
        #expect(lexError(Array("1.\"".utf8))! == ("Syntax Error: Invalid number, expected digit but got: '\"'.", 1, 3))
        #expect(lexError(Array("😀".utf8))! == ("Syntax Error: Unexpected character: U+1F600.", 1, 1))
        #expect(lexError(Array("\u{7}".utf8))! == ("Syntax Error: Unexpected character: U+0007.", 1, 1))
    }

    /// Bytes that are not UTF-8 are invalid characters where they stand. A UTF-8-encoded
    /// surrogate is reported as the lone surrogate graphql-js would meet in UTF-16.
    @Test func reportsBytesThatAreNotUTF8() {
        #expect(lexError([0x7B, 0x20, 0xFF])! == ("Syntax Error: Invalid character: byte 0xFF (not UTF-8).", 1, 3))
        #expect(lexError([0x7B, 0xC3])! == ("Syntax Error: Invalid character: byte 0xC3 (not UTF-8).", 1, 2))
        #expect(lexError([0x22, 0x61, 0xED, 0xA0, 0xBD, 0x22])! == ("Syntax Error: Invalid character within String: U+D83D.", 1, 3))
        #expect(lexError([0x22, 0x22, 0x22, 0x0A, 0xC0, 0x80, 0x22, 0x22, 0x22])! == ("Syntax Error: Invalid character within String: byte 0xC0 (not UTF-8).", 2, 1))
        // A comment ends at the first byte that is not UTF-8, which the next token then meets.
        #expect(lexError([0x23, 0x61, 0x80, 0x61])! == ("Syntax Error: Invalid character: byte 0x80 (not UTF-8).", 1, 3))
        // Overlong encodings and values past U+10FFFF are not UTF-8 either.
        #expect(lexError([0x22, 0xE0, 0x80, 0xAF, 0x22])?.0 == "Syntax Error: Invalid character within String: byte 0xE0 (not UTF-8).")
        #expect(lexError([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22])?.0 == "Syntax Error: Invalid character within String: byte 0xF4 (not UTF-8).")
    }

    @Test func decodesEveryUTF8Length() throws {
        let text = "\"a é 中 😀\""
        #expect(try lex(Array(text.utf8)).get().first?.1 == "a é 中 😀")
    }

    @Test func locatesErrorsAfterLineTerminators() {
        #expect(lexError(Array("a\r\n\r\n  ?".utf8))! == ("Syntax Error: Unexpected character: \"?\".", 3, 3))
        #expect(lexError(Array("\"\"\"\r\n\r\n\"\"\" ?".utf8))! == ("Syntax Error: Unexpected character: \"?\".", 3, 5))
    }
}
