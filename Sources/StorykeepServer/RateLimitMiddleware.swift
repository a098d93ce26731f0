public import Hummingbird
import Storykeep

/// Binds the rate limits of a tenant's request (``RequestLimits``: the tenant file's
/// `rateLimits`, the client's address by ``ClientAddress``, this process's ``TokenBuckets``) for
/// the domain, and applies the limits of the HTTP endpoints itself: a GraphQL multipart request
/// (files) takes from the address's `uploadsPerMinute`, a request to an OAuth token endpoint
/// from its `tokenRequestsPerMinute`; over either the answer is 429 with `Retry-After`.
public struct RateLimitMiddleware: RouterMiddleware {
    public typealias Context = StorykeepRequestContext

    let buckets: TokenBuckets
    let trustedProxies: [CIDR]
    /// The OAuth token endpoints' paths below the tenant root.
    let tokenPaths: Set<String>

    public init(buckets: TokenBuckets, trustedProxies: [CIDR], tokenPaths: Set<String>) {
        self.buckets = buckets
        self.trustedProxies = trustedProxies
        self.tokenPaths = tokenPaths
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard case .found(let tenant) = context.tenant else { return try await next(request, context) }
        let address = ClientAddress.resolve(peer: context.peerAddress, headers: request.headers, trustedProxies: trustedProxies)
        let limits = RequestLimits(buckets: buckets, policy: tenant.file.rateLimits, tenantID: tenant.id, address: address)
        if request.method == .post {
            let wait: Int? =
                if tokenPaths.contains(TenantCORSMiddleware.path(of: request, below: context.tenantRoot)) {
                    limits.takeTokenRequest()
                } else if request.headers[.contentType]?.lowercased().hasPrefix("multipart/form-data") == true {
                    limits.takeUpload()
                } else {
                    nil
                }
            if let wait {
                throw HTTPError(.tooManyRequests, headers: [.retryAfter: String(wait)], message: "Too many requests from here. Please wait \(wait) seconds and try again.")
            }
        }
        return try await RequestLimits.$current.withValue(limits) { try await next(request, context) }
    }
}
