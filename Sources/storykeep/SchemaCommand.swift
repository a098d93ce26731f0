import ArgumentParser
import Foundation
import GraphQL
import Postgres
import Storykeep

/// `storykeep schema print --tenant <slug>` and `storykeep schema policies`.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "The GraphQL schemas tenants are served, and the database's row-level security.",
        subcommands: [Print.self, Policies.self]
    )

    struct Print: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the SDL of a tenant's schema: the modules always on and those its file enables.",
            discussion: """
                Reads the tenant's file in tenants.directory, or, when no valid file there has the \
                slug, the tenant as the database holds it (DATABASE_URL), and the SDL in \
                graphql.schemaDirectory. With --introspection-json, prints the schema as the \
                standard introspection query answers it, {"__schema": ...}, the JSON that code \
                generators (graphql-codegen, Apollo, Relay) read.
                """
        )

        @Option(help: "The tenant's slug (its file in the tenants directory, or the tenant in the database).")
        var tenant: String

        @Flag(help: "Print the introspection result as JSON instead of the SDL.")
        var introspectionJSON = false

        func run() async throws {
            let config = try await CommandSupport.config()
            let file = try await tenantFile(config)
            let schemas = TenantSchemas(directory: URL(fileURLWithPath: config.graphql.schemaDirectory))
            let schema = try schemas.schema(for: file).schema
            print(introspectionJSON ? await introspectionFromSchema(schema).json : printSchema(schema))
        }

        /// The tenant's file in the tenants directory, else the tenant as the database holds it.
        private func tenantFile(_ config: StorykeepConfig) async throws -> TenantFile {
            if let file = (try? TenantFiles.load(directory: config.tenants.directory))?.first(where: { $0.slug == tenant }) {
                return file
            }
            let logger = CommandSupport.bootstrapLogging(config)
            let stored = try await CommandSupport.using(try CommandSupport.appPool(config, logger: logger)) { pool in
                try await TenantStore(pool: pool).all { _, _ in }
            }
            guard let found = stored.first(where: { $0.slug == tenant }) else {
                throw CommandError("no tenant has the slug \(tenant): no file in \(config.tenants.directory)/ and none in the database")
            }
            return found.file
        }
    }

    struct Policies: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every table's row-level security as the database's catalog states it: Schema/policies.sql.",
            discussion: """
                Connects with DATABASE_URL (reading the catalog needs no privilege) to a migrated \
                database and prints, for each table of the schema public, whether row-level security \
                is enabled and forced and each of its policies, as SQL. After adding a migration: \
                storykeep schema policies > Schema/policies.sql
                """
        )

        /// What the file says of itself, before the listing.
        static let header = """
            -- Schema/policies.sql: the row-level security of every table of the schema public, as
            -- PostgreSQL's catalog states it once every migration in Migrations/ has run. Generated,
            -- never edited by hand: the migrations are where policies are written and explained, this
            -- is where to read what they add up to. After a migration, against a migrated database:
            --
            --     .build/debug/storykeep schema policies > Schema/policies.sql
            --
            -- (PolicyFileTests fails while this file differs from the catalog of the test database.)
            --
            -- Reading a table: with row-level security enabled, a command sees a row (USING) or may
            -- write it (WITH CHECK) when at least one permissive policy for that command admits it and
            -- every restrictive one does; with no permissive policy, no row. `for all` is every
            -- command. Forced, the table's owner is held to the policies too. The expressions are
            -- PostgreSQL's own (pg_get_expr, pretty): AND binds tighter than OR.

            """

        func run() async throws {
            let config = try await CommandSupport.config()
            let logger = CommandSupport.bootstrapLogging(config)
            let listing = try await CommandSupport.using(try CommandSupport.appPool(config, logger: logger)) { pool in
                try await pool.transaction { tx in try await RowSecurityListing.sql(on: tx) }
            }
            print(Self.header + "\n" + listing, terminator: "")
        }
    }
}
