/// How a `PostgresPool` connects and how large it grows.
public struct PostgresConfiguration: Sendable {
    /// Anything libpq accepts: a URI (`postgresql://user@host/db?sslmode=require`) or `key=value`
    /// pairs, including multi-host lists with `target_session_attrs`; libpq parses it, so its
    /// documentation is the reference.
    public var connectionString: String
    /// The most connections the pool opens. Connections are opened on demand, not up front.
    public var poolSize: Int
    /// How long a request waits for a free connection before failing with `.poolTimeout`.
    public var acquireTimeout: Duration
    /// The most prepared statements kept per connection; beyond it statements run unprepared.
    /// 0 prepares none (for a pooler in transaction mode).
    public var statementCacheSize: Int
    /// 256.
    public static let defaultStatementCacheSize = 256
    /// How long a ``StatementGathering``'s statements wait for a participant that neither sends
    /// one nor finishes (5 ms). Tests that count round trips set it long, so that a slow machine
    /// cannot split a gathering they expect whole.
    public var gatheringPatience: Duration

    public static let defaultGatheringPatience = Duration.milliseconds(5)

    public init(
        connectionString: String,
        poolSize: Int = 8,
        acquireTimeout: Duration = .seconds(10),
        statementCacheSize: Int = defaultStatementCacheSize,
        gatheringPatience: Duration = defaultGatheringPatience
    ) {
        precondition(poolSize > 0, "poolSize must be positive")
        self.connectionString = connectionString
        self.poolSize = poolSize
        self.acquireTimeout = acquireTimeout
        self.statementCacheSize = statementCacheSize
        self.gatheringPatience = gatheringPatience
    }
}
