import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Postgres
import Storykeep
import StorykeepCore
import StorykeepServer
import Synchronization

/// Log lines kept in memory, to see what the server logs.
public final class CapturedLogs: Sendable {
    public struct Line: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]
    }

    private let lines = Mutex<[Line]>([])

    public init() {}

    public var all: [Line] { lines.withLock { $0 } }

    func append(_ line: Line) { lines.withLock { $0.append(line) } }

    /// A logger (level info) that writes here.
    public var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(logs: self) }
        logger.logLevel = .info
        return logger
    }

    struct Handler: LogHandler {
        let logs: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        /// As `storykeep serve`'s handlers do, with the metadata of the request it is logged in.
        func log(event: LogEvent) {
            let all = RequestLogMetadata.current.merging(metadata) { $1 }.merging(event.metadata ?? [:]) { $1 }
            logs.append(Line(level: event.level, message: "\(event.message)", metadata: all.mapValues { "\($0)" }))
        }
    }
}

/// The server, as `storykeep serve` assembles it, on the test database, with `endpoints` (and
/// GraphQL over WebSocket with `liveSocket`), in process or, with `setup: .live`, over a socket
/// on a free port; `configure` changes the configuration (`http.trustedProxies`).
public func withTestServer(
    endpoints: [any TenantEndpoint] = [TenantInfoEndpoint()],
    readiness: ((PostgresPool) -> [any ReadinessCheck])? = nil,
    logs: CapturedLogs = CapturedLogs(),
    liveSocket: LiveSocketEndpoint? = nil,
    setup: TestingSetup = .router,
    configure: (inout StorykeepConfig) -> Void = { _ in },
    _ test: @Sendable (any TestClientProtocol, TenantCache) async throws -> Void
) async throws {
    var config = try await testConfig()
    config.http.port = 0  // a live test server takes any free port
    configure(&config)
    try await TestDatabase.appPool().closing { pool in
        let tenants = TenantCache(source: TenantStore(pool: pool), refreshInterval: .seconds(60), missInterval: .zero, logger: logs.logger)
        let migrations = repositoryRoot.appendingPathComponent(config.database.migrationsDirectory).path
        let parts = StorykeepApplication.Parts(
            tenants: tenants,
            readiness: readiness?(pool) ?? [DatabaseReadiness(pool: pool, migrations: migrations)],
            endpoints: endpoints,
            liveSocket: liveSocket
        )
        let app = StorykeepApplication.make(config: config, parts: parts, logger: logs.logger)
        try await app.test(setup) { client in try await test(client, tenants) }
    }
}
