import GraphQL
import Synchronization
import Testing

/// Values completed in later rounds (async resolvers, loads) land in the right place of the
/// response, and their errors null the right position: one completed earlier, one completed in
/// another later round, or `data` itself. Each case checks the JSON the executor writes and the
/// tree `data` gives, which are read from the response tape by two different walks.
@Suite struct ExecutionRoundsTests {
    /// The response's JSON, after checking that `data` as a tree says the same.
    func json(_ response: GraphQLResponse, data expected: String) -> String {
        #expect(response.data?.json == expected)
        return response.json
    }

    @Test func anErrorInALaterRoundNullsAListItemCompletedInAnEarlierOne() async throws {
        let schema = try buildASTSchema(parse("""
            type Query { list: [Item] }
            type Item { id: ID! detail: Detail! }
            type Detail { value: Int! }
            """))
        field(schema, "Query.list").resolve = .async { _, _, _, _ in
            [GraphQLValue.object(["id": .string("a")]), .object(["id": .string("b")])]
        }
        field(schema, "Item.detail").resolve = .async { item, _, _, _ in
            GraphQLValue.object(["v": (item as? GraphQLValue)?["id"] == .string("a") ? .int(1) : .null])
        }
        field(schema, "Detail.value").resolve = .async { detail, _, _, _ in (detail as? GraphQLValue)?["v"] }
        let response = await run(schema, "{ list { id detail { value } } }")
        let data = #"{"list":[{"id":"a","detail":{"value":1}},null]}"#
        #expect(json(response, data: data) == #"{"errors":[{"message":"Cannot return null for non-nullable field Detail.value.","locations":[{"line":1,"column":22}],"path":["list",1,"detail","value"]}],"data":\#(data)}"#)
    }

    @Test func aNulledPositionIsSkippedWholeAndItsSiblingsFollow() async throws {
        let schema = try buildASTSchema(parse("""
            type Query { first: Int a: A z: Int }
            type A { x: Int inner: Inner! list: [Int] y: String }
            type Inner { v: Int! w: Int }
            """))
        field(schema, "Inner.v").resolve = .async { _, _, _, _ in nil }
        field(schema, "Inner.w").resolve = .async { _, _, _, _ in 2 }
        let root = try GraphQLValue(json: #"{"first": 0, "a": {"x": 1, "inner": {}, "list": [1, 2], "y": "y"}, "z": 3}"#)
        let response = await run(schema, "{ first a { x inner { w v } list y } z }", root: root)
        let data = #"{"first":0,"a":null,"z":3}"#
        #expect(json(response, data: data) == #"{"errors":[{"message":"Cannot return null for non-nullable field Inner.v.","locations":[{"line":1,"column":25}],"path":["a","inner","v"]}],"data":\#(data)}"#)
    }

    @Test func aSyncErrorDropsTheWaitingFieldsInsideThePositionItNulls() async throws {
        let schema = try buildASTSchema(parse("type Query { thing: Thing after: Int } type Thing { slow: Int bad: Int! }"))
        field(schema, "Thing.slow").resolve = .async { _, _, _, _ in 5 }
        field(schema, "Thing.bad").resolve = .sync { _, _, _, _ in nil }
        let root = try GraphQLValue(json: #"{"thing": {}, "after": 1}"#)
        let response = await run(schema, "{ thing { slow bad } after }", root: root)
        let data = #"{"thing":null,"after":1}"#
        #expect(json(response, data: data) == #"{"errors":[{"message":"Cannot return null for non-nullable field Thing.bad.","locations":[{"line":1,"column":16}],"path":["thing","bad"]}],"data":\#(data)}"#)
    }

    @Test func holesInsideHolesAreFilledInOrder() async throws {
        let schema = try buildASTSchema(parse("type Query { a: Level } type Level { n: Int next: Level }"))
        field(schema, "Query.a").resolve = .async { _, _, _, _ in GraphQLValue.object(["n": .int(1)]) }
        field(schema, "Level.next").resolve = .async { level, _, _, _ in
            let n = (level as? GraphQLValue)?["n"]?.intValue ?? 0
            return n < 3 ? GraphQLValue.object(["n": .int(n + 1)]) : nil
        }
        let response = await run(schema, "{ a { n next { n next { n next { n } } } } }")
        let data = #"{"a":{"n":1,"next":{"n":2,"next":{"n":3,"next":null}}}}"#
        #expect(json(response, data: data) == #"{"data":\#(data)}"#)
    }

    @Test func aNonNullMutationFieldFailingInALaterRoundNullsDataAndStopsTheRest() async throws {
        let schema = try buildASTSchema(parse("""
            type Query { a: Int }
            type Mutation { first: Int second: Int! third: Int }
            """))
        let ran = Mutex<[String]>([])
        for name in ["first", "second", "third"] {
            field(schema, "Mutation.\(name)").resolve = .async { _, _, _, _ in
                ran.withLock { $0.append(name) }
                return name == "second" ? nil : 1
            }
        }
        let response = await run(schema, "mutation { first second third }")
        #expect(json(response, data: "null") == #"{"errors":[{"message":"Cannot return null for non-nullable field Mutation.second.","locations":[{"line":1,"column":18}],"path":["second"]}],"data":null}"#)
        #expect(ran.withLock { $0 } == ["first", "second"])
    }
}
