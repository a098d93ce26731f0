import GraphQL
import HTTPTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GraphQLHTTP

/// GraphQL over HTTP with the real engine: the status code of each kind of GraphQL outcome, in
/// both response media types, and uploads reaching resolvers.
@Suite struct GraphQLHTTPServiceTests {
    let modern = "application/graphql-response+json"
    let legacy = "application/json"

    @Test func aQueryRuns() async throws {
        try await withGraphQLServer(try GraphQLHTTPTestSchema.handler()) { client in
            let response = try await client.post(query: #"{ hello(name: "you") }"#, accept: modern)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == #"{"data":{"hello":"Hello, you!"}}"#)
        }
    }

    @Test(arguments: [
        ("{", "Syntax Error: Expected Name, found <EOF>."),
        ("{ zzz }", #"Cannot query field "zzz" on type "Query"."#),
        ("query A { a } query B { a }", "Must provide operation name if query contains multiple operations."),
        (#"query($n: String!) { hello(name: $n) }"#, #"Variable "$n" has invalid value: Expected a value of non-null type "String!" to be provided."#),
    ])
    func requestErrorsAre400Or200(_ query: String, _ message: String) async throws {
        try await withGraphQLServer(try GraphQLHTTPTestSchema.handler()) { client in
            let strict = try await client.post(query: query, accept: modern)
            #expect(strict.status == .badRequest)
            #expect(strict.errorMessages == [message])
            #expect(try strict.json["data"] == nil)
            let loose = try await client.post(query: query, accept: legacy)
            #expect(loose.status == .ok)
            #expect(loose.errorMessages == [message])
        }
    }

    @Test func variablesThatDoNotCoerceAre400() async throws {
        try await withGraphQLServer(try GraphQLHTTPTestSchema.handler()) { client in
            let response = try await client.post(
                #"{"query":"query($n: String!) { hello(name: $n) }","variables":{"n":7}}"#, accept: modern)
            #expect(response.status == .badRequest)
            #expect(response.errorMessages.count == 1)
        }
    }

    @Test(arguments: ["application/graphql-response+json", "application/json"])
    func fieldErrorsAre200WithPartialData(_ accept: String) async throws {
        try await withGraphQLServer(try GraphQLHTTPTestSchema.handler()) { client in
            let response = try await client.post(query: "{ a fail }", accept: accept)
            #expect(response.status == .ok)
            #expect(try response.json["data"] == .object(["a": .null, "fail": .null]))
            #expect(response.errorMessages == ["boom"])
        }
    }

    @Test func mutationsRunOverPostOnly() async throws {
        try await withGraphQLServer(try GraphQLHTTPTestSchema.handler()) { client in
            let get = try await client.get([("query", #"mutation { addNote(text: "x") { id } }"#)])
            #expect(get.status == .methodNotAllowed)
            #expect(get.headers[.allow] == "POST")
            let named = try await client.get([
                ("query", #"query Q { a } mutation M { addNote(text: "x") { id } }"#), ("operationName", "M"),
            ])
            #expect(named.status == .methodNotAllowed)
            let query = try await client.get([
                ("query", #"query Q { a } mutation M { addNote(text: "x") { id } }"#), ("operationName", "Q"),
            ])
            #expect(query.status == .ok)
            let post = try await client.post(query: #"mutation { addNote(text: "x") { id text } }"#)
            #expect(try post.json["data"] == .object(["addNote": .object(["id": .string("1"), "text": .string("x")])]))
        }
    }

    @Test func persistedQueriesRunThroughTheEngine() async throws {
        // Its value comes from the variables, as APQ clients send them: a document with literals
        // would run but not be stored.
        let query = #"query($name: String) { hello(name: $name) }"#
        let hash = GraphQLHTTPPersistedQueries.sha256Hex(query)
        let extensions = #"{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}"#
        let variables = #"{"name":"apq"}"#
        try await withGraphQLServer(try GraphQLHTTPTestSchema.handler()) { client in
            let miss = try await client.get([("extensions", extensions), ("variables", variables)], accept: legacy)
            #expect(miss.errorMessages == ["PersistedQueryNotFound"])
            _ = try await client.post(
                #"{"query":\#(GraphQLValue.string(query).json),"variables":\#(variables),"extensions":\#(extensions)}"#)
            let hit = try await client.get([("extensions", extensions), ("variables", variables)])
            #expect(hit.status == .ok)
            #expect(try hit.json["data"]?["hello"] == .string("Hello, apq!"))
        }
    }

    @Test func uploadsReachResolvers() async throws {
        var body = MultipartBody()
        body.field(
            "operations",
            #"{"query":"mutation($one: Upload!, $many: [Upload!]!) { upload(file: $one) { filename contentType size text } uploadMany(files: $many) { text } }","variables":{"one":null,"many":[null,null]}}"#
        )
        body.field("map", #"{"a":["variables.one"],"b":["variables.many.0"],"c":["variables.many.1"]}"#)
        body.file("a", filename: "a.txt", "first file")
        body.file("b", filename: "b.txt", contentType: "application/json", "[2]")
        body.file("c", filename: "c.txt", "third")
        let request = body
        try await withGraphQLServer(try GraphQLHTTPTestSchema.handler()) { client in
            let response = try await client.post(request)
            #expect(response.status == .ok)
            #expect(try response.json["data"] == .object([
                "upload": .object([
                    "filename": .string("a.txt"), "contentType": .string("text/plain"), "size": .int(10),
                    "text": .string("first file"),
                ]),
                "uploadMany": .list([.object(["text": .string("[2]")]), .object(["text": .string("third")])]),
            ]))
        }
    }

    @Test func uploadsCannotBeForgedOrWrittenAsLiterals() async throws {
        try await withGraphQLServer(try GraphQLHTTPTestSchema.handler()) { client in
            let forged = try await client.post(
                #"{"query":"mutation($f: Upload!) { upload(file: $f) { size } }","variables":{"f":"upload:0"}}"#)
            #expect(forged.status == .badRequest)
            #expect(forged.errorMessages.first?.contains("Upload value invalid.") == true)
            let literal = try await client.post(query: #"mutation { upload(file: "x") { size } }"#)
            #expect(literal.status == .badRequest)
        }
    }
}
