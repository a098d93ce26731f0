import Foundation
import GraphQL
import Testing

/// The differential corpus of subscriptions: each case of Corpus/subscription/cases.json is
/// subscribed to through `GraphQLService.subscribe`, its responses read to the end, and what
/// came out (the failed result, or the responses and the source stream's error) must equal
/// graphql-core 3.3.2's `subscribe`, recorded by Corpus/subscription/oracle.py. The root value
/// describes each root field's source stream; the oracle's header gives the contract, mirrored
/// here by the subscribe resolvers this test attaches.
@Suite struct SubscriptionCorpusTests {
    static let corpus = DifferentialCorpus("subscription")

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var root: GraphQLValue
        var request: GraphQLRequest
        var expected: GraphQLValue
        var testDescription: String { name }
    }

    static let cases: [Case] = corpus.cases { item, request, expected in
        Case(name: item["name"]?.stringValue ?? "?", root: item["root"] ?? .object([:]), request: request, expected: expected)
    }

    @Test func corpusIsThere() {
        #expect(Self.cases.count >= 30)
    }

    @Test(arguments: cases)
    func matchesGraphQLCore(_ testCase: Case) async throws {
        let schema = try buildASTSchema(parse(Self.corpus.load("schema.graphql")))
        for field in schema.subscriptionType?.fields ?? FieldMap() {
            guard let description = testCase.root[field.name], Self.describesStream(description) else { continue }
            field.subscribe = { _, arguments, _, _ in Self.stream(description, arguments: arguments) }
        }
        let answer: GraphQLValue
        switch await GraphQLService(schema: schema).subscribe(testCase.request, rootValue: testCase.root) {
        case .failed(let response):
            answer = .object(["result": try GraphQLValue(json: response.json)])
        case .subscribed(let stream):
            var responses: [GraphQLValue] = []
            var object: GraphQLObject = [:]
            do {
                for try await response in stream.responses {
                    responses.append(try GraphQLValue(json: response.json))
                }
                object.append("responses", .list(responses))
            } catch let error as GraphQLError {
                object.append("responses", .list(responses))
                object.append("streamError", .string(error.message))
            }
            answer = .object(object)
        }
        #expect(normalised(answer) == normalised(testCase.expected))
    }

    static func describesStream(_ value: GraphQLValue) -> Bool {
        value["__events"] != nil || value["__byArgument"] != nil
    }

    /// The source stream a root value's entry describes: its `__events`, or those of the case
    /// its `__byArgument` argument names; an event `{"__throw": message}` fails the stream.
    static func stream(_ description: GraphQLValue, arguments: GraphQLObject) -> SourceEventStream {
        var events = description["__events"]?.listValue ?? []
        if let name = description["__byArgument"]?.stringValue {
            let key =
                switch arguments[name] {
                case .string(let string)?: string
                case .int(let int)?: String(int)
                default: "None"
                }
            events = description["cases"]?[key]?["__events"]?.listValue ?? []
        }
        return SourceEventStream { continuation in
            for event in events {
                if let message = event["__throw"]?.stringValue {
                    continuation.finish(throwing: GraphQLError(message: message))
                    return
                }
                continuation.yield(event)
            }
            continuation.finish()
        }
    }
}
