public import Configuration
public import Postgres

/// The server's configuration: everything an operator may tune, read once at start.
///
/// The defaults live in `Config/storykeep.json`; environment variables override them (see
/// ``StorykeepConfig/load(environment:directory:)``). Each section reads its keys from a scoped
/// `ConfigReader`, in swift-configuration's style, so a key's name appears once, next to the
/// property it fills. Every key is required: a key missing from both the file and the environment
/// is a configuration error at start, not a silent built-in default.
public struct StorykeepConfig: Sendable {
    public var http: HTTP
    public var database: Database
    public var sessions: Sessions
    public var argon2: Argon2
    public var uploads: Uploads
    public var graphql: GraphQL
    public var tenants: Tenants
    public var archive: Archive
    public var safety: Safety
    public var webhooks: Webhooks
    public var live: Live
    public var log: Log
    public var metrics: Metrics
    public var tracing: Tracing
    public var jobs: Jobs
    public var explorer: Explorer

    /// Reads every section from `reader`.
    public init(reader: ConfigReader) throws {
        http = try HTTP(reader: reader.scoped(to: "http"))
        database = try Database(reader: reader.scoped(to: "database"))
        sessions = try Sessions(reader: reader.scoped(to: "sessions"))
        argon2 = try Argon2(reader: reader.scoped(to: "argon2"))
        uploads = try Uploads(reader: reader.scoped(to: "uploads"))
        graphql = try GraphQL(reader: reader.scoped(to: "graphql"))
        tenants = try Tenants(reader: reader.scoped(to: "tenants"))
        archive = try Archive(reader: reader.scoped(to: "archive"))
        safety = try Safety(reader: reader.scoped(to: "safety"))
        webhooks = try Webhooks(reader: reader.scoped(to: "webhooks"))
        live = try Live(reader: reader.scoped(to: "live"))
        log = try Log(reader: reader.scoped(to: "log"))
        metrics = try Metrics(reader: reader.scoped(to: "metrics"))
        tracing = try Tracing(reader: reader.scoped(to: "tracing"))
        jobs = try Jobs(reader: reader.scoped(to: "jobs"))
        explorer = try Explorer(reader: reader.scoped(to: "explorer"))
    }

    /// Where the server listens and what it accepts.
    public struct HTTP: Sendable {
        /// `http.host`: the address to bind (`127.0.0.1` keeps it off the network).
        public var host: String
        /// `http.port`.
        public var port: Int
        /// `http.bodyLimitBytes`: the largest request body outside uploads (GraphQL documents and
        /// variables); a larger one gets 413.
        public var bodyLimitBytes: Int
        /// `http.trustedProxies`: the proxies (CIDRs, `10.0.0.0/8`, `::1/128`) whose `Forwarded` or
        /// `X-Forwarded-For` says who the client is; from any other peer those headers are ignored.
        public var trustedProxies: [CIDR]

        public init(reader: ConfigReader) throws {
            host = try reader.requiredString(forKey: "host")
            port = try reader.requiredInt(forKey: "port").checked("http.port", min: 0, max: 65535)
            bodyLimitBytes = try reader.requiredInt(forKey: "bodyLimitBytes").checked("http.bodyLimitBytes", min: 1)
            trustedProxies = try reader.requiredStringArray(forKey: "trustedProxies").map { text in
                guard let cidr = CIDR(text) else {
                    throw ConfigError.invalid("http.trustedProxies", expected: "CIDRs such as 10.0.0.0/8 or ::1/128", found: text)
                }
                return cidr
            }
        }
    }

