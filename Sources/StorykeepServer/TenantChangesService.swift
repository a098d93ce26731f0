public import Logging
import Postgres
public import ServiceLifecycle

/// Keeps the server's ``TenantCache`` current as tenants change: `LISTEN storykeep_tenants` on a
/// connection of its own (``PostgresListener``), to which the tenants table's trigger
/// (Migrations/0027_tenancy_changes.sql) sends a notification when a transaction that changed it
/// commits — `storykeep tenant apply`, `disable`, `enable`, from any machine — and a re-read of the
/// tenants at once on each. Also when the listener starts or had to reconnect, since what changed
/// meanwhile is unknown. The cache's periodic refresh stays, for a listener that cannot connect.
public struct TenantChangesService: Service {
    /// The channel the tenants table's trigger notifies.
    public static let channel = "storykeep_tenants"

    let listener: PostgresListener
    let cache: TenantCache
    let logger: Logger

    /// Listens as `configuration` connects (the app role) for `cache`.
    public init(cache: TenantCache, configuration: PostgresConfiguration, logger: Logger) {
        listener = PostgresListener(configuration: configuration, channels: [Self.channel], logger: logger)
        self.cache = cache
        self.logger = logger
    }

    public func run() async throws {
        let (cache, logger) = (self.cache, self.logger)
        await cancelWhenGracefulShutdown {
            await listener.run { _ in
                // On the listener's thread: hand the read on.
                Task {
                    do {
                        try await cache.refresh()
                    } catch {
                        logger.warning("Could not refresh tenants after a change", metadata: ["error": "\(error)"])
                    }
                }
            }
        }
    }
}
