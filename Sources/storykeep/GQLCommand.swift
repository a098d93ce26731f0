import ArgumentParser
import Foundation
import GraphQL

/// `storykeep gql`: the GraphQL engine alone, for tools and tests: run a document over a JSON
/// root value, print a document in canonical form, time the engine on one operation.
///
/// These commands exit non-zero only on bad usage (a missing file, JSON that does not parse, a
/// schema that does not build); a document with errors is answered like any request, with a
/// response that says so.
struct GQLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gql",
        abstract: "Run, print and time GraphQL documents with the engine alone.",
        subcommands: [GQLRunCommand.self, GQLPrintCommand.self, GQLBenchCommand.self]
    )
}

/// What the `gql` commands share: reading their inputs, where a failure is bad usage.
enum GQLInput {
    static func text(_ path: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// The schema built from one or more SDL files (later files may `extend` earlier ones).
    static func schema(_ paths: [String]) throws -> GraphQLSchema {
        guard !paths.isEmpty else { throw ValidationError("give the schema with --schema") }
        do {
            let documents = try paths.map { path in try parse(Source(try text(path), name: path)) }
            return try buildASTSchema(documents)
        } catch let error as GraphQLError {
            throw ValidationError("the schema does not build: \(error)")
        }
    }

    /// A JSON value from a file (nil path: the default).
    static func json(file path: String?, default value: GraphQLValue) throws -> GraphQLValue {
        guard let path else { return value }
        return try json(try text(path), what: path)
    }

    static func json(_ text: String, what: String) throws -> GraphQLValue {
        do {
            return try GraphQLValue(json: text)
        } catch {
            throw ValidationError("\(what) is not JSON: \(error)")
        }
    }

    /// `--variables`: a JSON object given inline.
    static func variables(_ text: String?) throws -> GraphQLObject? {
        guard let text else { return nil }
        guard case .object(let object) = try json(text, what: "--variables") else {
            throw ValidationError("--variables must be a JSON object")
        }
        return object
    }
}

/// The options of `gql run` and `gql bench`: one operation, with its schema, root value and
/// variables.
struct GQLOperationOptions: ParsableArguments {
    @Option(help: "An SDL file of the schema (repeat for several).")
    var schema: [String] = []

    @Option(help: "The GraphQL document's file.")
    var query: String

    @Option(help: "A JSON file: the root value (default: {}).")
    var root: String?

    @Option(help: "The variables, as a JSON object.")
    var variables: String?

    @Option(help: "The operation to run, when the document has several.")
    var operationName: String?

    /// The files read and the JSON parsed; a failure is bad usage.
    func read() throws -> GQLOperation {
        let schema = try GQLInput.schema(self.schema)
        let root = try GQLInput.json(file: self.root, default: .object([:]))
        let text = try GQLInput.text(query)
        return GQLOperation(
            schema: schema, root: root, text: text, variables: try GQLInput.variables(variables), operationName: operationName)
    }
}

/// An operation of `gql run` or `gql bench`, ready to run.
struct GQLOperation {
    let schema: GraphQLSchema
    let root: GraphQLValue
    /// The document's text.
    let text: String
    let variables: GraphQLObject?
    let operationName: String?

    /// The operation as a request to `GraphQLService`.
    var request: GraphQLRequest { GraphQLRequest(query: text, operationName: operationName, variables: variables) }
}
