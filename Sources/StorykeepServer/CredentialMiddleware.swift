public import Hummingbird
import Storykeep

/// Reads the request's `Authorization` header into ``StorykeepRequestContext/credential``, as
/// hummingbird-auth's authenticators do, so that handlers and the domain get a ``Credential``
/// and never a header. Whether a bearer token is a live session is decided later, by the
/// database, in the request's own transaction (no round trip here).
public struct CredentialMiddleware: RouterMiddleware {
    public typealias Context = StorykeepRequestContext

    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.credential = Self.credential(request.headers[.authorization])
        return try await next(request, context)
    }

    /// `Authorization: Bearer <token>`: nothing without a header, `.invalid` for one that holds
    /// no possible token (another scheme, a malformed token).
    static func credential(_ header: String?) -> Credential {
        guard let header else { return .none }
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", let token = SessionToken(presented: parts[1]) else {
            return .invalid
        }
        return .bearer(token)
    }
}
