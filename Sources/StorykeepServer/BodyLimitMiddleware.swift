public import Hummingbird

/// Applies `http.bodyLimitBytes` to every request: sets the context's `maxUploadSize`, which
/// Hummingbird's body decoding (`request.decode`) enforces with 413, and which handlers pass to
/// `request.collectBody(upTo:)`. Reading stops at the limit, whatever `Content-Length` says.
///
/// Multipart uploads to the GraphQL endpoint, which accept larger bodies, are held to their own
/// limits instead (GraphQLHTTP's: `uploads.maxBytes`, lowered by the tenant's
/// `uploads.maxMegabytes`; see `GraphQLHTTPConfiguration.tenant(_:)`).
public struct BodyLimitMiddleware: RouterMiddleware {
    public typealias Context = StorykeepRequestContext

    let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.maxUploadSize = limit
        return try await next(request, context)
    }
}
