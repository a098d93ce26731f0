import Foundation
import Testing

@testable import GraphQL

/// The differential test of the language layer: every case of `Corpus/syntax` must get the answer
/// graphql-core 3.3.2 gave, as `Corpus/oracle.py syntax` recorded it.
@Suite struct ParserCorpusTests {
    /// An answer as the oracle records it: the printed result, or the syntax error.
    struct Answer: Decodable, Equatable, CustomStringConvertible {
        struct Failure: Decodable, Equatable {
            var message: String
            var line: Int
            var column: Int
        }
        var printed: String?
        var error: Failure?

        var description: String {
            if let error { return "error \(error.line):\(error.column) \(error.message)" }
            return "printed:\n\(printed ?? "")"
        }
    }

    struct Case: Decodable {
        struct Options: Decodable {
            var maxTokens: Int?
            var noLocation: Bool?
        }
        var name: String
        var source: String
        var kind: String?
        var options: Options?
    }

    /// Our answer, normalised as the oracle's is (every ' in a message becomes ").
    static func answer(_ source: Source, kind: String = "document", options: ParseOptions = ParseOptions()) -> Answer {
        do throws(GraphQLError) {
            let printed: String
            switch kind {
            case "value": printed = print(try parseValue(source, options: options))
            case "constValue": printed = print(try parseConstValue(source, options: options))
            case "type": printed = print(try parseType(source, options: options))
            default: printed = print(try parse(source, options: options))
            }
            return Answer(printed: printed)
        } catch {
            let location = error.locations.first
            let message = error.message.replacingOccurrences(of: "'", with: "\"")
            return Answer(error: .init(message: message, line: location?.line ?? 0, column: location?.column ?? 0))
        }
    }

    @Test func inlineCasesMatchTheOracle() throws {
        let folder = syntaxCorpusFolder()
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: folder.appendingPathComponent("cases.json")))
        let expected = try JSONDecoder().decode(
            [String: Answer].self, from: Data(contentsOf: folder.appendingPathComponent("cases.expected.json")))
        #expect(cases.count == expected.count, "cases.expected.json is stale: run oracle.py syntax")
        #expect(cases.count > 400)
        for testCase in cases {
            let options = ParseOptions(
                noLocation: testCase.options?.noLocation ?? false, maxTokens: testCase.options?.maxTokens)
            let ours = Self.answer(Source(testCase.source), kind: testCase.kind ?? "document", options: options)
            #expect(ours == expected[testCase.name], "case \(testCase.name): \(testCase.source.prefix(200))")
        }
    }

    @Test func documentsMatchTheOracle() throws {
        let folder = syntaxCorpusFolder()
        let documents = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".graphql") }.sorted()
        #expect(documents.count >= 2)
        for name in documents {
            let url = folder.appendingPathComponent(name)
            let expectedURL = folder.appendingPathComponent(name.dropLast(".graphql".count) + ".expected.json")
            let expected = try JSONDecoder().decode(Answer.self, from: Data(contentsOf: expectedURL))
            let ours = Self.answer(Source(bytes: try readBytes(url), name: name))
            #expect(ours == expected, "document \(name)")
        }
    }

    /// Printing is stable: what we print parses and prints the same again.
    @Test func printingIsStable() throws {
        let folder = syntaxCorpusFolder()
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: folder.appendingPathComponent("cases.json")))
        var printedCount = 0
        for testCase in cases where (testCase.kind ?? "document") == "document" {
            guard let printed = Self.answer(Source(testCase.source)).printed else { continue }
            printedCount += 1
            #expect(Self.answer(Source(printed)).printed == printed, "case \(testCase.name)")
        }
        #expect(printedCount > 100)
    }
}
