public import Logging
import Postgres
public import ServiceLifecycle
public import Storykeep
import StorykeepCore

/// The server's database listener for live updates: `LISTEN storykeep_live` on a connection of
/// its own (``PostgresListener``), handing each event to the server's subscribers
/// (``LiveEvents``), and telling them to refetch when the connection had to be replaced. Every
/// server process runs one, so each delivers every event, whichever process made it.
public struct LiveEventsService: Service {
    let listener: PostgresListener
    let live: LiveEvents

    /// Listens as `graphQL`'s pool connects (the app role) for `graphQL`'s subscribers.
    public init(graphQL: TenantGraphQL, logger: Logger) {
        listener = PostgresListener(configuration: graphQL.services.pool.configuration, channels: [LiveEvent.channel], logger: logger)
        live = graphQL.services.live
    }

    public func run() async throws {
        let live = self.live
        await cancelWhenGracefulShutdown {
            await listener.run { live.handle($0) }
        }
    }
}
