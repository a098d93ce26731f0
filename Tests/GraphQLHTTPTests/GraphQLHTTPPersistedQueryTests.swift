import GraphQL
import HTTPTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GraphQLHTTP

/// Apollo's automatic persisted queries.
@Suite struct GraphQLHTTPPersistedQueryTests {
    let query = "{ a }"
    var hash: String { GraphQLHTTPPersistedQueries.sha256Hex(query) }

    func extensions(_ hash: String, version: Int = 1) -> String {
        #"{"persistedQuery":{"version":\#(version),"sha256Hash":"\#(hash)"}}"#
    }

    @Test func hashesAsSHA256Hex() {
        #expect(
            GraphQLHTTPPersistedQueries.sha256Hex("query { __typename }")
                == "8995e953e895e960e470a1ee90e4b29520981980dcbc5e51ce0d7a2169b7049e")
        #expect(GraphQLHTTPPersistedQueries.sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func unknownHashIsNotFoundThenRegisteredThenFound() async throws {
        let handler = GraphQLHTTPHandler(executor: EchoExecutor())
        try await withGraphQLServer(handler) { client in
            let hashOnly = #"{"extensions":\#(extensions(hash))}"#
            let legacy = try await client.post(hashOnly, accept: "application/json")
            #expect(legacy.status == .ok)
            #expect(try legacy.json == .object([
                "errors": .list([.object([
                    "message": .string("PersistedQueryNotFound"),
                    "extensions": .object(["code": .string("PERSISTED_QUERY_NOT_FOUND")]),
                ])])
            ]))
            let modern = try await client.post(hashOnly, accept: "application/graphql-response+json")
            #expect(modern.status == .badRequest)
            #expect(try modern.json["errors"]?.listValue?.first?["extensions"]?["code"] == .string("PERSISTED_QUERY_NOT_FOUND"))

            let register = try await client.post(#"{"query":"\#(query)","extensions":\#(extensions(hash))}"#)
            #expect(register.status == .ok)
            #expect(try register.json["data"]?["query"] == .string(query))

            let found = try await client.post(hashOnly)
            #expect(found.status == .ok)
            #expect(try found.json["data"]?["query"] == .string(query))
        }
    }

    @Test func worksOverGet() async throws {
        let handler = GraphQLHTTPHandler(executor: EchoExecutor())
        try await withGraphQLServer(handler) { client in
            let missing = try await client.get([("extensions", extensions(hash))], accept: "application/json")
            #expect(missing.errorMessages == ["PersistedQueryNotFound"])
            let register = try await client.get([("query", query), ("extensions", extensions(hash))])
            #expect(register.status == .ok)
            let found = try await client.get([("extensions", extensions(hash))])
            #expect(found.status == .ok)
            #expect(try found.json["data"]?["query"] == .string(query))
        }
    }

    @Test func aPersistedMutationIsStill405OverGet() async throws {
        let handler = GraphQLHTTPHandler(executor: EchoExecutor())
        let mutation = "mutation { a }"
        let hash = GraphQLHTTPPersistedQueries.sha256Hex(mutation)
        try await withGraphQLServer(handler) { client in
            _ = try await client.post(#"{"query":"\#(mutation)","extensions":\#(extensions(hash))}"#)
            let response = try await client.get([("extensions", extensions(hash))])
            #expect(response.status == .methodNotAllowed)
        }
    }

    @Test func mismatchedHashIs400AndNotStored() async throws {
        let handler = GraphQLHTTPHandler(executor: EchoExecutor())
        try await withGraphQLServer(handler) { client in
            let wrong = GraphQLHTTPPersistedQueries.sha256Hex("{ b }")
            for accept in ["application/json", "application/graphql-response+json"] {
                let response = try await client.post(#"{"query":"\#(query)","extensions":\#(extensions(wrong))}"#, accept: accept)
                #expect(response.status == .badRequest)
                #expect(response.errorMessages == ["provided sha does not match query"])
            }
            let lookUp = try await client.post(#"{"extensions":\#(extensions(wrong))}"#, accept: "application/json")
            #expect(lookUp.errorMessages == ["PersistedQueryNotFound"])
        }
    }

    @Test func unsupportedVersionAndMalformedExtensionAre400() async throws {
        let handler = GraphQLHTTPHandler(executor: EchoExecutor())
        try await withGraphQLServer(handler) { client in
            let version = try await client.post(#"{"query":"\#(query)","extensions":\#(extensions(hash, version: 2))}"#)
            #expect(version.status == .badRequest)
            #expect(version.errorMessages == ["Unsupported persisted query version"])
            let malformed = try await client.post(#"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":5}}}"#)
            #expect(malformed.status == .badRequest)
        }
    }

    @Test func disabledPersistedQueriesSayNotSupported() async throws {
        let handler = GraphQLHTTPHandler(executor: EchoExecutor(), configuration: .init(persistedQueryCapacity: 0))
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(#"{"extensions":\#(extensions(hash))}"#, accept: "application/json")
            #expect(response.status == .ok)
            #expect(try response.json["errors"]?.listValue?.first?["extensions"]?["code"] == .string("PERSISTED_QUERY_NOT_SUPPORTED"))
        }
    }

    @Test func theStoreIsBounded() throws {
        let store = GraphQLHTTPPersistedQueries(capacity: 4, maxBytes: 1 << 20)
        func register(_ query: String) throws {
            let parameters = try GraphQLHTTPParameters(json: .object([
                "query": .string(query),
                "extensions": .object(["persistedQuery": .object(["version": .int(1), "sha256Hash": .string(GraphQLHTTPPersistedQueries.sha256Hex(query))])]),
            ]))
            store.keep(try store.resolve(parameters, scope: ""))
        }
        func isStored(_ query: String) throws -> Bool {
            let parameters = try GraphQLHTTPParameters(json: .object([
                "extensions": .object(["persistedQuery": .object(["version": .int(1), "sha256Hash": .string(GraphQLHTTPPersistedQueries.sha256Hex(query))])])
            ]))
            do {
                _ = try store.resolve(parameters, scope: "")
                return true
            } catch {
                return false
            }
        }
        for index in 0..<100 { try register("{ f\(index) }") }
        let kept = try (0..<100).filter { try isStored("{ f\($0) }") }
        #expect(kept.count <= 4)
        #expect(kept.contains(99))
        // A query in use survives the churn of the others.
        try register("{ hot }")
        for index in 100..<200 {
            try register("{ f\(index) }")
            #expect(try isStored("{ hot }"))
        }
    }

    @Test func documentsWithValuesOfTheirOwnRunButAreNotStored() async throws {
        let handler = GraphQLHTTPHandler(executor: EchoExecutor())
        try await withGraphQLServer(handler) { client in
            for text in [#"{ search(query: "my secret") }"#, "{ entries(first: 5) }", #"query($q: String = "x") { a(q: $q) }"#] {
                let persisted: GraphQLValue = .object([
                    "persistedQuery": .object(["version": .int(1), "sha256Hash": .string(GraphQLHTTPPersistedQueries.sha256Hex(text))])
                ])
                let register = try await client.post(GraphQLValue.object(["query": .string(text), "extensions": persisted]).json)
                #expect(try register.json["data"]?["query"] == .string(text))
                let lookUp = try await client.post(GraphQLValue.object(["extensions": persisted]).json, accept: "application/json")
                #expect(lookUp.errorMessages == ["PersistedQueryNotFound"], "\(text)")
            }
        }
    }

    @Test func scopesKeepTheirDocumentsApart() async throws {
        let handler = GraphQLHTTPHandler(executor: ScopedEchoExecutor())
        try await withGraphQLServer(handler) { client in
            let hashOnly = #"{"extensions":\#(extensions(hash))}"#
            let unknown = try await client.post(hashOnly, accept: "application/json", headers: [HTTPField.Name("x-scope")!: "b"])
            _ = try await client.post(#"{"query":"\#(query)","extensions":\#(extensions(hash))}"#, headers: [HTTPField.Name("x-scope")!: "a"])
            let sameScope = try await client.post(hashOnly, headers: [HTTPField.Name("x-scope")!: "a"])
            #expect(try sameScope.json["data"]?["query"] == .string(query))
            let otherScope = try await client.post(hashOnly, accept: "application/json", headers: [HTTPField.Name("x-scope")!: "b"])
            #expect(otherScope.status == unknown.status)
            #expect(String(buffer: otherScope.body) == String(buffer: unknown.body))
            #expect(otherScope.errorMessages == ["PersistedQueryNotFound"])
        }
    }

    @Test(arguments: [
        ("{ me { id name } }", false),
        ("query Q($n: String!, $k: [Kind!] = [A, B]) { a(n: $n, k: $k, on: true, x: null) @include(if: $b) { ...F } } fragment F on T { b }", false),
        (#"{ a(n: "x") }"#, true),
        ("{ a(first: 20) }", true),
        ("{ a(at: 1.5) }", true),
        (#"{ a(input: {tags: ["x"]}) }"#, true),
        (#"query($n: String = "x") { a(n: $n) }"#, true),
        (#"{ a @skip(if: false) @tag(name: "x") }"#, true),
        (#"{ ... on T @tag(n: 1) { a } }"#, true),
        (#"{ ...F } fragment F on T { a(n: "x") }"#, true),
        (#""described" query { a }"#, true),
        ("type T { a: Int }", true),
        ("{", true),
    ])
    func whatCountsAsValuesOfTheirOwn(_ query: String, _ carriesValues: Bool) {
        #expect(GraphQLHTTPDocumentValues.carriesValues(query) == carriesValues)
    }
}

/// `EchoExecutor` with the persisted-query scope named by the request's `x-scope` header.
struct ScopedEchoExecutor: GraphQLHTTPExecutor {
    typealias Context = BasicRequestContext

    func execute(_ operation: GraphQLHTTPOperation, request: Request, context: Context) async -> GraphQLHTTPResult {
        await EchoExecutor().execute(operation, request: request, context: context)
    }

    func persistedQueryScope(for request: Request, context: Context) -> String {
        request.headers[HTTPField.Name("x-scope")!] ?? ""
    }
}
