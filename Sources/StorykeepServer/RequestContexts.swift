public import Hummingbird
import NIOCore
public import Storykeep

/// What the server learnt about the tenant of a request before routing it.
public enum TenantResolution: Sendable, Equatable {
    /// The request names no tenant: no `/t/<slug>/` path, no tenant host (e.g. `/health/ready`).
    case none
    /// The enabled tenant the path or the Host header selects.
    case found(Tenant)
    /// The path names a tenant that does not exist or is disabled, or one the Host header's
    /// tenant is not (a tenant's host never serves another tenant).
    case unknown(slug: String)
    /// The tenants could not be read (the database is down).
    case unavailable
}

/// The context of every request: Hummingbird's core, the tenant resolution, the body limit.
public struct StorykeepRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by ``TenantMiddleware``.
    public var tenant: TenantResolution = .none
    /// The path the tenant's routes are under for this request, set by ``TenantMiddleware``:
    /// `/t/<slug>/`, or `/` on a tenant's own host.
    public var tenantRoot = "/"
    /// What the request's `Authorization` header presents, set by ``CredentialMiddleware``.
    public var credential = Credential.none
    /// Set by ``BodyLimitMiddleware`` from `http.bodyLimitBytes`; what Hummingbird's body
    /// decoding (`request.decode`) and `request.collectBody(upTo: context.maxUploadSize)` allow.
    public var maxUploadSize: Int = 1 << 20
    /// The address of the connection's peer (a client's or a proxy's), nil when it has none.
    public let peerAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
    }
}

/// The context of the routes under `/t/<slug>/` and of a tenant's hosts: the tenant is there.
///
/// Hummingbird makes it from the parent context before running a route; making it fails with
/// 404 and a JSON error when the request's tenant is unknown or disabled, so a route never sees
/// a request without its tenant.
public struct TenantRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let tenant: Tenant
    public let maxUploadSize: Int
    /// Who the request says it is (its bearer token), for the domain to check.
    public let credential: Credential
    /// The URLs of this tenant's endpoints as this request's client reaches them.
    public let links: TenantLinks

    public init(context: StorykeepRequestContext) throws {
        switch context.tenant {
        case .found(let tenant):
            self.tenant = tenant
        case .none, .unknown:
            throw HTTPError(.notFound, message: "No such tenant.")
        case .unavailable:
            throw HTTPError(.serviceUnavailable, message: "Tenants cannot be read now; try again shortly.")
        }
        coreContext = context.coreContext
        maxUploadSize = context.maxUploadSize
        credential = context.credential
        links = TenantLinks(root: context.tenantRoot)
    }
}

/// URLs under a tenant's root as a request reached it (``StorykeepRequestContext/tenantRoot``).
public struct TenantLinks: ResourceLinks {
    /// `/t/<slug>/` or `/`.
    public let root: String

    public init(root: String) {
        self.root = root
    }

    public func url(_ path: String) -> String {
        root + path
    }
}
