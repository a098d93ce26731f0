import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Postgres
import Storykeep
import StorykeepServer
import Synchronization
import Testing

/// The checkout's root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// A pool of `poolSize` connections on the test database as `variable` says (`make test` sets
/// both), or a loud failure.
func testPool(_ variable: String, poolSize: Int = 4) throws -> PostgresPool {
    guard let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty else {
        Issue.record("\(variable) is not set: run the tests with `make test`, which starts a database")
        throw ConfigError.missing(variable)
    }
    return PostgresPool(configuration: PostgresConfiguration(connectionString: url, poolSize: poolSize), logger: Logger(label: "test"))
}

/// The checkout's configuration, without the environment.
func testConfig() async throws -> StorykeepConfig {
    try await StorykeepConfig.load(environment: [:], directory: repositoryRoot)
}

/// Creates tenants with slugs no other test uses, as the owner role; `tweak` may set hosts.
func makeTenants(_ count: Int, _ tweak: (Int, inout TenantFile) -> Void = { _, _ in }) async throws -> [TenantFile] {
    let files = try (0..<count).map { index in
        let slug = "s-" + UUID().uuidString.prefix(8).lowercased()
        var file = try TenantFiles.decode(
            """
            slug: \(slug)
            displayName: Agency \(slug)
            timeZone: Europe/London
            termsVersion: "3"
            modules: [tags, sharing]
            moodIcons: [{ emoji: "🙂", label: Okay }]
            """,
            file: slug
        )
        tweak(index, &file)
        return file
    }
    let owner = try testPool("STORYKEEP_OWNER_DATABASE_URL")
    _ = try await TenantStore(pool: owner).apply(files)
    await owner.close()
    return files
}

/// Turns a tenant off or on, as the owner role.
func setEnabled(_ enabled: Bool, _ slug: String) async throws {
    let owner = try testPool("STORYKEEP_OWNER_DATABASE_URL")
    _ = try await TenantStore(pool: owner).setEnabled(enabled, slug: slug)
    await owner.close()
}

/// Log lines kept in memory, to see what the server logs.
final class CapturedLogs: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let lines = Mutex<[Line]>([])

    var all: [Line] { lines.withLock { $0 } }

    func append(_ line: Line) { lines.withLock { $0.append(line) } }

    var logger: Logger {
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

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            logs.append(Line(level: event.level, message: "\(event.message)", metadata: all.mapValues { "\($0)" }))
        }
    }
}

/// The server, as `storykeep serve` assembles it, on the test database, with `endpoints`.
func withTestServer(
    endpoints: [any TenantEndpoint] = [TenantInfoEndpoint()],
    readiness: ((PostgresPool) -> [any ReadinessCheck])? = nil,
    logs: CapturedLogs = CapturedLogs(),
    setup: TestingSetup = .router,
    _ test: @Sendable (any TestClientProtocol, TenantCache) async throws -> Void
) async throws {
    var config = try await testConfig()
    config.http.port = 0  // a live test server takes any free port
    let pool = try testPool("DATABASE_URL")
    let tenants = TenantCache(source: TenantStore(pool: pool), refreshInterval: .seconds(60), missInterval: .zero, logger: logs.logger)
    let parts = StorykeepApplication.Parts(
        tenants: tenants,
        readiness: readiness?(pool) ?? [DatabaseReadiness(pool: pool, migrations: repositoryRoot + "/" + config.database.migrationsDirectory)],
        endpoints: endpoints
    )
    let app = StorykeepApplication.make(config: config, parts: parts, logger: logs.logger)
    do {
        try await app.test(setup) { client in try await test(client, tenants) }
    } catch {
        await pool.close()
        throw error
    }
    await pool.close()
}

extension TestResponse {
    /// The body as JSON.
    var jsonObject: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8))) as? [String: Any]
    }

    /// The message of a Hummingbird JSON error body, `{"error":{"message":"..."}}`.
    var errorMessage: String? {
        (jsonObject?["error"] as? [String: Any])?["message"] as? String
    }
}
