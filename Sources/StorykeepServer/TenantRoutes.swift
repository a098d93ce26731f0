public import GraphQLHTTP
public import Hummingbird
public import Storykeep

/// Something served per tenant, under `/t/<slug>/` and under `/` on the tenant's hosts: the
/// GraphQL endpoint (`GraphQLHTTPHandler`), later uploads and media.
///
/// An endpoint registers its routes on the group it is given, relative to the tenant's root
/// (`group.post("graphql", use: ...)`); ``StorykeepApplication`` calls it once for each root. Its
/// handlers get a ``TenantRequestContext``, so they never run without an enabled tenant.
public protocol TenantEndpoint: Sendable {
    func register(on group: RouterGroup<TenantRequestContext>)
}

/// `GET /t/<slug>/` (or `/` on a tenant's host): what a client shows before anyone logs in —
/// the agency's name, the terms version to accept and their summary (in the language the
/// request's `Accept-Language` prefers among the agency's, else English: `language` says which),
/// the time zone and the agency's languages. Nothing private.
public struct TenantInfoEndpoint: TenantEndpoint {
    public init() {}

    struct Info: ResponseEncodable {
        var slug: String
        var displayName: String
        var termsVersion: String
        var termsSummary: String?
        var language: String
        var languages: [String]
        var timeZone: String
    }

    public func register(on group: RouterGroup<TenantRequestContext>) {
        group.get { request, context in
            let file = context.tenant.file
            let language = AcceptLanguage.best(request.headers[.acceptLanguage], among: file.languages) ?? LocalizedText.fallback
            return Info(
                slug: file.slug, displayName: file.displayName, termsVersion: file.termsVersion,
                termsSummary: file.termsSummary?.text(in: language), language: language, languages: file.languages, timeZone: file.timeZone)
        }
    }
}

/// GraphQL over HTTP is a tenant endpoint once its executor runs in a tenant's context:
/// `storykeep serve` lists `GraphQLHTTPHandler(executor: ...)` among its endpoints, and each
/// tenant answers at `/t/<slug>/graphql` (and `/graphql` on its hosts).
extension GraphQLHTTPHandler: TenantEndpoint where Executor.Context == TenantRequestContext {
    public func register(on group: RouterGroup<TenantRequestContext>) {
        group.addGraphQLRoutes(self)
    }
}

extension StorykeepApplication {
    /// Everything a tenant serves over HTTP, as `storykeep serve` mounts it (the tests too): what
    /// a client shows before login, the schema for its admins, GraphQL over HTTP as `config`
    /// says, and the modules' endpoints.
    public static func tenantEndpoints(graphQL: TenantGraphQL, config: StorykeepConfig) -> [any TenantEndpoint] {
        [
            TenantInfoEndpoint(),
            SchemaEndpoint(graphQL: graphQL),
            GraphQLHTTPHandler(executor: TenantGraphQLExecutor(graphQL: graphQL), configuration: .tenant(config)),
        ] + moduleEndpoints(StorykeepModules.endpoints, graphQL: graphQL)
    }
}
