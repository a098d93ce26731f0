public import Foundation
public import Logging
public import Postgres

/// What the domain needs from the server beyond a request: the database, password hashing, the
/// session lifetimes, and a clock. One per server, shared by every request.
public struct DomainServices: Sendable {
    /// Connected as the app role (`storykeep_app`).
    public var pool: PostgresPool
    public var hasher: PasswordHasher
    /// What a login's first transaction waits for (see ``AsyncGate``): at most a few logins use
    /// connections at once, however many arrive together.
    public var loginGate: AsyncGate
    public var sessions: SessionPolicy
    /// The time lockout back-off is judged by (tests move it instead of sleeping).
    public var now: @Sendable () -> Date
    /// Where resolvers log what a client must not see (a database error behind "Internal error").
    public var logger: Logger

    public init(
        pool: PostgresPool, hasher: PasswordHasher, sessions: SessionPolicy, logger: Logger,
        loginGate: AsyncGate = AsyncGate(permits: 2), now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.logger = logger
        self.pool = pool
        self.hasher = hasher
        self.loginGate = loginGate
        self.sessions = sessions
        self.now = now
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
