import GraphQL
import Hummingbird
import Synchronization

@testable import GraphQLHTTP

/// The schema GraphQL-over-HTTP tests run against, built from SDL with resolvers: a query with
/// arguments, a recursive type (for deep selections), an input type that nests (for deep
/// inputs), a mutation with state, uploads, and a field that fails.
enum GraphQLHTTPTestSchema {
    static let sdl = """
        scalar Upload

        type Query {
          hello(name: String = "world"): String!
          a: String
          fail: String
          note(id: ID!): Note
          echo(text: String): String
          count(items: [Int!]): Int!
          depth(input: Nested): Int!
        }

        type Mutation {
          addNote(text: String!): Note!
          upload(file: Upload!): File!
          uploadMany(files: [Upload!]!): [File!]!
        }

        type Note {
          id: ID!
          text: String!
          next: Note
        }

        type File {
          filename: String!
          contentType: String!
          size: Int!
          text: String!
        }

        input Nested {
          value: Int
          child: Nested
        }
        """

    /// The schema's object fields, for checking that no error message names one.
    static let fieldNames = [
        "hello", "fail", "note", "echo", "count", "depth", "addNote", "upload", "uploadMany", "next", "text",
        "filename", "contentType", "size", "value", "child",
    ]

    /// Notes added by `addNote`, numbered from 1.
    final class Notes: Sendable {
        private let texts = Mutex<[String]>([])

        func add(_ text: String) -> GraphQLValue {
            let id = texts.withLock { texts in
                texts.append(text)
                return texts.count
            }
            return note(id: id, text: text)
        }

        func note(id: Int, text: String) -> GraphQLValue {
            .object(["id": .string(String(id)), "text": .string(text)])
        }
    }

    static func make(introspection: Bool = true, suggestions: Bool = true) throws -> GraphQLSchema {
        let schema = try buildASTSchema(parse(sdl))
        schema.introspectionEnabled = introspection
        schema.suggestionsEnabled = suggestions
        GraphQLUpload.configureScalar(in: schema)
        let notes = Notes()
        let query = schema.queryType!
        let mutation = schema.mutationType!
        query.fields["hello"]!.resolve = .sync { _, arguments, _, _ in
            "Hello, \(arguments["name"]?.stringValue ?? "")!"
        }
        query.fields["fail"]!.resolve = .sync { _, _, _, _ in throw GraphQLError(message: "boom") }
        query.fields["note"]!.resolve = .sync { _, arguments, _, _ in
            notes.note(id: Int(arguments["id"]?.stringValue ?? "") ?? 0, text: "note")
        }
        query.fields["count"]!.resolve = .sync { _, arguments, _, _ in arguments["items"]?.listValue?.count ?? 0 }
        query.fields["depth"]!.resolve = .sync { _, arguments, _, _ in
            var depth = 0
            var input = arguments["input"]
            while let object = input?.objectValue {
                depth += 1
                input = object["child"]
            }
            return depth
        }
        if case .object(let note) = schema.type(named: "Note") {
            note.fields["next"]!.resolve = .sync { source, _, _, _ in source }
        }
        mutation.fields["addNote"]!.resolve = .sync { _, arguments, _, _ in
            notes.add(arguments["text"]?.stringValue ?? "")
        }
        mutation.fields["upload"]!.resolve = .sync { _, arguments, _, _ in try file(GraphQLUpload(arguments["file"])) }
        mutation.fields["uploadMany"]!.resolve = .sync { _, arguments, _, _ in
            GraphQLValue.list(try (arguments["files"]?.listValue ?? []).map { try file(GraphQLUpload($0)) })
        }
        return schema
    }

    private static func file(_ upload: GraphQLUpload) -> GraphQLValue {
        .object([
            "filename": .string(upload.filename), "contentType": .string(upload.contentType),
            "size": .int(upload.bytes.count), "text": .string(String(decoding: upload.bytes, as: UTF8.self)),
        ])
    }

    /// A handler serving the schema as a tenant's endpoint would: with the parser's token
    /// limit and the validator's default limits.
    static func handler(
        introspection: Bool = true, suggestions: Bool = true, configuration: GraphQLHTTPConfiguration = .init()
    ) throws -> GraphQLHTTPHandler<UncachedEngineExecutor> {
        GraphQLHTTPHandler(
            executor: UncachedEngineExecutor(schema: try make(introspection: introspection, suggestions: suggestions)),
            configuration: configuration)
    }
}

/// The engine's own steps without a document cache (parse with a token limit, validate with the
/// default limits, refuse a disallowed operation type, execute), until the execution engineer's
/// `GraphQLService` (the same steps with the cache) is on main and the tests serve that.
struct UncachedEngineExecutor: GraphQLHTTPExecutor {
    typealias Context = BasicRequestContext
    let schema: GraphQLSchema

    func execute(_ operation: GraphQLHTTPOperation, request: Request, context: Context) async -> GraphQLHTTPResult {
        let source = Source(operation.query)
        let document: Document
        do {
            document = try parse(source, options: ParseOptions(maxTokens: 5_000))
        } catch {
            return .response(json: GraphQLResponse(errors: [error]).jsonBytes(), executionStarted: false)
        }
        let errors = validate(schema: schema, document: document, source: source)
        if !errors.isEmpty { return .response(json: GraphQLResponse(errors: errors).jsonBytes(), executionStarted: false) }
        let operations = document.definitions.compactMap { definition -> OperationDefinition? in
            if case .operation(let operation) = definition { return operation } else { return nil }
        }
        let selected = operations.first { operation.operationName == nil ? operations.count == 1 : $0.name?.value == operation.operationName }
        if let selected, !operation.allowedOperationTypes.contains(selected.operation) {
            return .operationNotAllowed(selected.operation)
        }
        let response = await GraphQL.execute(
            schema: schema, document: document, source: source, variableValues: operation.variables,
            operationName: operation.operationName)
        return .response(json: response.jsonBytes(), executionStarted: !response.isRequestError)
    }
}
