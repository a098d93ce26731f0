import Testing
@testable import GraphQL

/// Corpus/coercion: input coercion of JSON values and of literals (with and without variables)
/// and output coercion of the built-in scalars and enums, against graphql-core 3.3.2's results
/// recorded by Corpus/coercion/oracle.py.
struct CoercionCorpusTests {
    let schema: GraphQLSchema
    let cases: GraphQLValue
    let expected: GraphQLValue

    init() throws {
        schema = try buildSchema(TypeSystemCorpus.text("coercion", "schema.graphql"))
        cases = try TypeSystemCorpus.json("coercion", "cases.json")
        expected = try TypeSystemCorpus.json("coercion", "expected.json")
    }

    private func type(_ text: GraphQLValue) throws -> GraphQLType {
        try #require(typeFromAST(schema, parseType(Source(text.stringValue!))))
    }

    @Test func jsonValues() throws {
        let results = expected["values"]!.listValue!
        for (index, item) in cases["values"]!.listValue!.enumerated() {
            let pair = item.listValue!, want = results[index]
            let type = try type(pair[0])
            let coerced = coerceInputValue(pair[1], type)
            #expect(sameJSON(coerced ?? .string("<invalid>"), want["coerced"]!), "\(pair)")
            var errors: [GraphQLValue] = []
            validateInputValue(pair[1], type) { errors.append(describe($0, source: nil)) }
            #expect(errors == want["errors"]!.listValue!, "\(pair)")
        }
    }

    @Test func literals() throws {
        try checkLiterals(cases["literals"]!.listValue!, expected["literals"]!.listValue!, variables: nil)
    }

    @Test func literalsWithVariables() throws {
        let given = cases["variables"]!["values"]!.objectValue!
        var variables: [String: GraphQLValue] = [:]
        for (name, value) in given.entries { variables[name] = value }
        // As coerced by the operation of the oracle: the Point variable gets its defaults.
        variables["point"] = .object(["x": .int(1), "y": .int(0), "color": .string("RED")])
        try checkLiterals(
            cases["variables"]!["literals"]!.listValue!, expected["variables"]!.listValue!, variables: variables)
    }

    private func checkLiterals(
        _ cases: [GraphQLValue], _ results: [GraphQLValue], variables: [String: GraphQLValue]?
    ) throws {
        for (index, item) in cases.enumerated() {
            let pair = item.listValue!, want = results[index]
            let type = try type(pair[0])
            let source = Source(pair[1].stringValue!)
            let literal = try parseValue(source)
            let coerced = coerceInputLiteral(literal, type, variables: variables)
            #expect(sameJSON(coerced ?? .string("<invalid>"), want["coerced"]!), "\(pair)")
            var errors: [GraphQLValue] = []
            validateInputLiteral(literal, type, variables: variables) { errors.append(describe($0, source: source)) }
            #expect(errors == want["errors"]!.listValue!, "\(pair)")
        }
    }

    @Test func serialize() throws {
        let results = expected["serialize"]!.listValue!
        for (index, item) in cases["serialize"]!.listValue!.enumerated() {
            let pair = item.listValue!, want = results[index]
            let serialize: (GraphQLValue) throws -> GraphQLValue =
                switch try type(pair[0]).namedType {
                case .scalar(let scalar): { try scalar.serialize($0) }
                case .enum(let enumType): { try enumType.serialize($0) }
                default: { _ in .null }
                }
            do {
                let result = try serialize(pair[1])
                #expect(want["result"].map { sameJSON(result, $0) } == true, "\(pair) gave \(result)")
            } catch let error as GraphQLError {
                #expect(want["error"] == .string(error.message), "\(pair)")
            }
        }
    }
}

/// An input error as the oracle records it.
private func describe(_ error: InputValueError, source: Source?) -> GraphQLValue {
    var object: GraphQLObject = ["message": .string(error.message)]
    if let source, let node = error.node {
        let location = source.location(of: node.start)
        object["locations"] = .list([.object(["line": .int(location.line), "column": .int(location.column)])])
    }
    object["path"] = .list(error.path.map { component in
        switch component {
        case .key(let key): .string(key)
        case .index(let index): .int(index)
        }
    })
    return .object(object)
}

/// Equality of JSON values, numbers compared by value (JavaScript has one number type).
func sameJSON(_ a: GraphQLValue, _ b: GraphQLValue) -> Bool {
    switch (a, b) {
    case (.int, .float), (.float, .int), (.float, .float): a.doubleValue == b.doubleValue
    case (.list(let a), .list(let b)): a.count == b.count && zip(a, b).allSatisfy(sameJSON)
    case (.object(let a), .object(let b)):
        a.keys == b.keys && zip(a.values, b.values).allSatisfy(sameJSON)
    default: a == b
    }
}
