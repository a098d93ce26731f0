public import GraphQL
public import GraphQLHTTP
public import Hummingbird
public import Storykeep

/// The tenant GraphQL endpoint's engine: GraphQL over HTTP (`GraphQLHTTPHandler`) hands it each
/// operation with the tenant the route found, and it runs it with ``TenantGraphQL`` as whoever
/// the request's `Authorization: Bearer <token>` says (or nobody).
///
/// `storykeep serve` mounts it with one line: `GraphQLHTTPHandler(executor: TenantGraphQLExecutor(...))`
/// among the tenant endpoints, so every tenant answers at `/t/<slug>/graphql` and on its hosts.
public struct TenantGraphQLExecutor: GraphQLHTTPExecutor {
    public typealias Context = TenantRequestContext

    public let graphQL: TenantGraphQL

    public init(graphQL: TenantGraphQL) {
        self.graphQL = graphQL
    }

    public func execute(_ operation: GraphQLHTTPOperation, request: Request, context: Context) async -> GraphQLHTTPResult {
        let observation = RequestObservation.current
        observation?.ranOperation(named: operation.operationName ?? Self.firstOperationName(in: operation.query))
        let outcome = await graphQL.execute(
            GraphQLRequest(
                query: operation.query, operationName: operation.operationName, variables: operation.variables,
                extensions: operation.extensions),
            tenant: context.tenant, credential: context.credential, links: context.links,
            allowedOperationTypes: operation.allowedOperationTypes, requestID: context.requestID,
            acceptLanguage: request.headers[.acceptLanguage]
        ) { cached in
            observation?.metrics.recordDocumentLookup(cached: cached, tenant: context.tenant.slug)
        }
        switch outcome {
        case .response(var response):
            observation?.metrics.record(response.errors, tenant: context.tenant.slug)
            let extensions = errorExtensions(for: request, context: context)
            response.errors = response.errors.map { error in
                var error = error
                error.extensions = (error.extensions ?? [:]).adding(extensions)
                return error
            }
            return .response(json: response.jsonBytes(), executionStarted: !response.isRequestError)
        case .operationNotAllowed(let type):
            return .operationNotAllowed(type)
        }
    }

    /// The name of the document's first operation (`query FeedQuery { ... }`), for the metrics of
    /// a request that sends no `operationName`; read off the text before parsing: its first two
    /// names, past GraphQL's ignored tokens (white space, commas, comments, a byte order mark).
    /// A byte loop, not a Regex: it runs for every such request, and a Regex literal here was
    /// re-parsed each time, a sixth of a cached query's CPU.
    static func firstOperationName(in query: String) -> String? {
        var rest = query.utf8[...]
        guard let keyword = nextName(in: &rest), ["query", "mutation", "subscription"].contains(keyword),
            let name = nextName(in: &rest)
        else { return nil }
        return String(name)
    }

    /// The name that starts `text` after its ignored tokens, `text` left behind it; nil when
    /// something else comes first.
    private static func nextName(in text: inout Substring.UTF8View) -> Substring? {
        while let byte = text.first {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","):
                text.removeFirst()
            case UInt8(ascii: "#"):
                text = text.drop { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
            case 0xEF where text.starts(with: [0xEF, 0xBB, 0xBF]):
                text.removeFirst(3)
            default:
                guard ServerMetrics.isNameStart(byte) else { return nil }
                let name = text.prefix(while: ServerMetrics.isNameContinue)
                text = text[name.endIndex...]
                return Substring(name)
            }
        }
        return nil
    }

    /// Every error the endpoint answers carries the request's trace id (``TraceContextMiddleware``)
    /// as `extensions.traceId`, for a client to quote.
    public func errorExtensions(for request: Request, context: Context) -> GraphQLObject {
        context.traceID.map { ["traceId": .string($0)] } ?? [:]
    }

    /// Each tenant's persisted queries are its own: whether a hash is known at one agency says
    /// nothing about what was sent at another.
    public func persistedQueryScope(for request: Request, context: Context) -> String {
        context.tenant.id.uuidString
    }

    /// The tenant's trusted documents (`storykeep documents register`), by the id its apps' build
    /// gave each.
    public func registeredDocument(_ id: String, request: Request, context: Context) -> String? {
        context.tenant.trustedDocuments.document(id: id)
    }

    /// The tenant's upload limit (`uploads.maxMegabytes` in its file), for all the files of one
    /// request together.
    public func uploadLimit(for request: Request, context: Context) -> Int? {
        context.tenant.file.uploads.maxBytes
    }
}

extension GraphQLHTTPConfiguration {
    /// A tenant endpoint's: GraphQL request bodies up to `http.bodyLimitBytes`, and uploads up to
    /// the server's ceiling, `uploads.maxBytes`, which each tenant's own limit lowers
    /// (``TenantGraphQLExecutor/uploadLimit(for:context:)``).
    public static func tenant(_ config: StorykeepConfig) -> GraphQLHTTPConfiguration {
        GraphQLHTTPConfiguration(
            maxBodySize: config.http.bodyLimitBytes, maxFileSize: config.uploads.maxBytes, maxFiles: 10,
            maxMultipartBodySize: config.uploads.maxBytes + config.http.bodyLimitBytes)
    }
}
