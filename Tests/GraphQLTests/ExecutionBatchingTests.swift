import GraphQL
import Synchronization
import Testing

/// The request-scoped `DataLoader`: sibling resolvers' loads become one batch call, at every
/// level of nested lists.
@Suite struct ExecutionBatchingTests {
    static let sdl = """
        type Query { entries: [Entry!]! }
        type Entry { id: ID! tags: [Tag!]! authorName: String }
        type Tag { id: ID! name: String owner: Person }
        type Person { id: ID! name: String }
        """

    /// Records every batch call's keys.
    final class Calls: Sendable {
        let calls = Mutex<[[String]]>([])
        func record(_ keys: [String]) { calls.withLock { $0.append(keys) } }
        var all: [[String]] { calls.withLock { $0 } }
    }

    // Each test has an instance of its own: its own schema and calls.
    let tagCalls = Calls()
    let personCalls = Calls()
    let schema: GraphQLSchema

    init() throws {
        schema = try Self.schema(tagCalls, personCalls)
    }

    /// 20 entries; entry i has tags "t(i)" and "t(i+1)"; tag j is owned by person "p(j % 3)".
    static func schema(_ tagCalls: Calls, _ personCalls: Calls) throws -> GraphQLSchema {
        let schema = try buildASTSchema(parse(sdl))
        let tagsOfEntry = DataLoader<String, [GraphQLValue]> { entryIDs, _ in
            tagCalls.record(entryIDs)
            return entryIDs.map { id in
                let number = Int(id.dropFirst())!
                return [number, number + 1].map { .object(["id": .string("t\($0)"), "name": .string("tag \($0)")]) }
            }
        }
        let person = DataLoader<String, GraphQLValue?> { ids, _ in
            personCalls.record(ids)
            return ids.map { $0 == "p2" ? nil : .object(["id": .string($0), "name": .string("name of \($0)")]) }
        }
        field(schema, "Query.entries").resolve = .sync { _, _, _, _ in
            (0..<20).map { GraphQLValue.object(["id": .string("e\($0)")]) }
        }
        field(schema, "Entry.tags").resolve = .sync { entry, _, _, info in
            tagsOfEntry.load((entry as! GraphQLValue)["id"]!.stringValue!, info)
        }
        field(schema, "Tag.owner").resolve = .sync { tag, _, _, info in
            let number = Int((tag as! GraphQLValue)["id"]!.stringValue!.dropFirst())!
            return person.load("p\(number % 3)", info)
        }
        field(schema, "Entry.authorName").resolve = .sync { entry, _, _, info in
            // A load whose value is transformed once known.
            person.load("p0", info).map { value in (value as? GraphQLValue)?["name"] }
        }
        return schema
    }

    @Test func twentyEntriesTagsAreOneBatchCall() async throws {
        let response = await run(schema, "{ entries { id tags { id name } } }")
        #expect(response.errors.isEmpty)
        #expect(tagCalls.all == [(0..<20).map { "e\($0)" }])
        let entries = response.data?["entries"]?.listValue ?? []
        #expect(entries.count == 20)
        #expect(entries[7].json == #"{"id":"e7","tags":[{"id":"t7","name":"tag 7"},{"id":"t8","name":"tag 8"}]}"#)
    }

    @Test func nestedListsBatchOncePerLevel() async throws {
        let response = await run(schema, "{ entries { tags { owner { id name } } } }")
        // One call for the 20 entries' tags, then one for the owners of all 40 tags (3 people).
        #expect(tagCalls.all.count == 1)
        #expect(personCalls.all == [["p0", "p1", "p2"]])
        let owners = response.data?["entries"]?.listValue?[1]["tags"]?.listValue?.map { $0["owner"]?.json }
        #expect(owners == [#"{"id":"p1","name":"name of p1"}"#, "null"])
        #expect(response.errors.isEmpty)
    }

    @Test func aKeyLoadedInARequestIsNotLoadedAgain() async throws {
        let response = await run(schema, "{ entries { authorName tags { owner { name } } } }")
        #expect(response.errors.isEmpty)
        // p0 was loaded for the author names in the first round; the owners' round asks for p1, p2 only.
        #expect(personCalls.all == [["p0"], ["p1", "p2"]])
        #expect(response.data?["entries"]?.listValue?[0]["authorName"] == .string("name of p0"))
    }

    @Test func eachRequestHasItsOwnQueue() async throws {
        let service = GraphQLService(schema: schema)
        for _ in 0..<2 {
            let response = await service.execute(GraphQLRequest(query: "{ entries { authorName } }"))
            #expect(response.errors.isEmpty)
        }
        #expect(personCalls.all == [["p0"], ["p0"]])
    }

    @Test func aFailedBatchFailsEachLoad() async throws {
        let failingSchema = try buildASTSchema(parse(Self.sdl))
        struct Down: Error, CustomStringConvertible { var description: String { "database down" } }
        let failing = DataLoader<String, [GraphQLValue]> { _, _ in throw Down() }
        field(failingSchema, "Query.entries").resolve = .sync { _, _, _, _ in
            [GraphQLValue.object(["id": .string("a")]), GraphQLValue.object(["id": .string("b")])]
        }
        field(failingSchema, "Entry.tags").resolve = .sync { entry, _, _, info in
            failing.load((entry as! GraphQLValue)["id"]!.stringValue!, info)
        }
        let response = await run(failingSchema, "{ entries { id tags { id } } }")
        // tags, each entry and the list are non-null: the first error nulls `data`, and the
        // second (inside it) is dropped.
        #expect(response.errors.map(\.message) == ["database down"])
        #expect(response.errors.first?.path == [.key("entries"), .index(0), .key("tags")])
        #expect(response.json.hasSuffix(#""data":null}"#))
    }

    @Test func asyncWorkAndLoadsShareARound() async throws {
        // The entries come from async work; their tags then form one batch.
        field(schema, "Query.entries").resolve = .async { _, _, _, _ in
            (0..<5).map { GraphQLValue.object(["id": .string("e\($0)")]) }
        }
        let response = await run(schema, "{ entries { id tags { id } } }")
        #expect(tagCalls.all == [["e0", "e1", "e2", "e3", "e4"]])
        #expect(response.data?["entries"]?.listValue?.count == 5)
    }
}
