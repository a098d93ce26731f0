public import Foundation
public import Logging
public import Postgres

/// What the domain needs from the server beyond a request: the database, password hashing, the
/// session lifetimes, and a clock. One per server, shared by every request.
public struct DomainServices: Sendable {
    /// Connected as the app role (`storykeep_app`).
    public var pool: PostgresPool
    /// Connected as the app role to a standby (`database.readUrl`), for reads that may be a
    /// moment stale (``ResolverContext/staleReadTransaction(_:)``); nil sends them to `pool`.
    public var readPool: PostgresPool?
    public var hasher: PasswordHasher
    /// What a login's first transaction waits for (see ``AsyncGate``): at most a few logins use
    /// connections at once, however many arrive together.
    public var loginGate: AsyncGate
    public var sessions: SessionPolicy
    /// The time lockout back-off is judged by (tests move it instead of sleeping).
    public var now: @Sendable () -> Date
    /// Where resolvers log what a client must not see (a database error behind "Internal error").
    public var logger: Logger
    /// The longest a statement of a request may run (`database.statementTimeoutSeconds`); nil
    /// for no limit.
    public var statementTimeout: Duration?
    /// The live subscribers of this server process, fed by its database listener.
    public var live = LiveEvents()

    public init(
        pool: PostgresPool, hasher: PasswordHasher, sessions: SessionPolicy, logger: Logger,
        loginGate: AsyncGate = AsyncGate(permits: 2), statementTimeout: Duration? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.logger = logger
        self.pool = pool
        self.hasher = hasher
        self.loginGate = loginGate
        self.sessions = sessions
        self.statementTimeout = statementTimeout
        self.now = now
    }

    /// The settings a request's transaction begins with (`PostgresPool.transaction(settings:)`):
    /// `context`'s, and PostgreSQL's `statement_timeout` in milliseconds. All are set
    /// transaction-locally by the one `set_config` statement that follows BEGIN, so the limit
    /// costs no round trip and never outlives the request on its pooled connection.
    public func requestSettings(_ context: AccountContext) -> [String: String] {
        var settings = context.settings
        if let statementTimeout {
            let (seconds, attoseconds) = statementTimeout.components
            settings["statement_timeout"] = String(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        }
        return settings
    }
}

/// How long sessions live (`sessions.*` in Config/storykeep.json).
public struct SessionPolicy: Sendable, Equatable {
    /// A session's absolute lifetime from login.
    public var maxLifetimeSeconds: Int
    /// A session unused this long ends; each use extends it by this much again, up to the
    /// maximum lifetime.
    public var idleTimeoutSeconds: Int

    public init(maxLifetimeSeconds: Int, idleTimeoutSeconds: Int) {
        self.maxLifetimeSeconds = maxLifetimeSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
    }

    /// The policy of a server configuration.
    public init(_ config: StorykeepConfig.Sessions) {
        self.init(
            maxLifetimeSeconds: Int(config.expiry.components.seconds),
            idleTimeoutSeconds: Int(config.idleTimeout.components.seconds))
    }
}
