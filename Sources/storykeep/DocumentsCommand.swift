import ArgumentParser
import Foundation
import GraphQL
import Storykeep

/// `storykeep documents register --tenant <slug> operations.json`: the trusted documents of a
/// tenant's apps.
struct DocumentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "documents",
        abstract: "The operations registered for a tenant's apps (trusted documents).",
        subcommands: [Register.self]
    )

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a build's operations against a tenant's schema and register them.",
            discussion: """
                The file is what an app's build writes: a JSON object of id -> document text \
                (graphql-codegen's client preset, persisted-documents.json; Relay's persisted \
                queries), or Apollo's persisted query manifest. Every document must parse and \
                validate against the tenant's schema (DATABASE_URL); otherwise nothing is \
                registered and every problem is listed. Registered documents are added to the \
                tenant's (--replace: take their place); running servers see them at once. Clients \
                may then send {"documentId": "<id>"} instead of the text, and a tenant file with \
                graphql.trustedDocumentsOnly: true runs nothing else.
                """
        )

        @Option(help: "The tenant's slug.")
        var tenant: String

        @ArgumentParser.Argument(help: "The operations file (JSON).")
        var file: String

        @Flag(help: "Replace the tenant's registered documents instead of adding to them.")
        var replace = false

        func run() async throws {
            let documents = try Self.read(file)
            let config = try await CommandSupport.config()
            let logger = CommandSupport.bootstrapLogging(config)
            let stored = try await CommandSupport.using(try CommandSupport.appPool(config, logger: logger)) { pool in
                try await TenantStore(pool: pool).all { _, _ in }
            }
            guard let found = stored.first(where: { $0.slug == tenant }) else {
                throw CommandError("no tenant has the slug \(tenant)")
            }
            let schemas = TenantSchemas(directory: URL(fileURLWithPath: config.graphql.schemaDirectory))
            let service = try schemas.schema(for: found.file).service
            let problems = documents.keys.sorted().flatMap { id in Self.problems(of: documents[id]!, id: id, service: service) }
            guard problems.isEmpty else {
                throw CommandError("\(file): nothing registered; \(problems.count) problem(s):\n" + problems.joined(separator: "\n"))
            }
            let total = try await CommandSupport.using(try CommandSupport.ownerPool(config, logger: logger)) { pool in
                try await TenantStore(pool: pool).registerDocuments(documents, slug: tenant, replacing: replace)
            }
            print("registered \(documents.count) document(s) for \(tenant); it has \(total ?? 0)")
        }

        /// The documents of an operations file, by id.
        static func read(_ path: String) throws -> [String: String] {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw CommandError("\(path): cannot be read (\(error.localizedDescription))")
            }
            if let documents = try? JSONDecoder().decode([String: String].self, from: data) {
                guard !documents.isEmpty else { throw CommandError("\(path): no documents") }
                return documents
            }
            if let manifest = try? JSONDecoder().decode(ApolloManifest.self, from: data), manifest.format == ApolloManifest.format {
                return Dictionary(manifest.operations.map { ($0.id, $0.body) }) { first, _ in first }
            }
            throw CommandError(
                "\(path): not an operations file: expected a JSON object of id -> document text, or Apollo's persisted query manifest")
        }

        /// What is wrong with the document `text` registered as `id`, a line a problem.
        static func problems(of text: String, id: String, service: GraphQLService) -> [String] {
            service.documentErrors(text).map { error in
                let at = error.locations.first.map { " (\($0.line):\($0.column))" } ?? ""
                return "  \(id)\(at): \(error.message)"
            }
        }
    }
}

/// Apollo's persisted query manifest (`generate-persisted-query-manifest`).
private struct ApolloManifest: Decodable {
    static let format = "apollo-persisted-query-manifest"

    struct Operation: Decodable {
        var id: String
        var body: String
    }

    var format: String
    var operations: [Operation]
}
