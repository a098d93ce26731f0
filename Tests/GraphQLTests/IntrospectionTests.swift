import Testing
@testable import GraphQL

/// Corpus/introspection: the introspection types and the specified directives, printed as
/// graphql-core 3.3.2 prints them (every description, argument and default).
@Test func introspectionSchemaPrintsAsGraphQLCore() throws {
    let schema = try buildSchema(TypeSystemCorpus.text("introspection", "schema.graphql"))
    #expect(validateSchema(schema).isEmpty)
    let expected = try TypeSystemCorpus.json("introspection", "expected.json")
    #expect(printIntrospectionSchema(schema) == expected["printed"]?.stringValue)
}

@Test func metaFieldsAreFoundOnTheirTypes() throws {
    let schema = try buildSchema("type Query { a: Int } type Other { b: Int } union U = Other")
    let query = GraphQLNamedType.object(schema.queryType!)
    let other = try #require(schema.type(named: "Other"))
    #expect(schema.field(query, named: "__schema") === SchemaMetaFieldDef)
    #expect(schema.field(query, named: "__type") === TypeMetaFieldDef)
    #expect(schema.field(other, named: "__schema") == nil)
    #expect(schema.field(try #require(schema.type(named: "U")), named: "__typename") === TypeNameMetaFieldDef)
    #expect(schema.field(other, named: "b")?.name == "b")
    #expect(schema.field(try #require(schema.type(named: "Int")), named: "__typename") == nil)
    #expect(schema.field(query, named: "nope") == nil)
}
/// Corpus/introspection: the standard introspection query (whose result graphql-core's
/// `build_client_schema` accepts, see the oracle) and further introspection queries, executed
/// against a schema that uses every feature of the type system.
@Test(arguments: ["standard", "Types", "Schema", "Meta"])
func introspectionCorpus(_ name: String) async throws {
    let schema = try buildSchema(TypeSystemCorpus.text("introspection", "schema.graphql"))
    let root = try TypeSystemCorpus.json("introspection", "root.json")
    let expected = try TypeSystemCorpus.json("introspection", "expected.json")
    // The standard query is the parser corpus's document of it.
    let (folder, file) = name == "standard" ? ("syntax", "valid-introspection-query.graphql") : ("introspection", "queries.graphql")
    let source = Source(try TypeSystemCorpus.text(folder, file), name: file)
    let response = await execute(
        schema: schema, document: try parse(source), source: source, rootValue: root,
        operationName: name == "standard" ? nil : name)
    #expect(response.value == expected[name])
}

/// `introspectionFromSchema` runs the query code generators send and answers what graphql-core
/// answers for its standard query with every option on (the corpus's "standard", which
/// graphql-core's `build_client_schema` accepts).
@Test func introspectionFromSchemaAnswersTheStandardQuery() async throws {
    let schema = try buildSchema(TypeSystemCorpus.text("introspection", "schema.graphql"))
    let expected = try TypeSystemCorpus.json("introspection", "expected.json")
    let introspection = await introspectionFromSchema(schema)
    #expect(introspection == expected["standard"]?["data"])
    #expect(introspection["__schema"]?["types"] != nil)
}
