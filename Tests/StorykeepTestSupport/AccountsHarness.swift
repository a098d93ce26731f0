import Foundation
import GraphQL
import GraphQLHTTP
import HummingbirdTesting
import Logging
import Postgres
import Storykeep
import StorykeepCore
import StorykeepServer
import Synchronization
import Testing

/// The time the server judges lockout back-off and sessions by, moved by the tests instead of
/// sleeping.
public final class TestClock: Sendable {
    private let instant = Mutex(Date())
    public init() {}
    public var now: Date { instant.withLock { $0 } }
    public func advance(seconds: Double) { instant.withLock { $0 += seconds } }
    /// Sets the time to `moment` (an ISO 8601 instant, `2026-06-10T22:30:00Z`), as a test that
    /// needs a day or an hour of its own.
    public func set(_ moment: String) {
        let date = ISO8601DateFormatter().date(from: moment)
        precondition(date != nil, "not an ISO 8601 instant: \(moment)")
        instant.withLock { $0 = date! }
    }
}

/// The whole application, as `storykeep serve` mounts it (the tenant GraphQL endpoint and the
/// modules' endpoints), on the test database with tenants of its own, real Argon2 (at the floor,
/// m=19456 KiB, t=2: the least PasswordHasher allows) on a pool of its own, and a test clock.
/// Its GraphQL client is in TestGraphQLClient.swift, its people in TestPeople.swift.
public struct AccountsHarness: Sendable {
    public let client: any TestClientProtocol
    /// What the endpoint runs, to call without HTTP (the test client sends one request at a time).
    public let engine: TenantGraphQL
    public let tenants: [TestTenant]
    public let clock: TestClock
    public let app: PostgresPool
    public let owner: PostgresPool
    /// The Argon2 pool: one thread, so a test can occupy it.
    public let argon2: BoundedWorkerPool
    /// The tenants as the server holds them, for a test that changes a tenant to refresh.
    public let served: TenantCache

    /// The first tenant, which requests go to unless they name another.
    public var tenant: TestTenant { tenants[0] }
}

/// Runs `test` against the server with `tenantCount` fresh tenants (their files changed by
/// `tweak`), hashing new passwords with `argon2` (the floor by default), with `loginPermits`
/// logins at once in their first transaction (the server's ``AsyncGate``), on `poolSize`
/// connections (their gatherings waiting `gatheringPatience` for a participant), each statement
/// of a request held to `statementTimeout` (none by default), with GraphQL over WebSocket held
/// to `liveLimits`, in process or, with `setup: .live`, over a socket, with the server's
/// configuration changed by `configure`, its log lines kept in `logs`.
public func withAccounts(
    tenants tenantCount: Int = 1, argon2 parameters: Argon2Parameters = .floor, loginPermits: Int = 2,
    poolSize: Int = 4, acquireTimeout: Duration = .seconds(10),
    gatheringPatience: Duration = PostgresConfiguration.defaultGatheringPatience, statementTimeout: Duration? = nil,
    liveLimits: LiveLimits = LiveLimits(), setup: TestingSetup = .router,
    tweak: (Int, inout TenantFile) -> Void = { _, _ in }, configure: (inout StorykeepConfig) -> Void = { _ in },
    logs: CapturedLogs = CapturedLogs(), _ test: @escaping @Sendable (AccountsHarness) async throws -> Void
) async throws {
    let tenants = try await makeTenants(tenantCount, tweak)
    try await TestDatabase.appPool(size: poolSize, acquireTimeout: acquireTimeout, gatheringPatience: gatheringPatience).closing { app in
        try await TestDatabase.ownerPool().closing { owner in
            let clock = TestClock()
            let argon2 = BoundedWorkerPool(threadCount: 1, name: "test-argon2")
            let graphQL = TenantGraphQL(
                schemas: TenantSchemas(directory: repositoryRoot.appendingPathComponent("Schema")),
                services: DomainServices(
                    pool: app, hasher: try PasswordHasher(parameters: parameters, pool: argon2),
                    sessions: SessionPolicy(maxLifetimeSeconds: 3600, idleTimeoutSeconds: 600),
                    logger: Logger(label: "accounts-test"), loginGate: AsyncGate(permits: loginPermits),
                    statementTimeout: statementTimeout, now: { clock.now }))
            let endpoints = StorykeepApplication.tenantEndpoints(graphQL: graphQL, config: try await testConfig())
            try await withTestServer(endpoints: endpoints, logs: logs, liveSocket: LiveSocketEndpoint(graphQL: graphQL, limits: liveLimits), setup: setup, configure: configure) { client, served in
                try await test(
                    AccountsHarness(
                        client: client, engine: graphQL, tenants: tenants, clock: clock, app: app, owner: owner, argon2: argon2,
                        served: served))
            }
        }
    }
}
