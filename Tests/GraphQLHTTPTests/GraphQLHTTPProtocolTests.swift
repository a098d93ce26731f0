import GraphQL
import HTTPTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GraphQLHTTP

/// A stand-in for the engine that answers with what the HTTP layer handed it, so these tests
/// see exactly what reaches GraphQL. Documents starting with `mutation` are mutations, `{` alone
/// is a syntax error, `fail` is a request error after parsing (as a validation error is), and
/// `error` executes with a field error.
struct EchoExecutor: GraphQLHTTPExecutor {
    typealias Context = BasicRequestContext

    func execute(_ operation: GraphQLHTTPOperation, request: Request, context: Context) async -> GraphQLHTTPResult {
        let type: OperationType = operation.query.hasPrefix("mutation") ? .mutation : .query
        if operation.query == "{" || operation.query == "fail" {
            return .response(json: Array(#"{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>."}]}"#.utf8), executionStarted: false)
        }
        guard operation.allowedOperationTypes.contains(type) else { return .operationNotAllowed(type) }
        var data: GraphQLObject = [
            "query": .string(operation.query),
            "operationName": operation.operationName.map(GraphQLValue.string) ?? .null,
            "variables": .object(operation.variables),
            "extensions": .object(operation.extensions),
        ]
        var uploads: GraphQLObject = [:]
        for (key, value) in operation.variables.entries {
            if let upload = try? GraphQLUpload(value) {
                uploads[key] = .object([
                    "filename": .string(upload.filename), "contentType": .string(upload.contentType),
                    "text": .string(String(decoding: upload.bytes, as: UTF8.self)),
                ])
            }
        }
        data["uploads"] = .object(uploads)
        var response: GraphQLObject = ["data": .object(data)]
        if operation.query == "error" {
            response = ["errors": .list([.object(["message": .string("boom")])]), "data": .null]
        }
        return .response(json: Array(GraphQLValue.object(response).json.utf8), executionStarted: true)
    }
}

let graphQLResponseJSON = "application/graphql-response+json; charset=utf-8"
let applicationJSON = "application/json; charset=utf-8"

@Suite struct GraphQLHTTPProtocolTests {
    let handler = GraphQLHTTPHandler(executor: EchoExecutor())

    // MARK: Accept

    @Test(arguments: [
        (nil, graphQLResponseJSON),
        ("application/graphql-response+json", graphQLResponseJSON),
        ("application/json", applicationJSON),
        ("*/*", applicationJSON),
        ("application/*", applicationJSON),
        ("application/graphql-response+json; charset=utf-8, application/json; charset=utf-8", graphQLResponseJSON),
        ("application/json;q=0.9, application/graphql-response+json", graphQLResponseJSON),
        ("application/graphql-response+json;q=0.5, application/json", applicationJSON),
        ("text/html, */*;q=0.1", applicationJSON),
        ("*/*, application/graphql-response+json", graphQLResponseJSON),
    ] as [(String?, String)])
    func picksTheResponseTypeFromAccept(_ accept: String?, _ expected: String) async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(query: "{ a }", accept: accept)
            #expect(response.status == .ok)
            #expect(response.contentType == expected)
        }
    }

