import Foundation
import Testing

@testable import GraphQL

/// The validation corpus (Corpus/validation): each case validated with `specifiedRules` gives
/// exactly the errors graphql-core 3.3.2 gives (recorded by Corpus/validation/oracle.py), in
/// the same order, with the same messages and locations.
struct ValidationCorpusTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Corpus/validation")

    static let caseFiles: [String] = {
        let files = try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cases").path)
        return (files ?? []).filter { $0.hasSuffix(".graphql") }.map { String($0.dropLast(".graphql".count)) }.sorted()
    }()

    static func schema() throws -> GraphQLSchema {
        let text = try String(contentsOf: directory.appendingPathComponent("schema.graphql"), encoding: .utf8)
        return try buildASTSchema(parse(text))
    }

    @Test func corpusIsThere() {
        #expect(Self.caseFiles.count >= 25)
    }

    @Test(arguments: caseFiles)
    func matchesGraphQLCore(_ file: String) throws {
        let schema = try Self.schema()
        let text = try String(
            contentsOf: Self.directory.appendingPathComponent("cases/\(file).graphql"), encoding: .utf8)
        let expectedData = try Data(contentsOf: Self.directory.appendingPathComponent("expected/\(file).json"))
        let expected = try JSONDecoder().decode([String: [RecordedError]].self, from: expectedData)
        let cases = CorpusCase.split(text)
        #expect(cases.count == expected.count, "\(file): cases and recorded results differ; run oracle.py")
        for corpusCase in cases {
            let source = Source(corpusCase.document)
            let document = try parse(source)
            let options = ValidationOptions(hideSuggestions: corpusCase.flags.contains("hide-suggestions"), limits: .none)
            let errors = validate(schema: schema, document: document, source: source, options: options)
            let actual = errors.map { RecordedError(message: $0.message, locations: $0.locations.map { [$0.line, $0.column] }) }
            #expect(actual == expected[corpusCase.name], "\(file) / \(corpusCase.name)")
        }
    }
}

struct RecordedError: Decodable, Equatable, CustomStringConvertible {
    var message: String
    var locations: [[Int]]
    var description: String { "\(message) \(locations)" }
}

/// One case of a corpus file: a `### name [flags]` line and the document under it.
struct CorpusCase {
    var name: String
    var flags: [String]
    var document: String

    static func split(_ text: String) -> [CorpusCase] {
        var cases: [CorpusCase] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        for line in lines {
            if line.hasPrefix("### ") {
                var header = line.dropFirst(4).trimmingCharacters(in: .whitespaces)
                var flags: [String] = []
                if let open = header.firstIndex(of: "["), header.hasSuffix("]") {
                    flags = header[header.index(after: open)..<header.index(before: header.endIndex)]
                        .split(separator: " ").map(String.init)
                    header = header[..<open].trimmingCharacters(in: .whitespaces)
                }
                cases.append(CorpusCase(name: header, flags: flags, document: ""))
            } else if !cases.isEmpty {
                cases[cases.count - 1].document += line + "\n"
            }
        }
        return cases
    }
}
