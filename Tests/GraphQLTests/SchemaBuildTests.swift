import Testing
@testable import GraphQL

private func named(_ name: String) -> TypeReference { .named(NamedType(name: Name(name))) }

@Test func buildsSchemaFromHandWrittenAST() throws {
    let query = ObjectTypeDefinition(
        name: Name("Query"),
        fields: [
            FieldDefinition(
                name: Name("greet"),
                arguments: [InputValueDefinition(name: Name("times"), type: named("Int"), defaultValue: .int(IntValue("2")))],
                type: .nonNull(NonNullType(type: named("Mood")))),
            FieldDefinition(
                name: Name("old"), type: named("String"),
                directives: [Directive(name: Name("deprecated"))]),
        ])
    let mood = EnumTypeDefinition(name: Name("Mood"), values: [EnumValueDefinition(name: Name("HAPPY"))])
    let moodExtension = EnumTypeDefinition(name: Name("Mood"), values: [EnumValueDefinition(name: Name("SAD"))])
    let schema = try buildASTSchema([
        Document(definitions: [.type(.object(query))]),
        Document(definitions: [.type(.enum(mood)), .typeExtension(.enum(moodExtension))]),
    ])
    #expect(schema.queryType?.name == "Query")
    #expect(schema.typeMap.names == [
        "Query", "Int", "String", "Mood", "Boolean", "__Schema", "__Type", "__TypeKind", "__Field", "__InputValue",
        "__EnumValue", "__Directive", "__DirectiveLocation",
    ])
    guard case .enum(let built) = schema.type(named: "Mood") else { Issue.record("Mood"); return }
    #expect(built.values.names == ["HAPPY", "SAD"])
    let greet = schema.queryType?.fields["greet"]
    #expect(greet?.arguments["times"]?.defaultValue == .int(2))
    #expect(greet?.type.name == "Mood!")
    #expect(schema.queryType?.fields["old"]?.deprecationReason == "No longer supported")
    #expect(schema.directives.map(\.name) == ["include", "skip", "deprecated", "specifiedBy", "oneOf"])
    #expect(typeFromAST(schema, .list(ListType(type: named("Mood"))))?.name == "[Mood]")
    #expect(typeFromAST(schema, named("Nope")) == nil)
}

@Test func unknownTypesAreReported() {
    let query = ObjectTypeDefinition(name: Name("Query"), fields: [FieldDefinition(name: Name("a"), type: named("Nope"))])
    #expect(throws: GraphQLError(message: "Unknown type: \"Nope\".")) {
        try buildASTSchema(Document(definitions: [.type(.object(query))]))
    }
}

@Test func buildsOneSchemaFromSeveralSources() throws {
    let schema = try buildSchema([
        Source("type Query { entries: [Entry] }", name: "journals.graphql"),
        Source("type Entry { id: ID! }\nextend type Query { tags: [String!] }", name: "tags.graphql"),
    ])
    #expect(schema.queryType?.fields.names == ["entries", "tags"])
    #expect(schema.source == nil)
    #expect(validateSchema(schema).isEmpty)

    let invalid = try buildSchema([Source("type Query { a: Int }"), Source("union U")])
    #expect(validateSchema(invalid) == [GraphQLError(message: "Union type U must define one or more member types.")])
    #expect(throws: GraphQLError.self) { try buildSchema([Source("type Query { a: Int }"), Source("type {")]) }
}

@Test func assertValidSchemaJoinsTheMessages() throws {
    let schema = try buildSchema("type Query { __a: Int }\nenum E")
    #expect(throws: GraphQLError(message: """
        Name "__a" must not begin with "__", which is reserved by GraphQL introspection.

        Enum type E must define one or more values.
        """)) { try assertValidSchema(schema) }
    #expect(validateSchema(schema).map(\.locations) == [
        [SourceLocation(line: 1, column: 14)], [SourceLocation(line: 2, column: 1)],
    ])
}

@Test func defaultsAreCoercedWithTheDefaultsOfTypesDefinedLater() throws {
    let schema = try buildSchema("""
        type Query { a(x: In = { b: {} }, y: [Int] = 1, z: Float = 2): Int }
        input In { b: Nested, c: Int = 7 }
        input Nested { d: String = "deep" }
        """)
    let arguments = try #require(schema.queryType?.fields["a"]?.arguments)
    #expect(arguments["x"]?.defaultValue == .object(["b": .object(["d": .string("deep")]), "c": .int(7)]))
    #expect(arguments["y"]?.defaultValue == .list([.int(1)]))
    #expect(arguments["z"]?.defaultValue == .float(2))
}
