import Testing

@testable import GraphQL

@Suite struct SourceTests {
    @Test func linesBreakAtLineFeedCarriageReturnAndBoth() {
        let source = Source("a\nb\r\nc\rd")
        #expect(source.location(of: 0) == SourceLocation(line: 1, column: 1))
        #expect(source.location(of: 2) == SourceLocation(line: 2, column: 1))
        #expect(source.location(of: 5) == SourceLocation(line: 3, column: 1))
        #expect(source.location(of: 7) == SourceLocation(line: 4, column: 1))
        #expect(source.location(of: 8) == SourceLocation(line: 4, column: 2))
    }

    @Test func columnsCountUTF16CodeUnits() {
        // "é" is 2 bytes and 1 code unit; "😀" is 4 bytes and 2 code units (a surrogate pair).
        let source = Source("é😀x")
        #expect(source.location(of: 2) == SourceLocation(line: 1, column: 2))
        #expect(source.location(of: 6) == SourceLocation(line: 1, column: 4))
    }

    @Test func offsetsAreClampedToTheBody() {
        let source = Source("ab")
        #expect(source.location(of: 99) == SourceLocation(line: 1, column: 3))
        #expect(source.location(of: -1) == SourceLocation(line: 1, column: 1))
    }

    @Test func errorsLocateTheirNodes() throws {
        let source = Source("{\n  a\n  b\n}")
        let document = try parse(source)
        guard case .operation(let operation) = document.definitions[0] else {
            Issue.record("expected an operation")
            return
        }
        let locations = operation.selectionSet.selections.map { selection -> Location? in
            if case .field(let field) = selection { return field.loc }
            return nil
        }
        let error = GraphQLError(message: "m", source: source, nodes: locations + [nil], path: ["a", 0])
        #expect(error.locations == [SourceLocation(line: 2, column: 3), SourceLocation(line: 3, column: 3)])
        #expect(error.path == [.key("a"), .index(0)])
        #expect(error.description == "m (2:3)")
    }
}
