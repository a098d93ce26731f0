import Foundation
import GraphQL
import Testing

@testable import storykeep

/// `storykeep gql run|print|bench`, run as a tool would run them: the built binary over files.
@Suite struct GQLCommandTests {
    static let schema = """
        type Query { me: Person, search: [Result!]!, count: Int!, secret: String }
        type Person { name: String!, friends: [Person] }
        type Tag { label: String }
        union Result = Person | Tag
        """

    static let root = """
        {"me": {"name": "Ada", "friends": [{"name": "Grace"}, {"name": {"__error": "hidden"}}]},
         "search": [{"__typename": "Tag", "label": "work"}, {"__typename": "Person", "name": "Alan"}],
         "count": 3, "secret": {"__error": "no access"}}
        """

    /// A fresh directory holding `files` (name → contents); returns its path.
    func directory(_ files: [String: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gql-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, contents) in files {
            try contents.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory.path
    }

    func run(query: String, extra: [String] = []) async throws -> Storykeep.Result {
        let dir = try directory(["s.graphql": Self.schema, "r.json": Self.root, "q.graphql": query])
        return try await Storykeep.run(
            ["gql", "run", "--schema", "\(dir)/s.graphql", "--root", "\(dir)/r.json", "--query", "\(dir)/q.graphql"]
                + extra)
    }

    @Test func theCommandsAreRegistered() throws {
        let run = try #require(
            try StorykeepCommand.parseAsRoot(["gql", "run", "--schema", "s", "--query", "q"]) as? GQLRunCommand)
        #expect(run.options.schema == ["s"] && run.options.query == "q" && run.options.root == nil)
        #expect(try StorykeepCommand.parseAsRoot(["gql", "print", "q"]) is GQLPrintCommand)
        #expect(try StorykeepCommand.parseAsRoot(["gql", "bench", "--schema", "s", "--query", "q"]) is GQLBenchCommand)
    }

    @Test func defaultResolversReadTheRootTypenameNamesTheTypeAndErrorRaises() async throws {
        let result = try await run(query: """
            { me { name friends { name } } search { __typename ... on Tag { label } ... on Person { name } }
              count secret }
            """)
        #expect(result.status == 0)
        let response = try GraphQLValue(json: result.output)
        // The non-null `name` of the second friend nulls that friend; `secret` is null with its error.
        #expect(
            response["data"]
                == (try GraphQLValue(json: """
                    {"me": {"name": "Ada", "friends": [{"name": "Grace"}, null]},
                     "search": [{"__typename": "Tag", "label": "work"}, {"__typename": "Person", "name": "Alan"}],
                     "count": 3, "secret": null}
                    """)))
        let errors = response["errors"]?.listValue ?? []
        #expect(errors.map { $0["message"]?.stringValue } == ["hidden", "no access"])
        #expect(errors.first?["path"] == (try GraphQLValue(json: #"["me", "friends", 1, "name"]"#)))
        #expect(errors.first?["locations"] == (try GraphQLValue(json: #"[{"line": 1, "column": 23}]"#)))
        // The specification's key order: errors before data.
        #expect(result.output.hasPrefix(#"{"errors":"#))
    }

    @Test func variablesAndOperationName() async throws {
        let query = "query A { count } query B($skip: Boolean!) { me { name @skip(if: $skip) } count }"
        let result = try await run(query: query, extra: ["--operation-name", "B", "--variables", #"{"skip": true}"#])
        #expect(result.status == 0)
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"data":{"me":{},"count":3}}"#)
    }

    @Test func aDocumentWithErrorsIsAnsweredNotFailed() async throws {
        let invalid = try await run(query: "{ nope }")
        #expect(invalid.status == 0)
        let response = try GraphQLValue(json: invalid.output)
        #expect(response["data"] == nil)
        #expect(response["errors"]?.listValue?.first?["message"]?.stringValue == #"Cannot query field "nope" on type "Query"."#)

        let unparsable = try await run(query: "{ me { ")
        #expect(unparsable.status == 0)
        #expect(try GraphQLValue(json: unparsable.output)["errors"]?.listValue?.first?["message"]?.stringValue?
            .hasPrefix("Syntax Error") == true)

        let badVariables = try await run(query: "query($n: Int!) { count }", extra: ["--variables", "{}"])
        #expect(badVariables.status == 0)
        #expect(try GraphQLValue(json: badVariables.output)["data"] == nil)
    }

    @Test func badUsageExitsNonZero() async throws {
        let dir = try directory(["s.graphql": Self.schema, "q.graphql": "{ count }", "bad.graphql": "type {"])
        let missing = try await Storykeep.run(["gql", "run", "--schema", "\(dir)/none.graphql", "--query", "\(dir)/q.graphql"])
        #expect(missing.status != 0)
        let badSchema = try await Storykeep.run(["gql", "run", "--schema", "\(dir)/bad.graphql", "--query", "\(dir)/q.graphql"])
        #expect(badSchema.status != 0)
        let badVariables = try await Storykeep.run(
            ["gql", "run", "--schema", "\(dir)/s.graphql", "--query", "\(dir)/q.graphql", "--variables", "[1]"])
        #expect(badVariables.status != 0)
        let noSchema = try await Storykeep.run(["gql", "run", "--query", "\(dir)/q.graphql"])
        #expect(noSchema.status != 0)
    }

    @Test func printPrintsTheCanonicalFormOrTheSyntaxError() async throws {
        let dir = try directory(["q.graphql": "query Q($a:Int=1){me{...F}} fragment F on Person{name}", "bad.graphql": "{"])
        let printed = try await Storykeep.run(["gql", "print", "\(dir)/q.graphql"])
        #expect(printed.status == 0)
        #expect(
            printed.output == """
                query Q($a: Int = 1) {
                  me {
                    ...F
                  }
                }

                fragment F on Person {
                  name
                }

                """)
        let bad = try await Storykeep.run(["gql", "print", "\(dir)/bad.graphql"])
        #expect(bad.status == 0)
        #expect(try GraphQLValue(json: bad.output)["errors"]?.listValue?.first?["locations"] != nil)
    }

    /// Figures only: their values are not judged here, only that each is there.
    @Test func benchPrintsEveryFigure() async throws {
        let dir = try directory(["s.graphql": Self.schema, "r.json": Self.root, "q.graphql": "{ me { name } }"])
        let result = try await Storykeep.run(
            ["gql", "bench", "--schema", "\(dir)/s.graphql", "--root", "\(dir)/r.json", "--query", "\(dir)/q.graphql",
             "--seconds", "0.05"])
        #expect(result.status == 0)
        let figures = try GraphQLValue(json: result.output)
        #expect(figures.objectValue?.keys == ["parse_us", "validate_us", "execute_us", "all_us", "cached_us"])
        #expect(figures.objectValue?.values.allSatisfy { $0.doubleValue != nil } == true)

        let invalid = try directory(["s.graphql": Self.schema, "q.graphql": "{ nope }"])
        let parseOnly = try GraphQLValue(json: try await Storykeep.run(
            ["gql", "bench", "--schema", "\(invalid)/s.graphql", "--query", "\(invalid)/q.graphql", "--seconds", "0.05"]
        ).output)
        #expect(parseOnly["parse_us"]?.doubleValue != nil && parseOnly["cached_us"]?.isNull == true)
    }
}
