import Testing

@testable import GraphQL

@Suite struct PrinterTests {
    @Test func printsHandBuiltNodes() {
        let field = Field(
            alias: Name("x"), name: Name("f"),
            arguments: [Argument(name: Name("a"), value: .list(ListValue([.int(IntValue("1")), .null(NullValue())])))],
            directives: [Directive(name: Name("skip"), arguments: [Argument(name: Name("if"), value: .boolean(BooleanValue(true)))])])
        let operation = OperationDefinition(
            operation: .query, name: Name("Q"),
            variableDefinitions: [VariableDefinition(variable: Variable(name: Name("v")), type: .nonNull(NonNullType(type: .named(NamedType(name: Name("Int"))))))],
            selectionSet: SelectionSet(selections: [.field(field)]))
        #expect(print(Document(definitions: [.operation(operation)])) == "query Q($v: Int!) {\n  x: f(a: [1, null]) @skip(if: true)\n}")
    }

    @Test func printsTheShortFormOfAnonymousQueries() throws {
        #expect(print(try parse("query { a }")) == "{\n  a\n}")
        #expect(print(try parse("query Q { a }")) == "query Q {\n  a\n}")
    }

    /// Found by `make fuzz`: the short form after `enum E` printed `enum E\n\n{ A false }`, which
    /// parses as the enum's values (and `false` cannot be one). After a definition that could take
    /// a body, the query keeps its keyword, and the printed text parses to the same document.
    @Test func aShortFormQueryAfterADefinitionWithoutABodyKeepsItsKeyword() throws {
        for (source, printed) in [
            ("enum E query{ A false }", "enum E\n\nquery {\n  A\n  false\n}"),
            ("type T @d query { a }", "type T @d\n\nquery {\n  a\n}"),
            ("extend schema @d query { a }", "extend schema @d\n\nquery {\n  a\n}"),
            ("enum E { A } { a }", "enum E {\n  A\n}\n\n{\n  a\n}"),
            ("{ a } { b }", "{\n  a\n}\n\n{\n  b\n}"),
        ] {
            #expect(print(try parse(source)) == printed, "\(source)")
            #expect(print(try parse(printed)) == printed, "\(source)")
        }
    }

    @Test func printsValuesAndTypes() throws {
        #expect(print(try parseValue(Source(#"{a: "\u00e9\n", b: [A, 1.5]}"#))) == #"{ a: "é\n", b: [A, 1.5] }"#)
        #expect(print(try parseType(Source("[ [A!] ]!"))) == "[[A!]]!")
        #expect(print(Value.string(StringValue("tab\tnul\u{0}del\u{7F}", block: false))) == #""tab\tnul\u0000del\u007F""#)
    }

    @Test func printsBlockStringsByGraphQLJSRules() {
        #expect(BlockString.print("short") == "\"\"\"short\"\"\"")
        #expect(BlockString.print("two\nlines") == "\"\"\"\ntwo\nlines\n\"\"\"")
        #expect(BlockString.print("  leading space") == "\"\"\"  leading space\"\"\"")
        #expect(BlockString.print("trailing quote\"") == "\"\"\"\ntrailing quote\"\n\"\"\"")
        #expect(BlockString.print("trailing backslash\\") == "\"\"\"\ntrailing backslash\\\n\"\"\"")
        #expect(BlockString.print("has \"\"\" inside") == "\"\"\"has \\\"\"\" inside\"\"\"")
        #expect(BlockString.print("first\n  indented") == "\"\"\"\nfirst\n  indented\n\"\"\"")
        #expect(BlockString.print(String(repeating: "x", count: 71)) == "\"\"\"\n" + String(repeating: "x", count: 71) + "\n\"\"\"")
    }

    @Test func blockStringValuesRoundTrip() throws {
        for value in ["a", "  a", "a\n  b", "a\"", "a\\", "\"\"\"", "a\n\n b", "\ta"] {
            let printed = print(Value.string(StringValue(value, block: true)))
            guard case .string(let parsed) = try parseValue(Source(printed)) else {
                Issue.record("not a string: \(printed)")
                continue
            }
            #expect(parsed.value == value, "\(printed)")
        }
    }

    @Test func indentsNestedSelectionsAndDescriptions() throws {
        let printed = print(try parse("type A {\n\"\"\"\n  d\n\n  e\n\"\"\"\nf: Int }"))
        #expect(printed == "type A {\n  \"\"\"\n  d\n  \n  e\n  \"\"\"\n  f: Int\n}")
    }
}
