import Foundation
import Testing

@testable import GraphQL

/// The abuse limits, hostile documents, and the switches for introspection and suggestions.
struct ValidationLimitsTests {
    static let schema = makeSchema()

    /// The validation corpus's schema; a test that switches something off makes its own, since
    /// the tests run at the same time.
    static func makeSchema() -> GraphQLSchema {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Corpus/validation/schema.graphql")
        return try! buildASTSchema(parse(String(contentsOf: url, encoding: .utf8)))
    }

    func check(
        _ text: String, _ options: ValidationOptions = ValidationOptions(), parseDepth: Int = 200, schema: GraphQLSchema = Self.schema
    ) throws -> (messages: [String], seconds: Double) {
        let source = Source(text)
        let document = try parse(source, options: ParseOptions(maxDepth: parseDepth))
        let start = Date()
        let errors = validate(schema: schema, document: document, source: source, options: options)
        return (errors.map(\.message), Date().timeIntervalSince(start))
    }

    @Test func fiveHundredAliasesOfOneField() throws {
        let fields = (1...500).map { "a\($0): name" }.joined(separator: " ")
        let (messages, seconds) = try check("query Many { me { \(fields) } }")
        #expect(messages == ["Operation \"Many\" has 500 aliases, more than the maximum of 100."])
        #expect(seconds < 1)
        // Without the limit the document is valid, and checking it is still quick.
        let (unlimited, quick) = try check("{ me { \(fields) } }", ValidationOptions(limits: .none))
        #expect(unlimited.isEmpty)
        #expect(quick < 1)
    }

    @Test func fiveHundredSameFieldsAreMergedQuickly() throws {
        let fields = String(repeating: "name ", count: 500) + String(repeating: "friends { id } ", count: 500)
        let (messages, seconds) = try check("{ me { \(fields) } }", ValidationOptions(limits: .none))
        #expect(messages.isEmpty)
        #expect(seconds < 2)
    }

    @Test func aliasesCountWhereFragmentsAreSpread() throws {
        let fragment = "fragment F on Person { " + (1...30).map { "a\($0): name" }.joined(separator: " ") + " }"
        let (messages, _) = try check("{ me { ...F friends { ...F } carers { ...F } pet { __typename } } } " + fragment)
        #expect(messages.isEmpty)
        let (four, _) = try check(
            "{ me { ...F friends { ...F } carers { ...F } } people { ...F } } " + fragment)
        #expect(four == ["The anonymous query has 120 aliases, more than the maximum of 100."])
    }

    @Test func directiveRepeatedFiftyTimes() throws {
        let repeated = String(repeating: "@repeatable ", count: 50)
        let (messages, seconds) = try check("{ me { name \(repeated) } }")
        #expect(messages == ["50 directives are applied here, more than the maximum of 10."])
        #expect(seconds < 1)
        // A directive that is not repeatable is refused by the specification's rule too.
        let (skips, _) = try check("{ me { name " + String(repeating: "@skip(if: false) ", count: 50) + "} }")
        #expect(skips.count == 50)
        #expect(skips.last == "50 directives are applied here, more than the maximum of 10.")
        #expect(skips.first == "The directive \"@skip\" can only be used once at this location.")
    }

    @Test func thousandLevelsOfNesting() throws {
        let text = "query Deep { me " + String(repeating: "{ friends ", count: 999) + "{ id }"
            + String(repeating: " }", count: 1000)
        let (messages, seconds) = try check(text, parseDepth: 2000)
        #expect(messages == ["Operation \"Deep\" is nested more than 20 fields deep, the maximum depth."])
        #expect(seconds < 1)
        // Without the depth limit, nesting past graphql-core's bound aborts the validation.
        let (unlimited, quick) = try check(text, ValidationOptions(limits: .none), parseDepth: 2000)
        #expect(unlimited == ["Validation aborted."])
        #expect(quick < 1)
    }

    @Test func depthCountsFragments() throws {
        let fragments = (1...12).map { "fragment F\($0) on Person { friends { ...F\($0 + 1) } }" }.joined(separator: "\n")
        var options = ValidationOptions(limits: ValidationLimits(maxDepth: 20, maxCost: nil))
        let (messages, _) = try check("query Q { me { ...F1 } }\n" + fragments + "\nfragment F13 on Person { name }", options)
        #expect(messages.isEmpty)
        options.limits.maxDepth = 10
        let (limited, _) = try check("query Q { me { ...F1 } }\n" + fragments + "\nfragment F13 on Person { name }", options)
        #expect(limited == ["Operation \"Q\" is nested more than 10 fields deep, the maximum depth."])
    }

    @Test func fragmentCycle() throws {
        let (messages, seconds) = try check(
            "{ me { ...A } } fragment A on Person { friends { ...B } } fragment B on Person { carers { ...A } }")
        #expect(messages == ["Cannot spread fragment \"A\" within itself via \"B\"."])
        #expect(seconds < 1)
        let chain = (0..<150).map { "fragment C\($0) on Person { ...C\(($0 + 1) % 150) }" }.joined(separator: " ")
        let (cycle, quick) = try check("{ me { ...C0 } } " + chain)
        #expect(cycle.count == 1)
        #expect(cycle[0].hasPrefix("Cannot spread fragment \"C0\" within itself via \"C1\", \"C2\""))
        #expect(quick < 1)
    }

