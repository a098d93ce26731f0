import ArgumentParser
import Foundation
import GraphQL
import Storykeep

/// `storykeep schema print --tenant <slug>`.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "The GraphQL schemas tenants are served.",
        subcommands: [Print.self]
    )

    struct Print: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the SDL of a tenant's schema: the modules always on and those its file enables.",
            discussion: "Reads the tenant's file in tenants.directory and the SDL in graphql.schemaDirectory; no database."
        )

        @Option(help: "The tenant's slug (its file in the tenants directory).")
        var tenant: String

        func run() async throws {
            let config = try await CommandSupport.config()
            guard let file = try TenantFiles.load(directory: config.tenants.directory).first(where: { $0.slug == tenant }) else {
                throw CommandError("no tenant file has the slug \(tenant) in \(config.tenants.directory)/")
            }
            let schemas = TenantSchemas(directory: URL(fileURLWithPath: config.graphql.schemaDirectory))
            print(printSchema(try schemas.schema(for: file).schema))
        }
    }
}
