import GraphQL
import Testing

/// The JSON reader and writer that GraphQL over HTTP reads variables and writes responses with.
@Suite struct GraphQLHTTPJSONTests {
    @Test func readsEveryKindOfValue() throws {
        let value = try GraphQLValue(json: #" {"a": [1, -2.5, 1e3, true, false, null], "b": "x\"\u00e9\ud83d\ude00\n", "c": {}} "#)
        let expected: GraphQLValue = .object([
            "a": .list([.int(1), .float(-2.5), .float(1000), .bool(true), .bool(false), .null]),
            "b": .string("x\"é😀\n"),
            "c": .object([:]),
        ])
        #expect(value == expected)
    }

    @Test func keepsKeyOrderAndTheLastOfRepeatedKeys() throws {
        let small = try GraphQLValue(json: #"{"z":1,"a":2,"z":3}"#)
        #expect(small.objectValue?.keys == ["z", "a"])
        #expect(small["z"] == .int(3))
        let keys = (0..<40).map { "\"k\($0 % 20)\":\($0)" }.joined(separator: ",")
        let large = try GraphQLValue(json: "{\(keys)}")
        #expect(large.objectValue?.count == 20)
        #expect(large["k3"] == .int(23))
    }

    @Test func integersBeyondIntBecomeFloats() throws {
        #expect(try GraphQLValue(json: "9223372036854775807") == .int(Int.max))
        #expect(try GraphQLValue(json: "9223372036854775808") == .float(9_223_372_036_854_775_808))
        #expect(try GraphQLValue(json: "-0") == .int(0))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\"}", "{\"a\":1,}", "01", "1.", "-", ".5", "1e", "tru", "nul", "\"abc",
        "\"\u{01}\"", "\"\\x\"", "\"\\ud800\"", "\"\\u12\"", "[1] [2]", "{'a':1}", "NaN",
    ])
    func refusesMalformedJSON(_ text: String) {
        #expect(throws: JSONError.self) { try GraphQLValue(json: text) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONError.self) { try GraphQLValue(json: [0x22, 0xFF, 0x22]) }
    }

    @Test func refusesDeepNestingWithoutRecursion() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONError.self) { try GraphQLValue(json: deep) }
        let objects = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(throws: JSONError.self) { try GraphQLValue(json: objects, maxDepth: 100) }
        let allowed = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try GraphQLValue(json: allowed, maxDepth: 100) }
    }

    @Test func readsLargeArraysInLinearTime() throws {
        let items = Array(repeating: "1", count: 100_000).joined(separator: ",")
        let clock = ContinuousClock()
        let start = clock.now
        let value = try GraphQLValue(json: "[\(items)]")
        #expect(value.listValue?.count == 100_000)
        #expect(clock.now - start < .seconds(2))
    }

    @Test func writesCompactJSON() {
        let value: GraphQLValue = .object([
            "s": .string("a\"b\\c\n\u{1}é"), "l": .list([.int(-3), .bool(true), .null]), "o": .object([:]),
        ])
        #expect(value.json == #"{"s":"a\"b\\c\n\u0001é","l":[-3,true,null],"o":{}}"#)
    }

    @Test(arguments: [
        (1.0, "1"), (-0.0, "0"), (0.5, "0.5"), (123.25, "123.25"), (1e21, "1e+21"), (1.5e21, "1.5e+21"),
        (1e20, "100000000000000000000"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (0.00001, "0.00001"),
        (0.001, "0.001"), (-2.5e-10, "-2.5e-10"), (Double.infinity, "null"), (Double.nan, "null"),
        (3.14159, "3.14159"), (1e18, "1000000000000000000"),
    ])
    func writesFloatsAsJavaScriptDoes(_ value: Double, _ expected: String) {
        #expect(GraphQLValue.float(value).json == expected)
    }

    @Test func roundTrips() throws {
        let text = #"{"a":[1,2.5,"x",{"b":null}],"c":false}"#
        #expect(try GraphQLValue(json: text).json == text)
    }
}
