import GraphQL
import Testing

/// The JSON a response is written as: JavaScript's `JSON.stringify` output, byte for byte.
@Suite struct JSONWriterTests {
    @Test func stringsAreEscapedAsJSONStringifyDoes() {
        let text = "plain \"quoted\" back\\slash\nnew\rret\ttab\u{8}bs\u{C}ff\u{0}nul\u{1F}us\u{7F}del é 😀 / end"
        #expect(
            GraphQLValue.string(text).json
                == #""plain \"quoted\" back\\slash\nnew\rret\ttab\bbs\fff\u0000nul\u001fus"#
                + "\u{7F}del é 😀 / end\"")
        #expect(GraphQLValue.string("").json == #""""#)
        #expect(GraphQLValue.string("\"").json == #""\"""#)
        // Long strings (not stored inline) with escapes at both ends.
        let long = "\n" + String(repeating: "abcdefgh", count: 40) + "\\"
        #expect(GraphQLValue.string(long).json == #""\n"# + String(repeating: "abcdefgh", count: 40) + #"\\""#)
    }

    /// Each character that needs an escape, at every position of strings around the writer's
    /// eight-byte steps, against a character-by-character escape.
    @Test func escapesAtEveryPosition() {
        func expected(_ text: String) -> String {
            let escaped = text.unicodeScalars.map { scalar -> String in
                switch scalar {
                case "\"": #"\""#
                case "\\": #"\\"#
                case "\n": #"\n"#
                case "\u{1}": #"\u0001"#
                default: String(scalar)
                }
            }
            return "\"" + escaped.joined() + "\""
        }
        for length in [1, 7, 8, 9, 15, 16, 17, 24, 40] {
            for position in 0..<length {
                for special in ["\"", "\\", "\n", "\u{1}", "é"] {
                    var characters = Array(repeating: "a", count: length)
                    characters[position] = special
                    let text = characters.joined()
                    #expect(GraphQLValue.string(text).json == expected(text))
                }
            }
        }
    }

    @Test func numbers() {
        let cases: [(GraphQLValue, String)] = [
            (.int(0), "0"), (.int(7), "7"), (.int(-7), "-7"), (.int(10), "10"), (.int(99), "99"),
            (.int(100), "100"), (.int(Int.max), "9223372036854775807"), (.int(Int.min), "-9223372036854775808"),
            (.int(1_000_000_000_000_000_000), "1000000000000000000"), (.float(1.0), "1"), (.float(-0.5), "-0.5"),
            (.float(1e-7), "1e-7"), (.float(1e21), "1e+21"), (.float(123.25), "123.25"), (.float(.infinity), "null"),
        ]
        for (value, expected) in cases { #expect(value.json == expected) }
    }

    @Test func nestedValuesKeepTheirOrder() throws {
        let value: GraphQLValue = .object([
            "b": .list([.null, .bool(true), .bool(false), .list([]), .object([:])]),
            "a\"key": .object(["z": .int(1), "y": .string("x")]),
        ])
        #expect(value.json == #"{"b":[null,true,false,[],{}],"a\"key":{"z":1,"y":"x"}}"#)
        #expect(try GraphQLValue(json: value.json) == value)
    }

    @Test func objectsThatShareTheirKeysAreWrittenWhole() throws {
        // As the executor builds them: every object of a selection set with its plan's keys,
        // the inner ones first seen while an outer one is being written.
        let outerKeys = ["id", "tags", "empty"]
        let innerKeys = ["name", "a\"quoted\"key"]
        let items = (0..<50).map { index in
            let tag = GraphQLValue.object(GraphQLObject(uniqueKeys: innerKeys, values: [.string("t\(index)"), .int(index)]))
            return GraphQLValue.object(
                GraphQLObject(uniqueKeys: outerKeys, values: [.int(index), .list([tag, tag]), .object([:])]))
        }
        let text = GraphQLValue.list(items).json
        #expect(text.hasPrefix(#"[{"id":0,"tags":[{"name":"t0","a\"quoted\"key":0},{"name":"t0","a\"quoted\"key":0}],"empty":{}},"#))
        #expect(try GraphQLValue(json: text) == .list(items))
    }

    @Test func aLargeValueReadsBack() throws {
        let items = (0..<2_000).map { index in
            GraphQLValue.object([
                "id": .int(index), "name": .string("item \(index) \u{1}\"\(String(repeating: "é", count: index % 40))"),
            ])
        }
        var bytes: [UInt8] = Array("prefix:".utf8)
        GraphQLValue.list(items).writeJSON(to: &bytes)
        #expect(bytes.starts(with: Array("prefix:[{".utf8)))
        #expect(try GraphQLValue(json: bytes.dropFirst(7)) == .list(items))
    }
}
