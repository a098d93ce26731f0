import Foundation
import Logging
import Postgres
import Storykeep
import StorykeepServer

/// What the commands share: the configuration, logging, and pools for either role.
enum CommandSupport {
    /// The configuration, read the way ``StorykeepConfig/load(environment:directory:)`` says.
    static func config() async throws -> StorykeepConfig {
        try await StorykeepConfig.load()
    }

    /// Sends logs to standard error at the configured level (standard output is the commands'
    /// answer), each line with the request id and tenant of the request it is logged in
    /// (``RequestLogMetadata``). `storykeep serve` logs to standard output instead, see ``ServeCommand``.
    static func bootstrapLogging(_ config: StorykeepConfig, toStandardOutput: Bool = false) -> Logger {
        let level = Logger.Level(rawValue: config.log.level) ?? .info
        LoggingSystem.bootstrap(
            { label, provider -> any LogHandler in
                if config.log.format == "json" {
                    var handler =
                        toStandardOutput
                        ? JSONLogHandler(label: label, metadataProvider: provider)
                        : JSONLogHandler(label: label, metadataProvider: provider) { FileHandle.standardError.write(Data($0.utf8)) }
                    handler.logLevel = level
                    return handler
                }
                var handler =
                    toStandardOutput
                    ? StreamLogHandler.standardOutput(label: label, metadataProvider: provider)
                    : StreamLogHandler.standardError(label: label, metadataProvider: provider)
                handler.logLevel = level
                return handler
            }, metadataProvider: RequestLogMetadata.provider)
        return Logger(label: "storykeep")
    }

    /// A pool connected as the app role, `storykeep_app` (`DATABASE_URL`).
    static func appPool(_ config: StorykeepConfig, logger: Logger) throws -> PostgresPool {
        PostgresPool(configuration: try config.database.appPool(), logger: logger)
    }

    /// A small pool connected as the owner role, `storykeep_owner` (`STORYKEEP_OWNER_DATABASE_URL`),
    /// for migrations and tenant provisioning.
    static func ownerPool(_ config: StorykeepConfig, logger: Logger) throws -> PostgresPool {
        PostgresPool(
            configuration: PostgresConfiguration(
                connectionString: try config.database.requireOwnerURL(),
                poolSize: 2,
                acquireTimeout: config.database.acquireTimeout
            ),
            logger: logger
        )
    }

    /// Runs `body` with `pool`, then closes the pool whether `body` threw or not.
    static func using<T>(_ pool: PostgresPool, _ body: (PostgresPool) async throws -> T) async throws -> T {
        do {
            let result = try await body(pool)
            await pool.close()
            return result
        } catch {
            await pool.close()
            throw error
        }
    }
}
