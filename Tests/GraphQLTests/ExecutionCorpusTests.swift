import Foundation
import GraphQL
import Testing

/// The differential corpus of execution: each case of Corpus/execution/cases.json runs through
/// `GraphQLService` (parse, validate, execute) with the default resolvers over a JSON root, and
/// the whole response must equal graphql-core 3.3.2's, recorded by Corpus/execution/oracle.py.
@Suite struct ExecutionCorpusTests {
    static let corpus = DifferentialCorpus("execution")

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var schema: String
        var root: String
        var request: GraphQLRequest
        var expected: GraphQLValue
        var testDescription: String { name }
    }

    static let cases: [Case] = corpus.cases { item, request, expected in
        let schema = item["schema"]?.stringValue ?? "journal"
        return Case(
            name: item["name"]?.stringValue ?? "?", schema: schema, root: item["root"]?.stringValue ?? schema, request: request,
            expected: expected)
    }

    @Test func corpusIsThere() {
        #expect(Self.cases.count >= 40)
    }

    @Test(arguments: cases)
    func matchesGraphQLCore(_ testCase: Case) async throws {
        let schema = try buildASTSchema(parse(Self.corpus.load("schemas/\(testCase.schema).graphql")))
        let root = try GraphQLValue(json: Self.corpus.load("roots/\(testCase.root).json"))
        let response = await GraphQLService(schema: schema).execute(testCase.request, rootValue: root)
        #expect(normalised(response.value) == normalised(testCase.expected))
        // What goes over the wire says the same.
        #expect(normalised(try GraphQLValue(json: response.json)) == normalised(testCase.expected))
    }
}

/// A response with messages' quotes made alike (graphql-core quotes with ' where graphql-js
/// uses ") and numbers compared by value (an integral float is its integer).
func normalised(_ value: GraphQLValue) -> GraphQLValue {
    switch value {
    case .float(let number) where number == number.rounded() && abs(number) < 1e15: return .int(Int(number))
    case .list(let items): return .list(items.map(normalised))
    case .object(let object):
        var result = GraphQLObject()
        for (key, value) in object.entries {
            if key == "message", case .string(let message) = value {
                result.append(key, .string(message.replacingOccurrences(of: "'", with: "\"")))
            } else {
                result.append(key, normalised(value))
            }
        }
        return .object(result)
    default: return value
    }
}
