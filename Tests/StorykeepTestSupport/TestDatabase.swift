import Foundation
import Logging
import Postgres
import StorykeepServer

/// The database the tests run against, found through the environment that `make test` sets:
/// `DATABASE_URL` (the application role, `storykeep_app`) and `STORYKEEP_OWNER_DATABASE_URL`
/// (the owner role, `storykeep_owner`). Without them every database test fails with ``Missing``'s
/// message; none is skipped.
public enum TestDatabase {
    public static let appVariable = "DATABASE_URL"
    public static let ownerVariable = "STORYKEEP_OWNER_DATABASE_URL"
    public static let appRole = "storykeep_app"
    public static let ownerRole = "storykeep_owner"
    public static let logger = Logger(label: "test")

    /// A variable the tests need is not set.
    public struct Missing: Error, CustomStringConvertible {
        public let variable: String
        public var description: String {
            "\(variable) is not set: these tests need a PostgreSQL server. Run them with `make test`, which starts "
                + "a throw-away cluster and exports \(TestDatabase.appVariable) and \(TestDatabase.ownerVariable)."
        }
    }

    /// The value of `variable`, or ``Missing``.
    public static func url(_ variable: String) throws(Missing) -> String {
        TestWatchdog.started
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else {
            throw Missing(variable: variable)
        }
        return value
    }

    /// Throws ``Missing`` unless both variables are set: for tests that run the `storykeep` binary,
    /// which reads them itself.
    public static func requireEnvironment() throws(Missing) {
        _ = try url(appVariable)
        _ = try url(ownerVariable)
    }

    /// A new pool as the application role; the caller closes it. A test that counts round trips
    /// gives its gatherings a long `gatheringPatience` (``countingRoundTrips``).
    public static func appPool(
        size: Int = 4, acquireTimeout: Duration = .seconds(10),
        gatheringPatience: Duration = PostgresConfiguration.defaultGatheringPatience
    ) throws -> PostgresPool {
        _ = ServerMetrics.shared  // as `storykeep serve`: metrics bootstrapped before a pool counts anything
        return PostgresPool(
            configuration: .init(
                connectionString: try url(appVariable), poolSize: size, acquireTimeout: acquireTimeout,
                gatheringPatience: gatheringPatience),
            logger: logger)
    }

    /// The patience of a test that counts round trips: its gatherings' participants all send
    /// statements, so none waits this long, yet a slow machine's scheduling cannot split them.
    public static let countingRoundTrips = Duration.seconds(10)

    /// A new pool as the owner role; the caller closes it.
    public static func ownerPool(size: Int = 2) throws -> PostgresPool {
        _ = ServerMetrics.shared
        return PostgresPool(configuration: .init(connectionString: try url(ownerVariable), poolSize: size), logger: logger)
    }

    /// Applies the repository's migrations once per test process (`make test` has usually done
    /// it already).
    public static func migrated() async throws { try await migration.value }

    private static let migration = Task {
        try await ownerPool().closing { pool in
            _ = try await Migrator(pool: pool, logger: logger).migrate(directory: repositoryRoot.appendingPathComponent("Migrations"))
        }
    }
}

extension PostgresPool {
    /// Runs `body` with this pool and closes the pool afterwards, whatever happens.
    public func closing<T>(_ body: (PostgresPool) async throws -> T) async throws -> T {
        do {
            let value = try await body(self)
            await close()
            return value
        } catch {
            await close()
            throw error
        }
    }
}

/// Runs `body` with a fresh pool as the application role and closes it afterwards.
public func withAppPool<T>(
    size: Int = 4, acquireTimeout: Duration = .seconds(10),
    gatheringPatience: Duration = PostgresConfiguration.defaultGatheringPatience, _ body: (PostgresPool) async throws -> T
) async throws -> T {
    try await TestDatabase.appPool(size: size, acquireTimeout: acquireTimeout, gatheringPatience: gatheringPatience).closing(body)
}
