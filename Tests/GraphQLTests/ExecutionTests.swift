import GraphQL
import Synchronization
import Testing

/// A field of a schema by `Type.field`, to attach a resolver.
func field(_ schema: GraphQLSchema, _ path: String) -> GraphQLField {
    let parts = path.split(separator: ".").map(String.init)
    guard let type = schema.type(named: parts[0]), let field = type.fields?[parts[1]] else {
        fatalError("no field \(path)")
    }
    return field
}

func run(
    _ schema: GraphQLSchema, _ query: String, root: GraphQLValue = .object([:]), variables: GraphQLObject? = nil,
    operationName: String? = nil, context: any Sendable = GraphQLValue.null
) async -> GraphQLResponse {
    await GraphQLService(schema: schema).execute(
        GraphQLRequest(query: query, operationName: operationName, variables: variables), context: context,
        rootValue: root)
}

@Suite struct ExecutionTests {
    @Test func responseKeysComeInSpecOrder() async throws {
        let schema = try buildASTSchema(parse("type Query { a: Int! b: String }"))
        let root = try GraphQLValue(json: #"{"a": "x", "b": "y"}"#)
        let failed = await run(schema, "{ b a }", root: root)
        #expect(failed.json == #"{"errors":[{"message":"Int cannot represent non-integer value: \"x\"","locations":[{"line":1,"column":5}],"path":["a"]}],"data":null}"#)
        #expect(!failed.isRequestError)
        let fine = await run(schema, "{ b }", root: root)
        #expect(fine.json == #"{"data":{"b":"y"}}"#)
    }

    @Test func requestErrorsHaveNoData() async throws {
        let schema = try buildASTSchema(parse("type Query { a(n: Int!): Int }"))
        let syntax = await run(schema, "{ a(")
        #expect(syntax.isRequestError && syntax.data == nil)
        #expect(syntax.json.hasPrefix(#"{"errors":[{"message":"Syntax Error: "#))
        let variables = await run(schema, "query ($n: Int!) { a(n: $n) }")
        #expect(variables.isRequestError)
        #expect(variables.errors.map(\.message) == [
            "Variable \"$n\" has invalid value: Expected a value of non-null type \"Int!\" to be provided."
        ])
    }

    @Test func operationSelectionMessages() async throws {
        let schema = try buildASTSchema(parse("type Query { a: Int }"))
        let document = try parse("fragment F on Query { a }")
        let none = await execute(schema: schema, document: document)
        #expect(none.errors.map(\.message) == ["Must provide an operation."])
        #expect(none.data == nil)
        let two = try parse("query A { a } query B { a }")
        let unnamed = await execute(schema: schema, document: two)
        #expect(unnamed.errors.map(\.message) == ["Must provide operation name if query contains multiple operations."])
        let unknown = await execute(schema: schema, document: two, operationName: "x")
        #expect(unknown.errors.map(\.message) == ["Unknown operation named \"x\"."])
        let chosen = await execute(
            schema: schema, document: two, rootValue: GraphQLValue.object(["a": .int(1)]), operationName: "B")
        #expect(chosen.json == #"{"data":{"a":1}}"#)
    }

    @Test func schemaWithoutMutationType() async throws {
        let schema = try buildASTSchema(parse("type Query { a: Int }"))
        let response = await execute(schema: schema, document: try parse("mutation { a }"), source: Source("mutation { a }"))
        #expect(response.data == .null)
        #expect(response.errors.map(\.message) == ["Schema is not configured to execute mutation operation."])
        #expect(response.errors.first?.locations == [SourceLocation(line: 1, column: 1)])
    }

    @Test func syncAndAsyncResolversWithArguments() async throws {
        let schema = try buildASTSchema(parse("type Query { greet(name: String = \"you\", times: Int!): [String!]! later: Int }"))
        field(schema, "Query.greet").resolve = .sync { _, arguments, _, info in
            let name = arguments["name"]?.stringValue ?? "?"
            #expect(info.path == [.key("hello")])
            return Array(repeating: "hi \(name)", count: arguments["times"]?.intValue ?? 0)
        }
        field(schema, "Query.later").resolve = .async { _, _, context, _ in
            try await Task.sleep(for: .milliseconds(1))
            return (context as? Int).map { $0 * 2 }
        }
        let response = await run(
            schema, "query ($n: Int!) { hello: greet(times: $n) later }", variables: ["n": .int(2)], context: 21)
        #expect(response.json == #"{"data":{"hello":["hi you","hi you"],"later":42}}"#)
    }

    @Test func thrownErrorsKeepTheirExtensions() async throws {
        let schema = try buildASTSchema(parse("type Query { a: Int b: Int }"))
        struct Oops: Error, CustomStringConvertible { var description: String { "oops" } }
        field(schema, "Query.a").resolve = .sync { _, _, _, _ in
            var error = GraphQLError(message: "not allowed")
            error.extensions = ["code": .string("FORBIDDEN")]
            throw error
        }
        field(schema, "Query.b").resolve = .async { _, _, _, _ in throw Oops() }
        let response = await run(schema, "{ a b }")
        #expect(
            response.json
                == #"{"errors":[{"message":"not allowed","locations":[{"line":1,"column":3}],"path":["a"],"extensions":{"code":"FORBIDDEN"}},{"message":"oops","locations":[{"line":1,"column":5}],"path":["b"]}],"data":{"a":null,"b":null}}"#
        )
    }

    @Test func asyncNonNullErrorNullsTheNearestNullableAncestor() async throws {
        let schema = try buildASTSchema(parse("type Query { outer: Outer } type Outer { inner: Inner! other: Int } type Inner { value: Int! }"))
        field(schema, "Inner.value").resolve = .async { _, _, _, _ in nil }
        let root = try GraphQLValue(json: #"{"outer": {"inner": {}, "other": 1}}"#)
        let response = await run(schema, "{ outer { other inner { value } } }", root: root)
        #expect(response.json == #"{"errors":[{"message":"Cannot return null for non-nullable field Inner.value.","locations":[{"line":1,"column":25}],"path":["outer","inner","value"]}],"data":{"outer":null}}"#)
    }

    @Test func mutationsRunSerially() async throws {
        let schema = try buildASTSchema(parse("""
            type Query { a: Int }
            type Mutation { first: Step second: Step }
            type Step { name: String done: Int }
            """))
        let log = Mutex<[String]>([])
        for name in ["first", "second"] {
            field(schema, "Mutation.\(name)").resolve = .async { _, _, _, _ in
                log.withLock { $0.append("start \(name)") }
                try await Task.sleep(for: .milliseconds(name == "first" ? 20 : 1))
                return GraphQLValue.object(["name": .string(name)])
            }
        }
        field(schema, "Step.done").resolve = .async { source, _, _, _ in
            let name = (source as? GraphQLValue)?["name"]?.stringValue ?? "?"
            log.withLock { $0.append("done \(name)") }
            return 1
        }
        let response = await run(schema, "mutation { first { name done } second { name done } }")
        #expect(response.json == #"{"data":{"first":{"name":"first","done":1},"second":{"name":"second","done":1}}}"#)
        #expect(log.withLock { $0 } == ["start first", "done first", "start second", "done second"])
    }

    @Test func defaultResolverReadsSwiftValues() async throws {
        struct Row: GraphQLFieldReadable {
            var columns: [String: any Sendable]
            func value(forField name: String) -> (any Sendable)? { columns[name] }
        }
        let schema = try buildASTSchema(parse("""
            type Query { rows: [Row!]! things: [Thing] }
            type Row { id: ID! score: Float label: String }
            interface Thing { id: ID! }
            type Gadget implements Thing { id: ID! }
            """))
        field(schema, "Query.rows").resolve = .sync { _, _, _, _ in
            [Row(columns: ["id": 1, "score": 0.5]), Row(columns: ["id": "b", "label": "x"])]
        }
        field(schema, "Query.things").resolve = .sync { _, _, _, _ in
            [["__typename": "Gadget", "id": "g1"] as [String: any Sendable]]
        }
        let response = await run(schema, "{ rows { id score label } things { id __typename } }")
        #expect(
            response.json
                == #"{"data":{"rows":[{"id":"1","score":0.5,"label":null},{"id":"b","score":null,"label":"x"}],"things":[{"id":"g1","__typename":"Gadget"}]}}"#
        )
    }

    @Test func typeResolverAndIsTypeOf() async throws {
        let schema = try buildASTSchema(parse("""
            type Query { pets: [Pet] }
            union Pet = Cat | Dog
            type Cat { meows: Boolean }
            type Dog { barks: Boolean }
            """))
        guard case .object(let dog) = schema.type(named: "Dog"), case .union(let pet) = schema.type(named: "Pet") else {
            Issue.record("types missing")
            return
        }
        dog.isTypeOf = { ($0 as? GraphQLValue)?["barks"] != nil }
        let root = try GraphQLValue(json: #"{"pets": [{"barks": true}, {"meows": true}]}"#)
        let byIsTypeOf = await run(schema, "{ pets { ... on Dog { barks } } }", root: root)
        #expect(byIsTypeOf.errors.count == 1)
        #expect(byIsTypeOf.data?.json == #"{"pets":[{"barks":true},null]}"#)
        pet.resolveType = { value, _, _ in (value as? GraphQLValue)?["meows"] != nil ? "Cat" : "Dog" }
        let byResolveType = await run(schema, "{ pets { ... on Dog { barks } ... on Cat { meows } } }", root: root)
        #expect(byResolveType.json == #"{"data":{"pets":[{"barks":true},{"meows":true}]}}"#)
    }
}
