import GraphQLHTTP
import HTTPTypes
import Hummingbird
import StorykeepCore

/// The GraphQL explorer, as graphql-yoga and Apollo Server offer one: a `GET` of a tenant's
/// GraphQL URL whose `Accept` prefers `text/html` (a browser's address bar) gets a GraphiQL page
/// that runs against that URL (``ExplorerPage``). Mounted only when `explorer.enabled`; every
/// other request, and every request while it is off, goes on to GraphQL over HTTP unchanged.
///
/// A tenant with `graphql.trustedDocumentsOnly` runs only its app's registered documents, so
/// neither the explorer's introspection nor any query typed in it would run: such a tenant
/// answers 403 with a sentence saying why, rather than a page that cannot work.
struct ExplorerMiddleware: RouterMiddleware {
    typealias Context = TenantRequestContext

    let page: ExplorerPage

    init(config: StorykeepConfig.Explorer) {
        page = ExplorerPage(assetsURL: config.assetsURL)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let endpoint = context.links.url("graphql")
        guard request.method == .get, request.uri.path == endpoint,
            GraphQLHTTPResponseType.prefersHTML(accept: request.headers[.accept])
        else { return try await next(request, context) }
        var headers: HTTPFields = [.vary: "Accept", .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"]
        guard !context.tenant.file.graphql.trustedDocumentsOnly else {
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(
                status: .forbidden, headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(string: Self.trustedDocumentsOnly)))
        }
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = page.contentSecurityPolicy
        headers[Self.referrerPolicy] = "no-referrer"
        let html = page.html(title: context.tenant.file.displayName, endpoint: endpoint)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    static let trustedDocumentsOnly =
        "The GraphQL explorer is off for this agency: its API runs only the documents its apps registered (graphql.trustedDocumentsOnly).\n"
}
