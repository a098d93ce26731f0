import ArgumentParser
import Foundation
import Postgres
import Storykeep

/// `storykeep migrate`: applies the pending migrations, as the owner role.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the migrations not yet applied (database.migrationsDirectory), as the owner role.",
        discussion: """
            Connects with STORYKEEP_OWNER_DATABASE_URL. Each NNNN_name.sql file runs once, in its \
            own transaction, in order; a file changed after it was applied is refused.
            """
    )

    @Flag(help: "Only say whether migrations are pending; exit 1 if any is.")
    var check = false

    func run() async throws {
        let config = try await CommandSupport.config()
        let logger = CommandSupport.bootstrapLogging(config)
        let directory = URL(fileURLWithPath: config.database.migrationsDirectory)
        try await CommandSupport.using(try CommandSupport.ownerPool(config, logger: logger)) { pool in
            let migrator = Migrator(pool: pool, logger: logger)
            if check {
                let pending = try await migrator.pending(directory: directory)
                for migration in pending { print("pending   \(migration.fileName)") }
                if !pending.isEmpty { throw ExitCode.failure }
                print("migrations are current")
                return
            }
            let applied = try await migrator.migrate(directory: directory)
            for migration in applied { print("applied   \(migration.fileName)") }
            if applied.isEmpty { print("migrations are current") }
        }
    }
}
