import Foundation
import Logging
import Postgres

/// The databases the tests run against, found through the environment that `make test` sets:
/// `DATABASE_URL` (the application role, `storykeep_app`) and `STORYKEEP_OWNER_DATABASE_URL`
/// (the owner role). Without them every database test fails with the message below; none is
/// skipped.
enum TestDatabase {
    struct Missing: Error, CustomStringConvertible {
        let variable: String
        var description: String {
            "\(variable) is not set: these tests need a PostgreSQL server. Run them with `make test`, "
                + "which starts a throw-away cluster and exports DATABASE_URL and STORYKEEP_OWNER_DATABASE_URL."
        }
    }

    static func url(_ variable: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else {
            throw Missing(variable: variable)
        }
        return value
    }

    static let logger = Logger(label: "postgres-tests")

    /// A new pool as the application role; the caller closes it.
    static func appPool(size: Int = 8, acquireTimeout: Duration = .seconds(10)) throws -> PostgresPool {
        PostgresPool(
            configuration: .init(connectionString: try url("DATABASE_URL"), poolSize: size, acquireTimeout: acquireTimeout),
            logger: logger)
    }

    /// A new pool as the owner role; the caller closes it.
    static func ownerPool(size: Int = 2) throws -> PostgresPool {
        PostgresPool(
            configuration: .init(connectionString: try url("STORYKEEP_OWNER_DATABASE_URL"), poolSize: size),
            logger: logger)
    }
}

/// Runs `body` with a fresh pool and closes it afterwards, whatever happens.
func withAppPool<T>(
    size: Int = 8, acquireTimeout: Duration = .seconds(10),
    _ body: (PostgresPool) async throws -> T
) async throws -> T {
    let pool = try TestDatabase.appPool(size: size, acquireTimeout: acquireTimeout)
    do {
        let value = try await body(pool)
        await pool.close()
        return value
    } catch {
        await pool.close()
        throw error
    }
}
