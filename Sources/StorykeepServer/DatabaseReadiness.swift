import Foundation
import Logging
public import Postgres

/// Ready when the database answers on the server's pool and every migration of the directory is
/// applied (and none has changed since): a replica started before `storykeep migrate` ran, or
/// cut off from PostgreSQL, takes no traffic.
public struct DatabaseReadiness: ReadinessCheck {
    let migrator: Migrator
    let migrations: URL

    public init(pool: PostgresPool, migrations directory: String, logger: Logger = Logger(label: "storykeep.readiness")) {
        migrator = Migrator(pool: pool, logger: logger)
        migrations = URL(fileURLWithPath: directory)
    }

    public func problem() async -> String? {
        do {
            return try await migrator.isCurrent(directory: migrations) ? nil : "database migrations are not current"
        } catch {
            return "database unreachable"
        }
    }
}