    @Test(arguments: ["text/html", "application/xml, text/plain", "application/json;q=0", "application/json; charset=latin1"])
    func refusesUnacceptableAccept(_ accept: String) async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(query: "{ a }", accept: accept)
            #expect(response.status == .notAcceptable)
            #expect(response.errorMessages.count == 1)
        }
    }

    // MARK: Status codes of GraphQL errors

    @Test func requestErrorsAre400WithGraphQLResponseJSONAnd200WithJSON() async throws {
        try await withGraphQLServer(handler) { client in
            let modern = try await client.post(query: "{", accept: "application/graphql-response+json")
            #expect(modern.status == .badRequest)
            #expect(modern.contentType == graphQLResponseJSON)
            #expect(try modern.json["data"] == nil)
            let legacy = try await client.post(query: "{", accept: "application/json")
            #expect(legacy.status == .ok)
            #expect(legacy.contentType == applicationJSON)
            #expect(legacy.errorMessages == ["Syntax Error: Expected Name, found <EOF>."])
        }
    }

    @Test(arguments: ["application/graphql-response+json", "application/json"])
    func fieldErrorsAre200(_ accept: String) async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(query: "error", accept: accept)
            #expect(response.status == .ok)
            #expect(response.errorMessages == ["boom"])
        }
    }

    // MARK: Malformed requests

    @Test(arguments: [
        ("NONSENSE", "The request body is not valid JSON"),
        (#"{"query":"#, "The request body is not valid JSON"),
        (#"{"qeury": "{ a }"}"#, "Must provide a query string"),
        (#"{"query": null}"#, "Must provide a query string"),
        (#"{"query": 7}"#, "The `query` parameter must be a string."),
        (#"{"query": {"obj": "ect"}}"#, "The `query` parameter must be a string."),
        (#"{"query": false}"#, "The `query` parameter must be a string."),
        (#"{"query": ["array"]}"#, "The `query` parameter must be a string."),
        (#"{"query": "{ a }", "operationName": 1}"#, "The `operationName` parameter must be a string."),
        (#"{"query": "{ a }", "variables": [7]}"#, "The `variables` parameter must be an object."),
        (#"{"query": "{ a }", "variables": "string"}"#, "The `variables` parameter must be an object."),
        (#"{"query": "{ a }", "extensions": 0}"#, "The `extensions` parameter must be an object."),
        ("7", "A GraphQL request must be a JSON object."),
        ("", "The request body is empty"),
    ])
    func malformedRequestsAre400(_ body: String, _ message: String) async throws {
        try await withGraphQLServer(handler) { client in
            for accept in ["application/graphql-response+json", "application/json"] {
                let response = try await client.post(body, accept: accept)
                #expect(response.status == .badRequest, "\(body) with \(accept)")
                #expect(try response.json["data"] == nil)
                #expect(response.errorMessages.first?.hasPrefix(message) == true, "\(response.errorMessages)")
            }
        }
    }

    @Test func nullOptionalParametersAreMissingOnes() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(
                #"{"query":"{ a }","operationName":null,"variables":null,"extensions":null}"#,
                accept: "application/graphql-response+json")
            #expect(response.status == .ok)
            #expect(try response.json["data"]?["variables"] == .object([:]))
            #expect(try response.json["data"]?["operationName"] == .null)
        }
    }

    @Test func passesParametersThrough() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(
                #"{"query":"query Q($id: ID!) { a }","operationName":"Q","variables":{"id":"x","n":[1,2.5]},"extensions":{"e":true},"other":1}"#)
            #expect(response.status == .ok)
            let data = try response.json["data"]
            #expect(data?["operationName"] == .string("Q"))
            #expect(data?["variables"] == .object(["id": .string("x"), "n": .list([.int(1), .float(2.5)])]))
            #expect(data?["extensions"] == .object(["e": .bool(true)]))
        }
    }

    // MARK: Content types and methods

    @Test(arguments: [
        ("application/x-www-form-urlencoded", "query=%7B+a+%7D"),
        ("text/plain", #"{"query":"{ a }"}"#),
        ("application/graphql", "{ a }"),
        ("application/json; charset=latin1", #"{"query":"{ a }"}"#),
        ("nonsense", #"{"query":"{ a }"}"#),
    ])
    func otherContentTypesAre415(_ contentType: String, _ body: String) async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(body, contentType: contentType)
            #expect(response.status == .unsupportedMediaType)
            #expect(response.errorMessages.count == 1)
            try await client.expectAlive()
        }
    }

    @Test func postWithoutContentTypeIs415() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(#"{"query":"{ a }"}"#, contentType: nil)
            #expect(response.status == .unsupportedMediaType)
        }
    }

    @Test func acceptsJSONWithCharset() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(#"{"query":"{ é }"}"#, contentType: "application/json; charset=UTF-8")
            #expect(response.status == .ok)
            #expect(try response.json["data"]?["query"] == .string("{ é }"))
        }
    }

    @Test func getRunsQueries() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.get([
                ("query", "query Q($id: ID) { a(id: $id) }"), ("operationName", "Q"),
                ("variables", #"{"id":"1 + 2"}"#), ("extensions", "{}"),
            ])
            #expect(response.status == .ok)
            #expect(try response.json["data"]?["query"] == .string("query Q($id: ID) { a(id: $id) }"))
            #expect(try response.json["data"]?["variables"] == .object(["id": .string("1 + 2")]))
        }
    }

    @Test func getWithEmptyOperationNameHasNone() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.get([("query", "{ a }"), ("operationName", "")])
            #expect(try response.json["data"]?["operationName"] == .null)
        }
    }

    @Test(arguments: [
        [("variables", "{")], [("variables", "[1]")], [("extensions", "nope")], [("query", "{ a }"), ("query", "{ b }")],
    ])
    func malformedGetParametersAre400(_ extra: [(String, String)]) async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.get([("query", "{ a }")] + extra)
            #expect(response.status == .badRequest)
        }
    }

    @Test func getWithoutQueryIs400() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.get([])
            #expect(response.status == .badRequest)
            #expect(response.errorMessages.first?.hasPrefix("Must provide a query string") == true)
        }
    }

    @Test(arguments: ["application/graphql-response+json", "application/json"])
    func mutationOverGetIs405(_ accept: String) async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.get([("query", "mutation { a }")], accept: accept)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "POST")
            #expect(response.errorMessages == ["Can only perform a mutation operation from a POST request."])
            let post = try await client.post(query: "mutation { a }")
            #expect(post.status == .ok)
        }
    }

    @Test func otherMethodsAre405() async throws {
        let router = Router()
        router.put("/graphql") { request, context in try await handler.respond(to: request, context: context) }
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/graphql", method: .put)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "GET, POST")
        }
    }

    // MARK: Batching

    @Test func batchesAreRefusedUnlessEnabled() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(#"[{"query":"{ a }"},{"query":"{ b }"}]"#)
            #expect(response.status == .badRequest)
            #expect(response.errorMessages.first?.hasPrefix("Batched operations are not enabled") == true)
            try await client.expectAlive()
        }
    }

    @Test func batchesRunWhenEnabled() async throws {
        let batching = GraphQLHTTPHandler(executor: EchoExecutor(), configuration: .init(maxBatchSize: 2))
        try await withGraphQLServer(batching) { client in
            let response = try await client.post(#"[{"query":"{ a }"},{"query":7}]"#)
            #expect(response.status == .ok)
            let results = try response.json.listValue ?? []
            #expect(results.count == 2)
            #expect(results.first?["data"]?["query"] == .string("{ a }"))
            #expect(results.last?["errors"]?.listValue?.first?["message"] == .string("The `query` parameter must be a string."))
            let tooMany = try await client.post(#"[{"query":"{ a }"},{"query":"{ a }"},{"query":"{ a }"}]"#)
            #expect(tooMany.status == .badRequest)
            let empty = try await client.post("[]")
            #expect(empty.status == .badRequest)
        }
    }

    // MARK: Body limits

    @Test func bodiesOverTheLimitAre413() async throws {
        let small = GraphQLHTTPHandler(executor: EchoExecutor(), configuration: .init(maxBodySize: 1000))
        try await withGraphQLServer(small) { client in
            let body = #"{"query":"{ a }","variables":{"s":""# + String(repeating: "x", count: 2000) + #""}}"#
            let response = try await client.post(body)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorMessages == ["The request body is larger than 1000 bytes."])
            try await client.expectAlive()
        }
    }

    @Test func largeBodiesAreRefusedOverASocket() async throws {
        try await withGraphQLServer(handler, setup: .live) { client in
            let body = #"{"query":"{ a }","variables":{"s":""# + String(repeating: "x", count: 10 << 20) + #""}}"#
            let response = try await client.post(body)
            #expect(response.status == .contentTooLarge)
            try await client.expectAlive()
            let next = try await client.post(query: "{ a }")
            #expect(next.status == .ok)
        }
    }

    @Test func deepJSONIs400() async throws {
        try await withGraphQLServer(handler) { client in
            let deep = #"{"query":"{ a }","variables":{"v":"# + String(repeating: "[", count: 10_000)
                + String(repeating: "]", count: 10_000) + "}}"
            let response = try await client.post(deep)
            #expect(response.status == .badRequest)
            #expect(response.errorMessages.first?.contains("nested deeper than") == true)
            try await client.expectAlive()
        }
    }
}
