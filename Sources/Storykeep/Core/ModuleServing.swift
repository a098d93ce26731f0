public import Foundation
public import Logging
public import Postgres

// What a module asks the server to do besides answering GraphQL: serve files over HTTP, run work
// in the background. The module says what, in the domain's terms; the server (StorykeepServer)
// does the HTTP and the scheduling, so the domain never reads a header or builds a URL.

/// How the client of a request reaches the server's endpoints: the server makes one per request
/// (a request on a tenant's host gets `/media/…`, one on `/t/<slug>/` gets `/t/<slug>/media/…`).
public protocol ResourceLinks: Sendable {
    /// The URL of `path`, relative to the tenant's root (`media/<id>`).
    func url(_ path: String) -> String
}

/// An HTTP endpoint of a module, under each tenant's root.
public enum ModuleEndpoint: Sendable {
    /// `GET <path>/<id>`: the file `id` of `source`, for whoever the request's bearer token says,
    /// in one transaction as them; with HTTP Range, `ETag` and private caching.
    case files(path: String, source: any FileSource)
    /// `POST <path>`: the OAuth 2.0 token endpoint of the client credentials grant (RFC 6749
    /// §4.4). The server speaks the protocol (the form, HTTP Basic, the JSON answers and errors);
    /// `issuer` judges the client's credentials and issues its tokens.
    case clientCredentials(path: String, issuer: any ClientCredentialsIssuer)
    /// `GET <path>/<id>?<query>`: the file `id` of `source` for whoever holds a link `links`
    /// signed, without a token; read in one transaction in the context the link gives.
    case signedFiles(path: String, source: any FileSource, links: any SignedFileLinks)
}

/// Links to files that work without a token for as long as their signature says (the export's
/// media links, which a case management system hands to its document store).
public protocol SignedFileLinks: Sendable {
    /// The context to read the file `id` in if `query` (the link's query parameters) signs it for
    /// `tenant` and has not expired at `now`; nil for a link that is not one, was changed, is of
    /// another tenant or another file, or has expired.
    func context(forFile id: UUID, query: [String: String], tenant: Tenant, now: Date) -> AccountContext?
}

/// Issues bearer tokens to clients that authenticate with their id and secret
/// (``ModuleEndpoint/clientCredentials(path:issuer:)``).
public protocol ClientCredentialsIssuer: Sendable {
    /// A token for the client `clientID` of `tenant` if `secret` is its secret, judged at
    /// `services.now()`.
    func issue(clientID: String, secret: String, tenant: Tenant, services: DomainServices) async throws -> ClientCredentialsOutcome
}

/// What became of a client's request for a token.
public enum ClientCredentialsOutcome: Sendable, Equatable {
    /// A bearer token (shown this once), valid for `expiresIn` seconds.
    case issued(token: String, expiresIn: Int)
    /// No such client, a wrong secret, or a revoked client: not told apart.
    case invalidClient
    /// Too many wrong secrets in a row: refused unjudged; try again after this many seconds.
    case slowedDown(retryAfterSeconds: Int)
}

/// Stored files an endpoint serves (``ModuleEndpoint/files(path:source:)``). Each method runs in
/// the transaction of the requesting person, whose row-level security decides what they see.
public protocol FileSource: Sendable {
    /// The description of the file `id`, or nil when there is none for this person (absent, or
    /// someone else's: not told apart).
    func file(id: UUID, in tx: PostgresTransaction) async throws -> FileDescription?
    /// `length` bytes of the file `id` from `offset` (all from `offset` when nil), or nil when it
    /// has gone since its description was read.
    func bytes(id: UUID, offset: Int, length: Int?, in tx: PostgresTransaction) async throws -> [UInt8]?
}

/// A stored file, without its bytes.
public struct FileDescription: Sendable, Equatable {
    public var id: UUID
    /// The type its bytes were recognised as.
    public var contentType: String
    public var byteSize: Int
    /// The SHA-256 of the bytes, in lowercase hex: the file's strong `ETag`.
    public var sha256Hex: String

    public init(id: UUID, contentType: String, byteSize: Int, sha256Hex: String) {
        self.id = id
        self.contentType = contentType
        self.byteSize = byteSize
        self.sha256Hex = sha256Hex
    }
}

/// Work the server repeats every `interval` while it runs (the first round one interval after
/// the start, so a restart loop does not hammer the database). A round that throws is logged,
/// and the next one tries again.
public struct BackgroundJob: Sendable {
    /// What the logs call it: `archive purge`.
    public var name: String
    public var interval: Duration
    /// One round: what it did (how much), logged at info; or nil when it found nothing to do,
    /// logged at debug, so that a quiet server's log is not a line per job every few seconds.
    public var round: @Sendable (JobContext) async throws -> Logger.Metadata?

    public init(name: String, interval: Duration, round: @escaping @Sendable (JobContext) async throws -> Logger.Metadata?) {
        self.name = name
        self.interval = interval
        self.round = round
    }
}

/// What a background job's round works with.
public struct JobContext: Sendable {
    /// The app role's pool.
    public var pool: PostgresPool
    /// The tenants to work on: every tenant of the database, enabled or not.
    public var tenants: @Sendable () async throws -> [Tenant]
    /// The ids of ``tenants`` when they are not every tenant of the database (a test's own), for
    /// ``tenants(withWork:due:stale:)``; nil for every tenant (the server).
    public var scope: [UUID]?
    /// The time the round judges by (tests move it).
    public var now: @Sendable () -> Date
    public var logger: Logger

    public init(
        pool: PostgresPool, tenants: @escaping @Sendable () async throws -> [Tenant], scope: [UUID]? = nil,
        now: @escaping @Sendable () -> Date = Date.init, logger: Logger
    ) {
        self.pool = pool
        self.tenants = tenants
        self.scope = scope
        self.now = now
        self.logger = logger
    }
}