    @Test func introspectionNestedThreeListsDeep() throws {
        let (messages, _) = try check(
            "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }")
        #expect(messages == ["Maximum introspection depth exceeded"])
    }

    @Test func standardIntrospectionQueryPassesTheDefaultLimits() throws {
        let url = syntaxCorpusFolder().appendingPathComponent("valid-introspection-query.graphql")
        let (messages, _) = try check(String(contentsOf: url, encoding: .utf8))
        #expect(messages.isEmpty)
    }

    @Test func costModel() throws {
        var options = ValidationOptions()
        options.limits.maxCost = 421
        // entries (a list of 20) × (itself + tags (a list of 10) × (itself + name)) + me + name.
        let query = "{ entries(first: 20) { tags { name } } me { name } }"
        let (over, _) = try check(query, options)
        #expect(over == ["The anonymous query has a cost of 422, more than the maximum of 421."])
        options.limits.maxCost = 422
        #expect(try check(query, options).messages.isEmpty)
        // A variable's size is not known: the default list size counts, and fragments count
        // where they are spread.
        options.limits.maxCost = 39
        let (tooMuch, _) = try check(
            "query Q($n: Int) { entries(first: $n) { ...T } people { ...T } } fragment T on Node { id }", options)
        #expect(tooMuch == ["Operation \"Q\" has a cost of 40, more than the maximum of 39."])
    }

    @Test func aConnectionsPageMultipliesItsEdgesOnce() throws {
        let schema = try buildASTSchema(parse("""
            type Query { entries(first: Int = 20, after: String): EntryConnection! me: Person }
            type EntryConnection { edges: [Edge!]! nodes: [Entry!]! pageInfo: PageInfo! }
            type Edge { cursor: String! node: Entry! }
            type Entry { id: ID! tags: [String!]! }
            type PageInfo { hasNextPage: Boolean! }
            type Person { name: String }
            """))
        var options = ValidationOptions(limits: ValidationLimits(maxCost: 15_000, variableListSize: 100))
        // entries × (itself + edges + node + id): the page's edges are not a list of ten more.
        let aliases = (1...100).map { "a\($0): entries(first: 100) { edges { node { id } } }" }.joined(separator: " ")
        #expect(try check("{ \(aliases) }", options, schema: schema).messages
            == ["The anonymous query has a cost of 40000, more than the maximum of 15000."])
        // A variable counts as the largest page; the SDL's default when the argument is absent.
        let variables = (1...100).map { "a\($0): entries(first: $n) { __typename }" }.joined(separator: " ")
        #expect(try check("query Q($n: Int) { \(variables) }", options, schema: schema).messages
            == ["Operation \"Q\" has a cost of 20000, more than the maximum of 15000."])
        options.limits.maxCost = 100
        #expect(try check("{ entries { edges { cursor } pageInfo { hasNextPage } } }", options, schema: schema).messages.isEmpty)
        #expect(try check("{ entries { edges { cursor node { id } } } me { name } }", options, schema: schema).messages
            == ["The anonymous query has a cost of 102, more than the maximum of 100."])
        // Introspection costs nothing.
        options.limits.maxCost = 1
        #expect(try check("{ __schema { types { fields { name } } } __type(name: \"Entry\") { name } }", options, schema: schema).messages.isEmpty)
    }

    @Test func errorLimit() throws {
        let fields = (1...150).map { "unknown\($0)" }.joined(separator: " ")
        let (messages, seconds) = try check("{ me { \(fields) } }")
        #expect(messages.count == 101)
        #expect(messages.last == "Too many validation errors, error limit reached. Validation aborted.")
        #expect(seconds < 1)
        let (three, _) = try check("{ me { \(fields) } }", ValidationOptions(maxErrors: 3))
        #expect(three.count == 4)
    }

    @Test func introspectionSwitchedOff() throws {
        let schema = Self.makeSchema()
        schema.introspectionEnabled = false
        let (messages, _) = try check(
            "{ __typename me { name } __schema { types { name } } __type(name: \"Tag\") { name } }", schema: schema)
        #expect(messages == [
            "GraphQL introspection has been disabled, but the requested query contained the field \"__schema\".",
            "GraphQL introspection has been disabled, but the requested query contained the field \"types\".",
            "GraphQL introspection has been disabled, but the requested query contained the field \"__type\".",
        ])
    }

    @Test func suggestionsSwitchedOffNameNoExistingField() throws {
        let schema = Self.makeSchema()
        schema.suggestionsEnabled = false
        let (messages, _) = try check(
            """
            query Q($m: Mod) { me { nam(shor: true) entries(filter: { txt: "x", mood: GOD }) { titl } } \
            search(text: "x") { body } pet { ... on Dogg { name } } arguments { mood(value: "GOOD") } }
            """, schema: schema)
        #expect(messages.count == 9)
        // Type names may appear (as in graphql-js); the names of fields, arguments, input fields
        // and enum values that exist, and suggested types, may not.
        let fieldNames = ["name", "short", "text", "title", "GREAT", "Dog"]
        for message in messages {
            #expect(!message.contains("Did you mean"), "\(message)")
            for name in fieldNames { #expect(!message.contains("\"\(name)\""), "\(message) names \(name)") }
        }
    }
}
