import Foundation
@testable import GraphQL

/// Reading the type system's corpus files (Corpus/schema, Corpus/coercion, Corpus/introspection):
/// located from this file.
enum TypeSystemCorpus {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    static func text(_ folder: String, _ file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(file), encoding: .utf8)
    }

    static func files(_ folder: String, extension ext: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix("." + ext) }.sorted()
    }

    static func json(_ folder: String, _ file: String) throws -> GraphQLValue {
        try GraphQLValue(json: text(folder, file), maxDepth: 1000)
    }
}
