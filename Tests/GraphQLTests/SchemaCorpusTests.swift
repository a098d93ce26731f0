import Testing
@testable import GraphQL

/// Corpus/schema: each SDL case built, validated and printed, against graphql-core 3.3.2's
/// `validate_schema` errors and `print_schema` output recorded by Corpus/schema/oracle.py.
@Test(arguments: try TypeSystemCorpus.files("schema", extension: "graphql"))
func schemaCorpusCase(_ file: String) throws {
    let name = String(file.dropLast(".graphql".count))
    let expected = try #require(try TypeSystemCorpus.json("schema", "expected.json")[name])
    // SDL validation belongs to document validation; these cases are valid SDL.
    #expect(expected["sdl_errors"] == .list([]))
    let source = Source(try TypeSystemCorpus.text("schema", file), name: file)
    let schema = try buildSchema(source)
    let errors = validateSchema(schema).map { error -> GraphQLValue in
        var object: GraphQLObject = ["message": .string(error.message)]
        if !error.locations.isEmpty {
            object["locations"] = .list(error.locations.map { .object(["line": .int($0.line), "column": .int($0.column)]) })
        }
        return .object(object)
    }
    #expect(errors == expected["schema_errors"]!.listValue!)
    if let printed = expected["printed"] {
        #expect(printSchema(schema) == printed.stringValue!)
    } else {
        #expect(!errors.isEmpty)
    }
}
