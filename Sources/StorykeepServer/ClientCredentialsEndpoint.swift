import Foundation
import GraphQL
public import Hummingbird
public import Storykeep

/// `POST <tenant root>/<path>`: the OAuth 2.0 token endpoint of the client credentials grant
/// (RFC 6749 §4.4, ``ModuleEndpoint/clientCredentials(path:issuer:)``), the case-management
/// clients' `oauth/token`.
///
/// The request is a form (`application/x-www-form-urlencoded`) with `grant_type=client_credentials`
/// and an optional `scope` of `export`; the client authenticates with HTTP Basic (§2.3.1: its id
/// and secret, each form-encoded) or, where its tooling cannot, with `client_id` and
/// `client_secret` in the form, never both. The answer is JSON (§5.1, §5.2), never cached:
/// `access_token`, `token_type` `Bearer`, `expires_in`, `scope`; or `error` with a description:
/// `invalid_request` and `unsupported_grant_type` and `invalid_scope` 400, `invalid_client` 401
/// with `WWW-Authenticate: Basic`. A client refused for too many wrong secrets in a row gets
/// `invalid_client` with 429 and `Retry-After`, unjudged, as a person's login is.
public struct ClientCredentialsEndpoint: TenantEndpoint {
    public let path: String
    public let issuer: any ClientCredentialsIssuer
    public let services: DomainServices

    /// The longest form read: the grant needs a few dozen bytes.
    static let maxFormBytes = 4096
    /// The one scope there is.
    static let scope = "export"

    public init(path: String, issuer: any ClientCredentialsIssuer, services: DomainServices) {
        self.path = path
        self.issuer = issuer
        self.services = services
    }

    public func register(on group: RouterGroup<TenantRequestContext>) {
        group.post(RouterPath(path)) { request, context in
            try await respond(to: request, context: context)
        }
    }

    func respond(to request: Request, context: TenantRequestContext) async throws -> Response {
        let mediaType = request.headers[.contentType].flatMap(MediaType.init(from:))
        guard let mediaType, mediaType.isType(.applicationUrlEncoded) else {
            return Self.error(.badRequest, "invalid_request", "Send the request as application/x-www-form-urlencoded.")
        }
        let body = try await request.body.collect(upTo: Self.maxFormBytes)
        guard let form = Self.form(String(buffer: body)) else {
            return Self.error(.badRequest, "invalid_request", "The form is malformed or repeats a parameter.")
        }
        guard let grantType = form["grant_type"] else {
            return Self.error(.badRequest, "invalid_request", "grant_type is missing.")
        }
        guard grantType == "client_credentials" else {
            return Self.error(.badRequest, "unsupported_grant_type", "Only the client_credentials grant is supported.")
        }
        if let scope = form["scope"], scope.split(separator: " ") != [Substring(Self.scope)] {
            return Self.error(.badRequest, "invalid_scope", "The only scope is \(Self.scope).")
        }
        let basic = Self.basic(request.headers[.authorization])
        let (formID, formSecret) = (form["client_id"], form["client_secret"])
        if basic != nil, formID != nil || formSecret != nil {
            return Self.error(.badRequest, "invalid_request", "Authenticate the client one way: HTTP Basic or the form, not both.")
        }
        let credentials: (id: String, secret: String)
        if let basic {
            guard let basic else { return Self.invalidClient(status: .unauthorized, "The Authorization header does not decode.") }
            credentials = basic
        } else if let formID, let formSecret {
            credentials = (formID, formSecret)
        } else {
            return Self.invalidClient(status: .unauthorized, "Authenticate the client with HTTP Basic.")
        }
        switch try await issuer.issue(clientID: credentials.id, secret: credentials.secret, tenant: context.tenant, services: services) {
        case .issued(let token, let expiresIn):
            return Self.json(
                .ok, ["access_token": .string(token), "token_type": .string("Bearer"), "expires_in": .int(expiresIn), "scope": .string(Self.scope)])
        case .invalidClient:
            return Self.invalidClient(status: .unauthorized, "The client id or secret is not right, or the client was revoked.")
        case .slowedDown(let seconds):
            var response = Self.invalidClient(status: .tooManyRequests, "Too many wrong secrets; try again in \(seconds) seconds.")
            response.headers[.retryAfter] = String(seconds)
            return response
        }
    }

    /// The parameters of a form, or nil when one is malformed or repeated (§3.2: "Request and
    /// response parameters MUST NOT be included more than once"). Empty values count as absent.
    static func form(_ text: String) -> [String: String]? {
        var parameters: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = formDecode(parts[0]), let value = parts.count == 2 ? formDecode(parts[1]) : "" else { return nil }
            guard parameters[name] == nil else { return nil }
            if !value.isEmpty { parameters[name] = value }
        }
        return parameters
    }

    /// `Authorization: Basic <base64(id:secret)>`: nil without such a header, `.some(nil)` for one
    /// that does not decode.
    static func basic(_ header: String?) -> (id: String, secret: String)?? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return nil }
        guard let data = Data(base64Encoded: String(parts[1])), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"),
            let id = formDecode(text[..<colon]), let secret = formDecode(text[text.index(after: colon)...])
        else { return .some(nil) }
        return .some((id, secret))
    }

    private static func formDecode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    private static func invalidClient(status: HTTPResponse.Status, _ description: String) -> Response {
        var response = error(status, "invalid_client", description)
        response.headers[.wwwAuthenticate] = "Basic realm=\"storykeep\", charset=\"UTF-8\""
        return response
    }

    private static func error(_ status: HTTPResponse.Status, _ code: String, _ description: String) -> Response {
        json(status, ["error": .string(code), "error_description": .string(description)])
    }

    /// A JSON answer that no cache keeps (§5.1).
    private static func json(_ status: HTTPResponse.Status, _ object: GraphQLObject) -> Response {
        var headers: HTTPFields = [.contentType: "application/json;charset=UTF-8", .cacheControl: "no-store"]
        // For HTTP/1.0 caches, as §5.1 asks.
        headers[.init("Pragma")!] = "no-cache"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: GraphQLValue.object(object).json)))
    }
}