    /// How the server reaches PostgreSQL.
    public struct Database: Sendable {
        /// `database.url` (environment: `DATABASE_URL`): libpq connection string of the app role,
        /// `storykeep_app`. Absent until the environment or `.data/storykeep.env` gives one.
        public var url: String?
        /// `database.ownerUrl` (environment: `STORYKEEP_OWNER_DATABASE_URL`): the owner role, for
        /// migrations and tenant provisioning. Never used by the server.
        public var ownerURL: String?
        /// `database.poolSize`: connections the server may hold open.
        public var poolSize: Int
        /// `database.acquireTimeoutSeconds`: how long a request waits for a free connection.
        public var acquireTimeout: Duration
        /// `database.migrationsDirectory`: the `NNNN_name.sql` files `storykeep migrate` applies and
        /// `/health/ready` checks.
        public var migrationsDirectory: String
        /// `database.statementTimeoutSeconds`: the longest a statement of a request may run (set
        /// transaction-locally with the request's context, ``DomainServices/requestSettings(_:)``)
        /// before PostgreSQL stops it and the request gets TIMEOUT. Commands (migrate, seed,
        /// purge) and the server's background purge are not held to it.
        public var statementTimeout: Duration
        /// `database.preparedStatements` (default true): whether each connection keeps the
        /// statements it runs prepared (a round trip and the planning saved on each later run).
        /// False for a pooler in transaction mode that does not carry prepared statements between
        /// its server connections (PgBouncer before 1.21): every statement is then sent whole.
        public var preparedStatements: Bool
        /// `database.listenUrl` (environment: `STORYKEEP_DATABASE_LISTEN_URL`; default `database.url`):
        /// where the server's one `LISTEN` connection goes (tenant changes, live updates). Behind a
        /// pooler in transaction mode it must reach PostgreSQL itself: a pooled connection does
        /// not keep a session's `LISTEN`.
        public var listenURL: String?
        /// `database.readUrl` (environment: `STORYKEEP_DATABASE_READ_URL`; default none): a standby
        /// (or a pooler in front of standbys) for reads that may be a moment stale: the agency's
        /// figures and the CMS export's documents. Connected as the app role, with the same
        /// row-level security context as on the primary. Without it every read goes to `database.url`.
        public var readURL: String?

        public init(reader: ConfigReader) throws {
            url = reader.string(forKey: "url", isSecret: true)
            ownerURL = reader.string(forKey: "ownerUrl", isSecret: true)
            listenURL = reader.string(forKey: "listenUrl", isSecret: true)
            readURL = reader.string(forKey: "readUrl", isSecret: true)
            preparedStatements = try reader.requiredBool(forKey: "preparedStatements")
            poolSize = try reader.requiredInt(forKey: "poolSize").checked("database.poolSize", min: 1, max: 1000)
            acquireTimeout = .seconds(
                try reader.requiredDouble(forKey: "acquireTimeoutSeconds").checked("database.acquireTimeoutSeconds", min: 0.001)
            )
            migrationsDirectory = try reader.requiredString(forKey: "migrationsDirectory")
            // At most a day: PostgreSQL's limit is 2^31 - 1 milliseconds.
            statementTimeout = .seconds(
                try reader.requiredDouble(forKey: "statementTimeoutSeconds")
                    .checked("database.statementTimeoutSeconds", min: 0.001, max: 86_400))
        }

        /// The app role's connection string, or an error that says how to provide one.
        public func requireURL() throws -> String {
            guard let url, !url.isEmpty else { throw ConfigError.missing("DATABASE_URL") }
            return url
        }

        /// How the app role's pool connects (`database.url`, `poolSize`, `acquireTimeoutSeconds`,
        /// `preparedStatements`).
        public func appPool() throws -> PostgresConfiguration {
            PostgresConfiguration(
                connectionString: try requireURL(), poolSize: poolSize, acquireTimeout: acquireTimeout,
                statementCacheSize: preparedStatements ? PostgresConfiguration.defaultStatementCacheSize : 0)
        }

        /// How the server's listener connects: `database.listenUrl`, else as the pool does.
        public func listener() throws -> PostgresConfiguration {
            var configuration = try appPool()
            if let listenURL, !listenURL.isEmpty { configuration.connectionString = listenURL }
            return configuration
        }

