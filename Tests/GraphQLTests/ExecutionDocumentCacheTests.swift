import GraphQL
import Testing

@Suite struct ExecutionDocumentCacheTests {
    @Test func repeatedDocumentsComeFromTheCache() async throws {
        let schema = try buildASTSchema(parse("type Query { a: Int }"))
        let service = GraphQLService(schema: schema, cacheCapacity: 2)
        let root = GraphQLValue.object(["a": .int(1)])
        for _ in 0..<3 { _ = await service.execute(GraphQLRequest(query: "{ a }"), rootValue: root) }
        #expect(service.documentCache.statistics.hits == 2)
        #expect(service.documentCache.statistics.misses == 1)
        // Invalid documents are kept with their errors.
        let bad = await service.execute(GraphQLRequest(query: "{ b }"))
        let again = await service.execute(GraphQLRequest(query: "{ b }"))
        #expect(bad == again && bad.isRequestError)
        #expect(service.documentCache.statistics.hits == 3)
    }

    @Test func leastRecentlyUsedIsDroppedWhenFull() async throws {
        let schema = try buildASTSchema(parse("type Query { a: Int b: Int c: Int }"))
        let service = GraphQLService(schema: schema, cacheCapacity: 2)
        let cache = service.documentCache
        _ = await service.execute(GraphQLRequest(query: "{ a }"))  // miss
        _ = await service.execute(GraphQLRequest(query: "{ b }"))  // miss
        _ = await service.execute(GraphQLRequest(query: "{ a }"))  // hit: b is now the oldest
        _ = await service.execute(GraphQLRequest(query: "{ c }"))  // miss: drops b
        #expect(cache.count == 2)
        _ = await service.execute(GraphQLRequest(query: "{ a }"))  // hit
        _ = await service.execute(GraphQLRequest(query: "{ b }"))  // miss again
        #expect(cache.statistics.hits == 2)
        #expect(cache.statistics.misses == 4)
    }

    @Test func plansFollowSkipAndIncludeVariables() async throws {
        let schema = try buildASTSchema(parse("type Query { a: Int b: Int }"))
        let service = GraphQLService(schema: schema)
        let root = GraphQLValue.object(["a": .int(1), "b": .int(2)])
        let query = "query ($x: Boolean!) { a @include(if: $x) b @skip(if: $x) }"
        let yes = await service.execute(GraphQLRequest(query: query, variables: ["x": .bool(true)]), rootValue: root)
        let no = await service.execute(GraphQLRequest(query: query, variables: ["x": .bool(false)]), rootValue: root)
        let yesAgain = await service.execute(GraphQLRequest(query: query, variables: ["x": .bool(true)]), rootValue: root)
        #expect(yes.json == #"{"data":{"a":1}}"#)
        #expect(no.json == #"{"data":{"b":2}}"#)
        #expect(yesAgain == yes)
    }

    @Test func concurrentRequestsShareTheCache() async throws {
        let schema = try buildASTSchema(parse("type Query { a: Int }"))
        let service = GraphQLService(schema: schema, cacheCapacity: 8)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let response = await service.execute(
                        GraphQLRequest(query: "{ a \(String(repeating: " ", count: index % 16)) }"),
                        rootValue: GraphQLValue.object(["a": .int(index)]))
                    #expect(response.data?["a"] == .int(index))
                }
            }
        }
        #expect(service.documentCache.count == 8)
        #expect(service.documentCache.statistics.hits + service.documentCache.statistics.misses == 64)
    }
}
