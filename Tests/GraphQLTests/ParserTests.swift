import Foundation
import Testing

@testable import GraphQL

/// The message and position of the syntax error that parsing `text` throws, if any.
func syntaxError(_ text: String, options: ParseOptions = ParseOptions()) -> (String, Int, Int)? {
    do {
        _ = try parse(text, options: options)
        return nil
    } catch {
        return (error.message, error.locations.first?.line ?? 0, error.locations.first?.column ?? 0)
    }
}

@Suite struct ParserTests {
    @Test func parsesAFieldWithAliasArgumentsDirectivesAndSelections() throws {
        let document = try parse(#"{ a: b(c: 1, d: "x") @e(f: [1.5, $g]) { h } }"#)
        guard case .operation(let operation) = document.definitions.first,
            case .field(let field) = operation.selectionSet.selections.first
        else {
            Issue.record("expected an operation with a field")
            return
        }
        #expect(operation.operation == .query)
        #expect(field.alias?.value == "a")
        #expect(field.name.value == "b")
        #expect(field.arguments.map(\.name.value) == ["c", "d"])
        #expect(field.arguments[0].value == .int(IntValue("1", loc: Location(start: 10, end: 11))))
        #expect(field.arguments[1].value == .string(StringValue("x", loc: Location(start: 16, end: 19))))
        #expect(field.directives.first?.name.value == "e")
        #expect(field.selectionSet?.selections.count == 1)
        #expect(field.loc == Location(start: 2, end: 43))
        #expect(document.loc == Location(start: 0, end: 45))
    }

    @Test func noLocationLeavesEveryLocNil() throws {
        let document = try parse("query Q { a }", options: ParseOptions(noLocation: true))
        guard case .operation(let operation) = document.definitions.first else {
            Issue.record("expected an operation")
            return
        }
        #expect(document.loc == nil)
        #expect(operation.loc == nil)
        #expect(operation.name == Name("Q"))
    }

    @Test func parsesBothKitchenSinks() throws {
        let corpus = syntaxCorpusFolder()
        let query = try parse(Source(bytes: try readBytes(corpus.appendingPathComponent("valid-kitchen-sink.graphql"))))
        #expect(query.definitions.count == 6)
        let schema = try parse(
            Source(bytes: try readBytes(corpus.appendingPathComponent("valid-schema-kitchen-sink.graphql"))))
        #expect(schema.definitions.count > 30)
    }

    @Test func parsesTypeSystemDefinitions() throws {
        let document = try parse(
            """
            "desc" type A implements & B & C @d { f(a: Int = 1 @x): [A!]! }
            interface I implements J { f: Int }
            union U = | A | B
            directive @r(a: Int) repeatable on FIELD | QUERY
            extend schema @s
            extend type A { g: Int }
            """)
        #expect(document.definitions.count == 6)
        guard case .type(.object(let object)) = document.definitions[0] else {
            Issue.record("expected an object type")
            return
        }
        #expect(object.description?.value == "desc")
        #expect(object.interfaces.map(\.name.value) == ["B", "C"])
        #expect(object.fields.first?.arguments.first?.defaultValue == .int(IntValue("1", loc: Location(start: 49, end: 50))))
        guard case .directive(let directive) = document.definitions[3] else {
            Issue.record("expected a directive definition")
            return
        }
        #expect(directive.repeatable)
        #expect(directive.locations.map(\.value) == ["FIELD", "QUERY"])
    }

    @Test func reportsGraphQLJSMessages() {
        #expect(syntaxError("{")! == ("Syntax Error: Expected Name, found <EOF>.", 1, 2))
        #expect(syntaxError("query")! == ("Syntax Error: Expected \"{\", found <EOF>.", 1, 6))
        #expect(syntaxError("{ ...on }")! == ("Syntax Error: Expected Name, found \"}\".", 1, 9))
        #expect(syntaxError("notAnOperation Foo { field }")! == ("Syntax Error: Unexpected Name \"notAnOperation\".", 1, 1))
        #expect(syntaxError("query Foo($a: Int = $b) { a }")! == ("Syntax Error: Unexpected variable \"$b\" in constant value.", 1, 21))
        #expect(syntaxError("fragment on on on { on }")! == ("Syntax Error: Unexpected Name \"on\".", 1, 10))
        #expect(syntaxError("enum E { true }")! == ("Syntax Error: Name \"true\" is reserved and cannot be used for an enum value.", 1, 10))
        #expect(syntaxError("extend type A")! == ("Syntax Error: Unexpected <EOF>.", 1, 14))
    }

    @Test func limitsTokens() {
        #expect(syntaxError("{ a a a }", options: ParseOptions(maxTokens: 4))! == ("Syntax Error: Document contains more than 4 tokens. Parsing aborted.", 1, 9))
        #expect(syntaxError("{ a a # comment\n a }", options: ParseOptions(maxTokens: 5)) == nil)
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let selections = String(repeating: "{a", count: 10_000) + String(repeating: "}", count: 10_000)
        #expect(syntaxError(selections)?.0 == "Syntax Error: Document is nested too deeply. Parsing aborted.")
        let lists = "{a(x: " + String(repeating: "[", count: 100_000) + ")}"
        #expect(syntaxError(lists)?.0 == "Syntax Error: Document is nested too deeply. Parsing aborted.")
        let objects = "{a(x: " + String(repeating: "{a:", count: 10_000) + ")}"
        #expect(syntaxError(objects)?.0 == "Syntax Error: Document is nested too deeply. Parsing aborted.")
        #expect(syntaxError(String(repeating: "{a", count: 20) + String(repeating: "}", count: 20), options: ParseOptions(maxDepth: 20)) == nil)
        #expect(syntaxError(String(repeating: "{a", count: 21) + String(repeating: "}", count: 21), options: ParseOptions(maxDepth: 20))! == ("Syntax Error: Document is nested too deeply. Parsing aborted.", 1, 41))
    }

    @Test func parsesValuesAndTypesAlone() throws {
        #expect(try parseValue(Source("[1, $a]"), options: ParseOptions(noLocation: true)) == .list(ListValue([.int(IntValue("1")), .variable(Variable(name: Name("a")))])))
        #expect(throws: GraphQLError.self) { try parseConstValue(Source("$a")) }
        #expect(try parseType(Source("[A!]"), options: ParseOptions(noLocation: true)) == .list(ListType(type: .nonNull(NonNullType(type: .named(NamedType(name: Name("A"))))))))
    }
}

/// The folder of the syntax corpus, found from this file's path (no SwiftPM resources).
func syntaxCorpusFolder(filePath: String = #filePath) -> URL {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Corpus/syntax")
}

func readBytes(_ url: URL) throws -> [UInt8] {
    Array(try Data(contentsOf: url))
}

@Test func responseKeyIsAliasOrName() {
    #expect(Field(name: Name("a")).responseKey == "a")
    #expect(Field(alias: Name("b"), name: Name("a")).responseKey == "b")
}