        /// How the pool of stale reads connects (`database.readUrl`, sized as the app role's
        /// pool), or nil when no `readUrl` is set.
        public func readPool() throws -> PostgresConfiguration? {
            guard let readURL, !readURL.isEmpty else { return nil }
            var configuration = try appPool()
            configuration.connectionString = readURL
            return configuration
        }

        /// The owner role's connection string, or an error that says how to provide one.
        public func requireOwnerURL() throws -> String {
            guard let ownerURL, !ownerURL.isEmpty else { throw ConfigError.missing("STORYKEEP_OWNER_DATABASE_URL") }
            return ownerURL
        }
    }

    /// Login sessions.
    public struct Sessions: Sendable {
        /// `sessions.expirySeconds`: a session's absolute lifetime.
        public var expiry: Duration
        /// `sessions.idleTimeoutSeconds`: a session unused this long expires early.
        public var idleTimeout: Duration

        public init(reader: ConfigReader) throws {
            expiry = .seconds(try reader.requiredInt(forKey: "expirySeconds").checked("sessions.expirySeconds", min: 60))
            idleTimeout = .seconds(
                try reader.requiredInt(forKey: "idleTimeoutSeconds").checked("sessions.idleTimeoutSeconds", min: 60)
            )
        }
    }

    /// Argon2id password hashing cost. Never below OWASP's minimum (m=19 MiB, t=2, p=1).
    public struct Argon2: Sendable {
        /// `argon2.memoryKibibytes` (KiB).
        public var memoryKiB: Int
        /// `argon2.iterations`.
        public var iterations: Int
        /// `argon2.parallelism`.
        public var parallelism: Int
        /// `argon2.concurrentHashes`: hashes computed at once; more logins wait, so a login storm
        /// cannot take every core.
        public var concurrentHashes: Int
        /// `argon2.threadNiceness`: the nice value (0 to 19) of the threads that hash, so that the
        /// threads of other requests get a core first; see ``BoundedWorkerPool/init(threadCount:name:niceness:)``.
        public var threadNiceness: Int

        public init(reader: ConfigReader) throws {
            memoryKiB = try reader.requiredInt(forKey: "memoryKibibytes").checked("argon2.memoryKibibytes", min: 19456)
            iterations = try reader.requiredInt(forKey: "iterations").checked("argon2.iterations", min: 2)
            parallelism = try reader.requiredInt(forKey: "parallelism").checked("argon2.parallelism", min: 1)
            concurrentHashes = try reader.requiredInt(forKey: "concurrentHashes").checked("argon2.concurrentHashes", min: 1)
            threadNiceness = try reader.requiredInt(forKey: "threadNiceness").checked("argon2.threadNiceness", min: 0, max: 19)
        }
    }

    /// Media uploads (audio, video, images, drawings).
    public struct Uploads: Sendable {
        /// `uploads.maxBytes`: the server-wide ceiling; a tenant file may set a lower one.
        public var maxBytes: Int

        public init(reader: ConfigReader) throws {
            maxBytes = try reader.requiredInt(forKey: "maxBytes").checked("uploads.maxBytes", min: 1)
        }
    }

    /// The GraphQL endpoint.
    public struct GraphQL: Sendable {
        /// `graphql.documentCacheSize`: parsed and validated documents kept per tenant schema.
        public var documentCacheSize: Int
        /// `graphql.schemaDirectory`: the modules' SDL files, `<module>.graphql`, tenant schemas
        /// are composed from.
        public var schemaDirectory: String

        public init(reader: ConfigReader) throws {
            documentCacheSize = try reader.requiredInt(forKey: "documentCacheSize").checked("graphql.documentCacheSize", min: 0)
            schemaDirectory = try reader.requiredString(forKey: "schemaDirectory")
        }
    }

    /// Where tenant files are, and how fresh the server's view of the tenants table is.
    public struct Tenants: Sendable {
        /// `tenants.directory`: the folder `storykeep tenant apply` reads by default.
        public var directory: String
        /// `tenants.refreshSeconds`: how often the server re-reads the tenants table (it also
        /// re-reads it, at most once a second, when a request names a tenant it does not know).
        public var refreshInterval: Duration

