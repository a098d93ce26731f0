import Foundation
import Testing

@testable import GraphQL

/// Property tests of the parser on arbitrary input: whatever the bytes, parsing ends with a
/// document or a syntax error with a location, never a crash; and whatever parses prints to a
/// document that parses and prints the same again.
@Suite struct FuzzTests {
    /// A small deterministic generator (SplitMix64), so that a failure can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Bytes that matter to the lexer, so that random input often gets past the first token.
    static let alphabet: [UInt8] = Array(
        "{}()[]:=@$!&|.,\"\\#'-+_ \t\n\r0123456789aeEfnotuxyzAQ{}ueryfragmentonschematypeextend\u{7F}".utf8)
        + [0x00, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0x80, 0xEF, 0xBB, 0xBF, 0xFF]

    static func randomBytes(_ generator: inout SeededGenerator) -> [UInt8] {
        let count = Int.random(in: 0...120, using: &generator)
        let fullyRandom = Bool.random(using: &generator) && Int.random(in: 0..<4, using: &generator) == 0
        return (0..<count).map { _ in
            fullyRandom ? UInt8.random(in: 0...255, using: &generator) : alphabet.randomElement(using: &generator)!
        }
    }

    /// Random valid documents from a small grammar: operations with nested selections, arguments
    /// of every value kind (strings with random characters, block strings with random lines),
    /// fragments, directives and type definitions.
    struct DocumentGenerator {
        var generator: SeededGenerator

