import ArgumentParser
import Foundation
import GraphQLHTTP
import Hummingbird
import Logging
import NIOCore
import Postgres
import Storykeep
import StorykeepServer

/// `storykeep serve`: the HTTP API, until SIGTERM or SIGINT (Ctrl-C) drains it.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the API (http.host:http.port, default http://127.0.0.1:8080).",
        discussion: """
            Connects as the app role (DATABASE_URL). On SIGTERM or SIGINT it stops accepting \
            connections, finishes the requests in flight, closes the database pool and exits.
            """
    )

    func run() async throws {
        let config = try await CommandSupport.config()
        let logger = CommandSupport.bootstrapLogging(config, toStandardOutput: true)
        if config.metrics.enabled { _ = ServerMetrics.shared }  // bootstraps swift-metrics before the pool and the hasher count anything
        let pool = try CommandSupport.appPool(config, logger: logger)
        let tenants = TenantCache(source: TenantStore(pool: pool), refreshInterval: config.tenants.refreshInterval, logger: logger)
        let readPool = try config.database.readPool().map { PostgresPool(configuration: $0, logger: logger) }
        let graphQL = try TenantGraphQL(config: config, pool: pool, readPool: readPool, logger: logger)
        let parts = StorykeepApplication.Parts(
            tenants: tenants,
            readiness: [DatabaseReadiness(pool: pool, migrations: config.database.migrationsDirectory)],
            endpoints: StorykeepApplication.tenantEndpoints(graphQL: graphQL, config: config),
            services: StorykeepApplication.backgroundServices(
                config.jobs.enabled ? StorykeepModules.backgroundJobs(config) : [], graphQL: graphQL, logger: logger)
                + [DatabaseListenerService(
                    configuration: try config.database.listener(), live: graphQL.services.live, tenants: tenants, logger: logger)],
            liveSocket: LiveSocketEndpoint(graphQL: graphQL, limits: LiveLimits(config.live))
        )
        let app = StorykeepApplication.make(config: config, parts: parts, logger: logger) { port in
            await announce(host: config.http.host, port: port, tenants: tenants, json: config.log.format == "json", logger: logger)
        }
        do {
            try await CommandSupport.using(pool) { _ in try await app.runService() }
            await readPool?.close()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw CommandError(
                "\(config.http.host) port \(config.http.port) is already in use: stop what listens there, or set http.port "
                    + "(STORYKEEP_HTTP_PORT) or http.host (STORYKEEP_HTTP_HOST)")
        }
        logger.info("Storykeep stopped")
    }

    /// Says where the server listens at once, then each tenant's GraphQL URL once the tenants are
    /// read (a database of thousands of agencies takes a while): as text for a person, unbuffered so
    /// that it shows at once in a pipe too, or with `log.format: json` as log lines (`tenants`
    /// their slugs), so that standard output stays one JSON object per line for log shippers.
    private func announce(host: String, port: Int, tenants: TenantCache, json: Bool, logger: Logger) async {
        let base = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        if json {
            logger.info("Storykeep is serving on \(base)", metadata: ["health": "\(base)/health/ready"])
        } else {
            FileHandle.standardOutput.write(Data("Storykeep is serving on \(base)  (health: \(base)/health/ready; Ctrl-C stops it)\n".utf8))
        }
        let slugs: [String]
        do {
            slugs = try await tenants.all().map(\.slug)
        } catch {
            logger.warning("Tenants cannot be read yet", metadata: ["error": "\(error)"])
            return
        }
        if json {
            logger.info("Tenants served", metadata: ["tenants": "\(slugs.joined(separator: " "))"])
        } else {
            FileHandle.standardOutput.write(Data(slugs.map { "  tenant \($0): \(base)/t/\($0)/graphql\n" }.joined().utf8))
        }
    }
}