        public init(reader: ConfigReader) throws {
            directory = try reader.requiredString(forKey: "directory")
            refreshInterval = .seconds(try reader.requiredInt(forKey: "refreshSeconds").checked("tenants.refreshSeconds", min: 1))
        }
    }

    /// The archive of deleted entries.
    public struct Archive: Sendable {
        /// `archive.purgeIntervalSeconds`: how often the server removes the entries archived
        /// longer than their tenant's retention period (`storykeep purge` does it on demand).
        public var purgeInterval: Duration

        public init(reader: ConfigReader) throws {
            purgeInterval = .seconds(
                try reader.requiredInt(forKey: "purgeIntervalSeconds").checked("archive.purgeIntervalSeconds", min: 60))
        }
    }

    /// Safety alerts.
    public struct Safety: Sendable {
        /// `safety.escalationIntervalSeconds` (1–3600): how often the server looks for safety
        /// alerts to escalate to the agency admins (those nobody acknowledged within their tenant's
        /// `safety.escalateAfterMinutes`): the longest an alert waits past that time.
        public var escalationInterval: Duration

        public init(reader: ConfigReader) throws {
            escalationInterval = .seconds(
                try reader.requiredInt(forKey: "escalationIntervalSeconds").checked("safety.escalationIntervalSeconds", min: 1, max: 3600))
        }
    }

    /// Webhooks for agencies' systems (the tenant file's `webhooks`).
    public struct Webhooks: Sendable {
        /// `webhooks.deliveryIntervalSeconds` (1–3600): how often the server sends the webhook
        /// deliveries due: about the longest an event waits before its first attempt.
        public var deliveryInterval: Duration
        /// `webhooks.timeoutSeconds` (1–60): how long a receiver has to answer an attempt.
        public var timeout: Duration

        public init(reader: ConfigReader) throws {
            deliveryInterval = .seconds(
                try reader.requiredInt(forKey: "deliveryIntervalSeconds").checked("webhooks.deliveryIntervalSeconds", min: 1, max: 3600))
            timeout = .seconds(try reader.requiredInt(forKey: "timeoutSeconds").checked("webhooks.timeoutSeconds", min: 1, max: 60))
        }
    }

    /// Live updates (GraphQL over WebSocket and Server-Sent Events): what one server lets its
    /// connections hold (the server's `LiveLimits`).
    public struct Live: Sendable {
        /// `live.connectionsPerPerson` (1–1000): one person's connections at once.
        public var connectionsPerPerson: Int
        /// `live.connectionsPerTenant` (1–1,000,000): one agency's connections at once.
        public var connectionsPerTenant: Int
        /// `live.subscriptionsPerConnection` (1–1000): operations running at once on a connection.
        public var subscriptionsPerConnection: Int
        /// `live.maxMessageBytes` (1 KiB–16 MiB): the largest message a client may send.
        public var maxMessageBytes: Int
        /// `live.initTimeoutSeconds` (1–300): how long a connection may wait before `connection_init`.
        public var initTimeout: Duration
        /// `live.idleTimeoutSeconds` (1–86400): how long a connection with no operation may stay silent.
        public var idleTimeout: Duration
        /// `live.queueBound` (1–100,000): the events a subscriber may fall behind before its
        /// stream ends, rather than being buffered for without bound.
        public var queueBound: Int

        public init(reader: ConfigReader) throws {
            func int(_ key: String, _ min: Int, _ max: Int) throws -> Int {
                try reader.requiredInt(forKey: ConfigKey(key)).checked("live.\(key)", min: min, max: max)
            }
            connectionsPerPerson = try int("connectionsPerPerson", 1, 1000)
            connectionsPerTenant = try int("connectionsPerTenant", 1, 1_000_000)
            subscriptionsPerConnection = try int("subscriptionsPerConnection", 1, 1000)
            maxMessageBytes = try int("maxMessageBytes", 1024, 16 * 1_048_576)
            initTimeout = .seconds(try int("initTimeoutSeconds", 1, 300))
            idleTimeout = .seconds(try int("idleTimeoutSeconds", 1, 86400))
            queueBound = try int("queueBound", 1, 100_000)
        }
    }

