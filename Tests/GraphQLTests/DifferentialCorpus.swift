import Foundation
import GraphQL
import Testing

/// One folder of a differential corpus, `Corpus/<name>`: its cases in `cases.json` (each with a
/// `name`, a `query` and maybe an `operationName` and `variables`), and graphql-core's answer to
/// each in `expected.json`, by name, recorded by the folder's `oracle.py`.
struct DifferentialCorpus {
    let directory: URL

    init(_ name: String) {
        directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus/\(name)")
    }

    /// A file of the folder, as text.
    func load(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// Each case as `make` builds it from the case's JSON, its request and graphql-core's answer;
    /// none, and an issue recorded, when the corpus cannot be read.
    func cases<Case>(_ make: (_ item: GraphQLValue, _ request: GraphQLRequest, _ expected: GraphQLValue) -> Case) -> [Case] {
        do {
            let list = try GraphQLValue(json: load("cases.json")).listValue ?? []
            let expected = try GraphQLValue(json: load("expected.json"))
            return list.map { item in
                let request = GraphQLRequest(
                    query: item["query"]?.stringValue ?? "", operationName: item["operationName"]?.stringValue,
                    variables: item["variables"]?.objectValue)
                return make(item, request, expected[item["name"]?.stringValue ?? "?"] ?? .null)
            }
        } catch {
            Issue.record("cannot read the corpus \(directory.lastPathComponent): \(error)")
            return []
        }
    }
}