        mutating func chance(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &generator) == 0 }
        mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &generator)! }

        mutating func name() -> String {
            pick(["a", "b", "node", "on", "query", "type", "true", "x1", "_y", "__typename", "LongerFieldNameForWrapping"])
        }

        mutating func stringCharacters() -> String {
            (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                pick(["a", " ", "\\\\", "\\\"", "\\n", "\\u00e9", "\\u{1F600}", "\\uD83D\\uDE00", "é", "😀", "\t", "'"])
            }.joined()
        }

        mutating func blockCharacters() -> String {
            (0..<Int.random(in: 0...10, using: &generator)).map { _ in
                pick(["a", " ", "  ", "\t", "\n", "\r\n", "\"a", "\\\"\"\"", "\\a", "é", "😀"])
            }.joined()
        }

        mutating func value(depth: Int, const: Bool = false) -> String {
            switch Int.random(in: 0..<(depth > 2 ? 8 : 10), using: &generator) {
            case 0: return pick(["0", "-1", "123456789", "-0"])
            case 1: return pick(["1.5", "-0.25e10", "3E-2"])
            case 2: return "\"" + stringCharacters() + "\""
            case 3: return "\"\"\"" + blockCharacters() + "\"\"\""
            case 4: return pick(["true", "false", "null"])
            case 5: return pick(["RED", "on", "ENUM_VALUE"])
            case 6: return const ? "1" : "$" + name()
            case 7: return "{}"
            case 8:
                let values = (0..<Int.random(in: 0...4, using: &generator)).map { _ in value(depth: depth + 1, const: const) }
                return "[" + values.joined(separator: pick([", ", " ", ","])) + "]"
            default:
                let fields = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    name() + ": " + value(depth: depth + 1, const: const)
                }
                return "{" + fields.joined(separator: " ") + "}"
            }
        }

        mutating func arguments(const: Bool = false) -> String {
            if chance(2) { return "" }
            let arguments = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                name() + ": " + value(depth: 0, const: const)
            }
            return "(" + arguments.joined(separator: " ") + ")"
        }

        mutating func directives(const: Bool = false) -> String {
            (0..<Int.random(in: 0...2, using: &generator)).map { _ in " @" + name() + arguments(const: const) }.joined()
        }

        mutating func selectionSet(depth: Int) -> String {
            let count = Int.random(in: depth > 2 ? 0...1 : 0...3, using: &generator)
            let selections = (0..<count).map { _ -> String in
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: return "...F" + directives()
                case 1: return "... on T" + directives() + " " + selectionSet(depth: depth + 1)
                case 2: return "..." + directives() + " " + selectionSet(depth: depth + 1)
                default:
                    let alias = chance(3) ? name() + ": " : ""
                    let nested = chance(2) ? " " + selectionSet(depth: depth + 1) : ""
                    return alias + name() + arguments() + directives() + nested
                }
            }
            return "{ " + selections.joined(separator: pick(["\n", " ", ", "])) + " }"
        }

        mutating func type() -> String {
            var type = pick(["Int", "String", "T"])
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                type = chance(2) ? "[" + type + "]" : (type.hasSuffix("!") ? "[" + type + "]" : type + "!")
            }
            return type
        }

        mutating func description() -> String {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: return ""
            case 1: return "\"" + stringCharacters() + "\" "
            default: return "\"\"\"" + blockCharacters() + "\"\"\"\n"
            }
        }

        mutating func definition() -> String {
            switch Int.random(in: 0..<7, using: &generator) {
            case 0: return selectionSet(depth: 0)
            case 1:
                let variables = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    description() + "$" + name() + ": " + type() + (chance(2) ? " = " + value(depth: 0, const: true) : "")
                        + directives(const: true)
                }
                let list = variables.isEmpty ? "" : "(" + variables.joined(separator: ", ") + ")"
                return description() + pick(["query", "mutation", "subscription"]) + (chance(2) ? " Q" : "") + list
                    + directives() + " " + selectionSet(depth: 0)
            case 2: return description() + "fragment F on T" + directives() + " " + selectionSet(depth: 0)
            case 3:
                let fields = (0..<Int.random(in: 1...3, using: &generator)).map { _ -> String in
                    let arguments = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                        description() + name() + ": " + type() + (chance(2) ? " = " + value(depth: 0, const: true) : "")
                    }
                    let list = arguments.isEmpty ? "" : "(" + arguments.joined(separator: " ") + ")"
                    return description() + name() + list + ": " + type() + directives(const: true)
                }
                let keyword = pick(["type", "interface", "extend type"])
                let implements = chance(2) ? " implements & I & J" : ""
                return (keyword.hasPrefix("extend") ? "" : description()) + keyword + " T" + implements
                    + directives(const: true) + " {\n" + fields.joined(separator: "\n") + "\n}"
            case 4: return description() + "enum E" + directives(const: true) + " { A " + description() + "B @d }"
            case 5: return description() + "union U = | A | B"
            default:
                let arguments = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                    name() + ": Int = " + value(depth: 0, const: true)
                }
                let list = arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")"
                return description() + "directive @d" + list + (chance(2) ? " repeatable" : "") + " on FIELD | QUERY"
            }
        }

        mutating func document() -> [UInt8] {
            let definitions = (0..<Int.random(in: 1...3, using: &generator)).map { _ in definition() }
            return Array(definitions.joined(separator: "\n\n").utf8)
        }
    }

    static func mutate(_ original: [UInt8], _ generator: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        for _ in 0...Int.random(in: 0...3, using: &generator) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0 where !bytes.isEmpty:  // delete a range
                let end = min(bytes.count, position + Int.random(in: 1...8, using: &generator))
                bytes.removeSubrange(position..<end)
            case 1:  // insert bytes
                let inserted = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                }
                bytes.insert(contentsOf: inserted, at: position)
            case 2 where !bytes.isEmpty:  // replace a byte by any byte
                bytes[position] = UInt8.random(in: 0...255, using: &generator)
            case 3 where !bytes.isEmpty:  // duplicate a range
                let end = min(bytes.count, position + Int.random(in: 1...30, using: &generator))
                bytes.insert(contentsOf: bytes[position..<end], at: end)
            case 4:  // truncate
                bytes.removeSubrange(position..<bytes.count)
            default:  // swap two bytes
                if bytes.count > 1 {
                    bytes.swapAt(position, Int.random(in: 0..<bytes.count, using: &generator))
                }
            }
        }
        return bytes
    }

    static func seeds() throws -> [[UInt8]] {
        let folder = syntaxCorpusFolder()
        let cases = try JSONDecoder().decode(
            [ParserCorpusTests.Case].self, from: Data(contentsOf: folder.appendingPathComponent("cases.json")))
        let documents = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".graphql") }
            .map { try readBytes(folder.appendingPathComponent($0)) }
        return cases.map { Array($0.source.utf8) }.filter { $0.count < 2_000 } + documents
    }

    /// Checks the properties on one input; returns whether it parsed.
    @discardableResult
    static func check(_ bytes: [UInt8]) -> Bool {
        let source = Source(bytes: bytes)
        let document: Document
        do {
            document = try parse(source)
        } catch {
            #expect(error.message.hasPrefix("Syntax Error: "), "\(bytes)")
            #expect(error.locations.count == 1 && error.locations[0].line >= 1 && error.locations[0].column >= 1, "\(bytes)")
            for kind in ["value", "constValue", "type"] {
                _ = ParserCorpusTests.answer(source, kind: kind)
            }
            return false
        }
        let printed = print(document)
        let reprinted = ParserCorpusTests.answer(Source(printed)).printed
        #expect(reprinted == printed, "printing is not stable for \(bytes)")
        return true
    }

    @Test func randomBytesNeverCrashTheParser() {
        var generator = SeededGenerator(state: 20_251_122)
        for _ in 0..<3_000 {
            Self.check(Self.randomBytes(&generator))
        }
    }

    @Test func generatedDocumentsParseAndPrintStably() {
        var documents = DocumentGenerator(generator: SeededGenerator(state: 7))
        for _ in 0..<500 {
            let bytes = documents.document()
            let answer = ParserCorpusTests.answer(Source(bytes: bytes))
            #expect(answer.error == nil, "\(answer) in:\n\(String(decoding: bytes, as: UTF8.self))")
            Self.check(bytes)
        }
    }

    @Test func mutatedGeneratedDocumentsNeverCrashTheParser() {
        var documents = DocumentGenerator(generator: SeededGenerator(state: 11))
        var generator = SeededGenerator(state: 13)
        for _ in 0..<1_000 {
            Self.check(Self.mutate(documents.document(), &generator))
        }
    }

    @Test func mutatedCorpusDocumentsNeverCrashTheParser() throws {
        var generator = SeededGenerator(state: 42)
        let seeds = try Self.seeds()
        var parsed = 0
        for round in 0..<3_000 where Self.check(Self.mutate(seeds[round % seeds.count], &generator)) {
            parsed += 1
        }
        // Many mutations keep a document valid: the printer's stability is checked on those.
        #expect(parsed > 50)
    }
}