    /// Logging.
    public struct Log: Sendable {
        /// `log.level`: one of trace, debug, info, notice, warning, error, critical.
        public var level: String
        /// `log.format`: `text` (one readable line per event) or `json` (one JSON object per line).
        public var format: String

        public init(reader: ConfigReader) throws {
            format = try reader.requiredString(forKey: "format")
            guard ["text", "json"].contains(format) else { throw ConfigError.invalid("log.format", expected: "text or json", found: format) }
            level = try reader.requiredString(forKey: "level")
            let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
            guard levels.contains(level) else {
                throw ConfigError.invalid("log.level", expected: "one of \(levels.joined(separator: ", "))", found: level)
            }
        }
    }

    /// `GET /metrics`.
    public struct Metrics: Sendable {
        /// `metrics.enabled` (environment: `STORYKEEP_METRICS_ENABLED`; default true): off, the
        /// server measures nothing (swift-metrics is not bootstrapped) and `/metrics` is 404.
        public var enabled: Bool
        /// `metrics.bearerToken` (environment: `STORYKEEP_METRICS_BEARER_TOKEN`): a scraper that
        /// presents it (`Authorization: Bearer ...`) reads the metrics from anywhere; without it
        /// only a scraper on the same machine does. Absent by default.
        public var bearerToken: String?

        public init(reader: ConfigReader) throws {
            enabled = try reader.requiredBool(forKey: "enabled")
            bearerToken = reader.string(forKey: "bearerToken", isSecret: true).flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// W3C Trace Context and spans (README "Tracing").
    public struct Tracing: Sendable {
        /// `tracing.enabled` (environment: `STORYKEEP_TRACING_ENABLED`; default true): off, requests
        /// get no trace (no `traceresponse`, no trace id in logs or errors); spans of a bootstrapped
        /// tracer still see GraphQL's phases and the SQL statements.
        public var enabled: Bool

        public init(reader: ConfigReader) throws {
            enabled = try reader.requiredBool(forKey: "enabled")
        }
    }
}

extension StorykeepConfig {
    /// The modules' background work (the archive's purge, safety escalations, webhook deliveries,
    /// data exports).
    public struct Jobs: Sendable {
        /// `jobs.enabled` (default true): whether this server process runs them. Every process
        /// may (each job claims its work in the database); a deployment that keeps some processes
        /// for requests alone turns it off there.
        public var enabled: Bool

        public init(reader: ConfigReader) throws {
            enabled = try reader.requiredBool(forKey: "enabled")
        }
    }
}

/// A configuration value that is missing or out of range.
public enum ConfigError: Error, CustomStringConvertible, Equatable {
    /// An environment variable the command needs (a database URL) is not set.
    case missing(String)
    /// The configuration file is not where it was looked for.
    case noFile(String)
    case invalid(String, expected: String, found: String)

    public var description: String {
        switch self {
        case .missing(let name):
            "\(name) is not set: set it in the environment, or run `make run` from the checkout, which writes it to .data/storykeep.env"
        case .noFile(let path):
            "no configuration file at \(path): run storykeep from the checkout, or set STORYKEEP_CONFIG to the file"
        case .invalid(let key, let expected, let found):
            "configuration \(key): expected \(expected), found \(found)"
        }
    }
}

extension Comparable {
    /// Returns `self` if it lies within `min...max`, else throws a ``ConfigError`` naming `key`.
    fileprivate func checked(_ key: String, min: Self, max: Self? = nil) throws -> Self {
        if self < min || max.map({ self > $0 }) == true {
            let expected = max.map { "a value from \(min) to \($0)" } ?? "a value of at least \(min)"
            throw ConfigError.invalid(key, expected: expected, found: "\(self)")
        }
        return self
    }
}
