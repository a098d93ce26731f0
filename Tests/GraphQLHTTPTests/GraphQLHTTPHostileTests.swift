import GraphQL
import HTTPTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GraphQLHTTP

/// Hostile requests: each gets a 4xx or GraphQL error, and the server answers the next request.
/// What they catch is quadratic work and stack overflows, which take minutes or crash: each test
/// is stopped, and fails, after a minute (a limit, not a measurement: a loaded two-core machine
/// once took 10 s for work that takes milliseconds alone, so speed is for `make bench`).
@Suite(.timeLimit(.minutes(1))) struct GraphQLHTTPHostileTests {
    /// Sends `send`, checks the outcome and the time it took, then that the server still answers.
    func hostile(
        setup: TestingSetup = .router, handler: GraphQLHTTPHandler<UncachedEngineExecutor>? = nil,
        _ send: @escaping @Sendable (any TestClientProtocol) async throws -> TestResponse,
        expect check: @escaping @Sendable (TestResponse) throws -> Void
    ) async throws {
        let handler = try handler ?? GraphQLHTTPTestSchema.handler()
        try await withGraphQLServer(handler, setup: setup) { client in
            let response = try await send(client)
            try check(response)
            try await client.expectAlive()
            let next = try await client.post(query: "{ hello }")
            #expect(try next.json["data"]?["hello"] == .string("Hello, world!"))
        }
    }

    static func expectRequestError(_ response: TestResponse, containing text: String) throws {
        #expect(response.status == .badRequest)
        #expect(try response.json["data"] == nil)
        #expect(response.errorMessages.contains { $0.contains(text) }, "\(response.errorMessages.prefix(3))")
    }

    @Test func tenThousandTokens() async throws {
        let query = "{" + String(repeating: "a ", count: 10_000) + "}"
        try await hostile({ try await $0.post(query: query) }) { response in
            try Self.expectRequestError(response, containing: "Document contains more than 5000 tokens")
        }
    }

    @Test func tenMegabyteBody() async throws {
        let body = #"{"query":"{ a }","variables":{"s":""# + String(repeating: "x", count: 10 << 20) + #""}}"#
        try await hostile(setup: .live, { try await $0.post(body) }) { response in
            #expect(response.status == .contentTooLarge)
            #expect(response.errorMessages == ["The request body is larger than 1048576 bytes."])
        }
    }

    @Test func oneMegabyteStringLiteral() async throws {
        let string = String(repeating: "x", count: 1_000_000)
        try await hostile({ try await $0.post(query: #"{ a(text: "\#(string)") }"#) }) { response in
            try Self.expectRequestError(response, containing: #"Unknown argument "text" on field "Query.a"."#)
        }
        try await hostile({ try await $0.post(query: #"{ a(text: """\#(string)""") }"#) }) { response in
            try Self.expectRequestError(response, containing: #"Unknown argument "text" on field "Query.a"."#)
        }
    }

    @Test func hundredThousandItemList() async throws {
        let literal = "[" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "]"
        try await hostile({ try await $0.post(query: "{ count(items: \(literal)) }") }) { response in
            try Self.expectRequestError(response, containing: "Document contains more than 5000 tokens")
        }
        // As a variable the list is data, not document: it is read, coerced and counted, fast.
        let body = #"{"query":"query($items: [Int!]) { count(items: $items) }","variables":{"items":\#(literal)}}"#
        try await hostile({ try await $0.post(body) }) { response in
            let data = try response.json["data"]
            #expect(response.status == .ok)
            #expect(data?["count"] == .int(100_000))
        }
    }

    @Test func inputObjectNestedTenThousandDeep() async throws {
        let json = String(repeating: #"{"child":"#, count: 10_000) + "null" + String(repeating: "}", count: 10_000)
        let body = #"{"query":"query($n: Nested) { depth(input: $n) }","variables":{"n":\#(json)}}"#
        try await hostile({ try await $0.post(body) }) { response in
            #expect(response.status == .badRequest)
            #expect(response.errorMessages.first?.contains("nested deeper than") == true)
        }
        let literal = String(repeating: "{child: ", count: 10_000) + "null" + String(repeating: "}", count: 10_000)
        try await hostile({ try await $0.post(query: "{ depth(input: \(literal)) }") }) { response in
            #expect(response.status == .badRequest)
            #expect(response.errorMessages.first?.hasPrefix("Syntax Error") == true)
        }
    }

    @Test func thousandLevelSelection() async throws {
        let query = #"{ note(id: "1") "# + String(repeating: "{ next ", count: 1_000) + "{ id }" + String(repeating: "}", count: 1_001)
        try await hostile({ try await $0.post(query: query) }) { response in
            #expect(response.status == .badRequest)
            #expect(response.errorMessages.count == 1)
        }
        // Deep but within the parser's bound: the validator's depth limit refuses it.
        let deep = #"{ note(id: "1") "# + String(repeating: "{ next ", count: 60) + "{ id }" + String(repeating: "}", count: 61)
        try await hostile({ try await $0.post(query: deep) }) { response in
            try Self.expectRequestError(response, containing: "depth")
        }
    }

    @Test func fiveHundredAliases() async throws {
        let query = "{ " + (0..<500).map { "a\($0): a" }.joined(separator: " ") + " }"
        try await hostile({ try await $0.post(query: query) }) { response in
            try Self.expectRequestError(response, containing: "alias")
        }
    }

    @Test func directiveRepeatedFiftyTimes() async throws {
        let query = "{ a " + String(repeating: "@include(if: true) ", count: 50) + "}"
        try await hostile({ try await $0.post(query: query) }) { response in
            #expect(response.status == .badRequest)
            #expect(response.errorMessages.contains { $0.contains("@include") })
        }
    }

    @Test func fragmentCycle() async throws {
        let query = "{ ...A } fragment A on Query { a ...B } fragment B on Query { a ...A }"
        try await hostile({ try await $0.post(query: query) }) { response in
            try Self.expectRequestError(response, containing: #"Cannot spread fragment "A" within itself via "B"."#)
        }
    }

    @Test func deepIntrospection() async throws {
        let query = "{ __schema { types { fields { type { fields { type { fields { type { name } } } } } } } } }"
        try await hostile({ try await $0.post(query: query) }) { response in
            try Self.expectRequestError(response, containing: "Maximum introspection depth exceeded")
        }
    }

    @Test func jsonArrayOfOperations() async throws {
        try await hostile({ try await $0.post(#"[{"query":"{ a }"},{"query":"{ hello }"}]"#) }) { response in
            #expect(response.status == .badRequest)
            #expect(response.errorMessages.first?.hasPrefix("Batched operations are not enabled") == true)
        }
    }

    @Test func mutationOverGet() async throws {
        try await hostile({ try await $0.get([("query", #"mutation { addNote(text: "x") { id } }"#)]) }) { response in
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "POST")
        }
    }

    @Test func formEncodedPost() async throws {
        let body = "query=" + formEncode(#"mutation { addNote(text: "x") { id } }"#)
        try await hostile({ try await $0.post(body, contentType: "application/x-www-form-urlencoded") }) { response in
            #expect(response.status == .unsupportedMediaType)
        }
    }

    @Test func withIntrospectionAndSuggestionsOffNoErrorNamesAField() async throws {
        let handler = try GraphQLHTTPTestSchema.handler(introspection: false, suggestions: false)
        let probes = [
            "{ helo }", "{ hell }", "{ note(id: 1) { txt } }", "{ note(id: 1) { nxt { id } } }", "{ coun(items: []) }",
            "mutation { addNot(text: \"x\") { id } }", "mutation { uploadMan }", "{ hello(nam: \"x\") }",
            "{ depth(input: {chld: null}) }", "{ depth(input: {valu: 1}) }", "{ __schema { types { name } } }",
            "{ __type(name: \"Note\") { fields { name } } }", "{ note(id: 1) { ... on Note { tex } } }",
        ]
        for probe in probes {
            try await hostile(handler: handler, { try await $0.post(query: probe) }) { response in
                #expect(response.status == .badRequest, "\(probe)")
                for message in response.errorMessages {
                    // Messages name fields quoted ("text"), as coordinates (Note.text) or in
                    // printed values ({ text: 1 }); a field the probe did not name must not appear.
                    for name in GraphQLHTTPTestSchema.fieldNames where !probe.contains(name) {
                        for form in ["\"\(name)\"", ".\(name)", "\(name):", "{ \(name)"] {
                            #expect(!message.contains(form), "\(probe): \(message)")
                        }
                    }
                    #expect(!message.contains("Did you mean"), "\(probe): \(message)")
                }
            }
        }
        let variables = #"{"query":"query($x: Nested) { depth(input: $x) }","variables":{"x":{"chld":null}}}"#
        try await hostile(handler: handler, { try await $0.post(variables) }) { response in
            #expect(response.status == .badRequest)
            for message in response.errorMessages {
                #expect(!message.contains("\"child\""), "\(message)")
                #expect(!message.contains("Did you mean"), "\(message)")
            }
        }
    }
}
