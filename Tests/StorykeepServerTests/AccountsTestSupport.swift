import Foundation
import GraphQL
import GraphQLHTTP
import Hummingbird
import HummingbirdTesting
import Logging
import Postgres
import Storykeep
import StorykeepServer
import Synchronization
import Testing

/// The time the server judges lockout back-off by, moved by the tests instead of sleeping.
final class TestClock: Sendable {
    private let instant = Mutex(Date())
    var now: Date { instant.withLock { $0 } }
    func advance(seconds: Double) { instant.withLock { $0 += seconds } }
}

/// A tenant made for one test.
struct TestTenant: Sendable {
    let file: TenantFile
    let id: UUID
    var slug: String { file.slug }
}

/// The server with the tenant GraphQL endpoint on the test database, real Argon2 (at the floor,
/// m=19456 KiB, t=2: the least PasswordHasher allows) on a pool of its own, and a test clock.
struct AccountsHarness: Sendable {
    let client: any TestClientProtocol
    /// What the endpoint runs, to call without HTTP (the test client sends one request at a time).
    let engine: TenantGraphQL
    let tenants: [TestTenant]
    let clock: TestClock
    let app: PostgresPool
    let owner: PostgresPool
    /// The Argon2 pool: one thread, so a test can occupy it.
    let argon2: BoundedWorkerPool

    var tenant: TestTenant { tenants[0] }

    /// POSTs one operation to `/t/<slug>/graphql` and returns the response's JSON.
    func graphQL(
        _ query: String, _ variables: GraphQLObject = [:], token: String? = nil, tenant: TestTenant? = nil
    ) async throws -> GraphQLValue {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        let body = GraphQLValue.object(["query": .string(query), "variables": .object(variables)]).json
        let slug = (tenant ?? self.tenant).slug
        return try await client.execute(uri: "/t/\(slug)/graphql", method: .post, headers: headers, body: ByteBuffer(string: body)) {
            response in try response.json
        }
    }

    /// A person made as `storykeep user create` makes them (the tenant's operator), and their code.
    func createAsOperator(_ person: NewPerson, tenant: TestTenant? = nil) async throws -> IssuedActivation {
        let id = (tenant ?? self.tenant).id
        return try await app.transaction(settings: AccountContext.tenantOperator(tenantID: id).settings) { tx in
            try await PeopleAdmin.create(person, in: tx)
        }
    }

    /// Activates with `code` over HTTP and returns the session token.
    func activate(_ code: String, password: String, username: String? = nil, tenant: TestTenant? = nil) async throws -> String {
        let response = try await graphQL(
            "mutation($c: String!, $u: String, $p: String!) { activateAccount(code: $c, username: $u, password: $p) { token } }",
            ["c": .string(code), "u": username.map(GraphQLValue.string) ?? .null, "p": .string(password)], tenant: tenant)
        return try #require(response["data"]?["activateAccount"]?["token"]?.stringValue, "\(response.json)")
    }

    /// Logs in over HTTP: the whole response.
    func login(_ username: String, _ password: String, tenant: TestTenant? = nil) async throws -> GraphQLValue {
        try await graphQL(
            "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token expiresAt person { id } } }",
            ["u": .string(username), "p": .string(password)], tenant: tenant)
    }

    /// A tenant's admin, added by the operator and activated, with the email `<name>@<slug>.example`
    /// (lower-cased) and the password "admin password 1": their token.
    func admin(_ name: String = "Ada", tenant: TestTenant? = nil) async throws -> String {
        let slug = (tenant ?? self.tenant).slug
        let issued = try await createAsOperator(
            NewPerson(role: .agencyAdmin, displayName: name, email: "\(name.lowercased())@\(slug).example"), tenant: tenant)
        return try await activate(issued.code.displayText, password: "admin password 1", tenant: tenant)
    }
}

extension GraphQLValue {
    /// The `extensions.code` of a response's first error.
    var errorCode: String? { self["errors"]?.listValue?.first?["extensions"]?["code"]?.stringValue }
    /// The first error's `extensions`.
    var errorExtensions: GraphQLValue? { self["errors"]?.listValue?.first?["extensions"] }
    var errorMessage: String? { self["errors"]?.listValue?.first?["message"]?.stringValue }
}

/// Runs `test` against the server with `tenantCount` fresh tenants (their files changed by
/// `tweak`), hashing new passwords with `argon2` (the floor by default), with `loginPermits`
/// logins at once in their first transaction (the server's ``AsyncGate``), on `poolSize`
/// connections, each statement of a request held to `statementTimeout` (none by default), in
/// process or, with `setup: .live`, over a socket.
func withAccounts(
    tenants tenantCount: Int = 1, argon2 parameters: Argon2Parameters = .floor, loginPermits: Int = 2,
    poolSize: Int = 4, statementTimeout: Duration? = nil, setup: TestingSetup = .router,
    tweak: (Int, inout TenantFile) -> Void = { _, _ in },
    _ test: @escaping @Sendable (AccountsHarness) async throws -> Void
) async throws {
    let files = try await makeTenants(tenantCount, tweak)
    let app = try testPool("DATABASE_URL", poolSize: poolSize)
    let owner = try testPool("STORYKEEP_OWNER_DATABASE_URL")
    do {
        let all = try await TenantStore(pool: app).all()
        let tenants = try files.map { file in
            TestTenant(file: file, id: try #require(all.first { $0.slug == file.slug }).id)
        }
        let clock = TestClock()
        let argon2 = BoundedWorkerPool(threadCount: 1, name: "test-argon2")
        let graphQL = TenantGraphQL(
            schemas: TenantSchemas(directory: URL(fileURLWithPath: repositoryRoot + "/Schema")),
            services: DomainServices(
                pool: app, hasher: try PasswordHasher(parameters: parameters, pool: argon2),
                sessions: SessionPolicy(maxLifetimeSeconds: 3600, idleTimeoutSeconds: 600),
                logger: Logger(label: "accounts-test"), loginGate: AsyncGate(permits: loginPermits),
                statementTimeout: statementTimeout, now: { clock.now }))
        // As `storykeep serve` mounts them.
        let endpoints: [any TenantEndpoint] = [
            GraphQLHTTPHandler(executor: TenantGraphQLExecutor(graphQL: graphQL), configuration: .tenant(try await testConfig())),
        ] + StorykeepApplication.moduleEndpoints(StorykeepModules.endpoints, graphQL: graphQL)
        try await withTestServer(endpoints: endpoints, setup: setup) { client, _ in
            try await test(
                AccountsHarness(client: client, engine: graphQL, tenants: tenants, clock: clock, app: app, owner: owner, argon2: argon2))
        }
    } catch {
        await app.close()
        await owner.close()
        throw error
    }
    await app.close()
    await owner.close()
}
