import HTTPTypes
public import Hummingbird

/// Cross-Origin Resource Sharing per tenant: a browser app served from one of the tenant file's
/// `cors.origins` may call the tenant's API; a page of any other origin gets no CORS headers, so
/// the browser keeps every answer from it.
///
/// Hummingbird's `CORSMiddleware` takes one setting for the whole application; here the allowed
/// origins are the tenant's, known once ``TenantMiddleware`` has resolved it, so this small
/// middleware does the same work per tenant:
/// - a preflight (`OPTIONS` with `Access-Control-Request-Method`) under a tenant's root is
///   answered here, 204, with the allowed methods and headers and `Access-Control-Max-Age`
///   when its origin is allowed, without them when it is not;
/// - any other response of the tenant, an error's included, gets `Access-Control-Allow-Origin`
///   (the request's exact origin, never `*`), `Access-Control-Allow-Credentials` and the headers
///   a script may read (`X-Request-Id`, `Retry-After`, `traceresponse`) when its origin is allowed;
/// - every response of the tenant varies by `Origin`, so no cache hands one origin's answer to another.
///
/// Paths in `excludedPaths` (relative to the tenant root) get none of this: the OAuth token
/// endpoint, whose client secret must never be in a browser's code.
public struct TenantCORSMiddleware: RouterMiddleware {
    public typealias Context = StorykeepRequestContext

    /// What a cross-origin script may send.
    static let allowedMethods = "GET, POST, OPTIONS"
    static let allowedHeaders = "content-type, authorization, graphql-require-preflight, apollo-require-preflight, traceparent, tracestate, x-request-id"
    /// What a cross-origin script may read besides the safelisted headers.
    static let exposedHeaders = "X-Request-Id, Retry-After, traceresponse"
    /// How long a browser may keep a preflight's answer: two hours, Chromium's ceiling. An origin
    /// removed from the file is refused at once all the same, since every response is checked.
    static let maxAgeSeconds = 7200

    let excludedPaths: Set<String>

    /// `excludedPaths`: paths below the tenant root (`oauth/token`) that browsers are not to call.
    public init(excludedPaths: Set<String> = []) {
        self.excludedPaths = excludedPaths
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard case .found(let tenant) = context.tenant, !excludedPaths.contains(Self.path(of: request, below: context.tenantRoot)) else {
            return try await next(request, context)
        }
        let origin = request.headers[.origin].flatMap { tenant.file.cors.allows($0) ? $0 : nil }
        var response: Response
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            response = Response(status: .noContent)
            if let origin {
                response.headers[.accessControlAllowOrigin] = origin
                response.headers[.accessControlAllowCredentials] = "true"
                response.headers[.accessControlAllowMethods] = Self.allowedMethods
                response.headers[.accessControlAllowHeaders] = Self.allowedHeaders
                response.headers[.accessControlMaxAge] = String(Self.maxAgeSeconds)
            }
        } else {
            do {
                response = try await next(request, context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
            if let origin {
                response.headers[.accessControlAllowOrigin] = origin
                response.headers[.accessControlAllowCredentials] = "true"
                response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
            }
        }
        response.headers.append(HTTPField(name: .vary, value: "Origin"))
        return response
    }

    /// The request's path below `root` (`/t/<slug>/` or `/`), without a leading slash.
    static func path(of request: Request, below root: String) -> String {
        let path = request.uri.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }
}
