public import Logging
public import Postgres
public import ServiceLifecycle
public import Storykeep
public import StorykeepCore

/// The server's one database listener: `LISTEN` on a connection of its own
/// (``PostgresListener``) to the two channels the database notifies when a transaction commits —
/// `storykeep_live` (Migrations/0020, 0021: ids-only events for this server's live subscribers,
/// ``LiveEvents``) and `storykeep_tenants` (Migrations/0027: `tenant apply`, `disable`, `enable`
/// from any machine; the ``TenantCache`` re-reads the tenants at once). Every server process runs
/// one, so each hears every change, whichever process or command made it.
///
/// When it starts listening, and again after it had to replace a lost connection, what changed
/// meanwhile is unknown: the tenants are re-read, and after a reconnection the subscribers are
/// told to refetch. The cache's periodic refresh stays, for a listener that cannot connect.
public struct DatabaseListenerService: Service {
    /// The channel the tenants table's trigger notifies.
    public static let tenantsChannel = "storykeep_tenants"

    let listener: PostgresListener
    let live: LiveEvents
    let tenants: TenantCache
    let logger: Logger

    /// Listens as `configuration` connects (the app role, `database.listenUrl`), for `live` and `tenants`.
    public init(configuration: PostgresConfiguration, live: LiveEvents, tenants: TenantCache, logger: Logger) {
        listener = PostgresListener(
            configuration: configuration, channels: [LiveEvent.channel, Self.tenantsChannel], logger: logger)
        self.live = live
        self.tenants = tenants
        self.logger = logger
    }

    public func run() async throws {
        let (live, tenants, logger) = (self.live, self.tenants, self.logger)
        // On the listener's thread: each handler hands its work on and returns.
        let refreshTenants: @Sendable () -> Void = {
            Task {
                do {
                    try await tenants.refresh()
                } catch {
                    logger.warning("Could not refresh tenants after a change", metadata: ["error": "\(error)"])
                }
            }
        }
        await cancelWhenGracefulShutdown {
            await listener.run { event in
                switch event {
                case .notification(let notification) where notification.channel == Self.tenantsChannel:
                    refreshTenants()
                case .notification:
                    live.handle(event)
                case .listening:
                    refreshTenants()
                    live.handle(event)
                }
            }
        }
    }
}
