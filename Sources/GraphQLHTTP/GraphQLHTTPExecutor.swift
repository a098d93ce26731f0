import GraphQL
import Hummingbird

/// What GraphQL over HTTP needs from a GraphQL engine: run one operation and say whether
/// execution started. The HTTP layer (`GraphQLHTTPHandler`) reads and checks requests, looks up
/// persisted queries, collects uploads and picks status codes; everything GraphQL (parsing,
/// validation, the document cache, execution, the schema's resolvers) is behind this seam.
///
/// A conformance also decides what a request runs as: it gets the HTTP request and the
/// Hummingbird context, so it can find there whatever middleware learnt (who is asking, for
/// which tenant) and hand it to the resolvers. The handler's doc comment has a whole executor.
public protocol GraphQLHTTPExecutor<Context>: Sendable {
    associatedtype Context: RequestContext

    /// Runs `operation`, unless the operation it selects has a type that is not in
    /// `operation.allowedOperationTypes` (a mutation over GET), in which case it returns
    /// `.operationNotAllowed` without executing anything.
    func execute(_ operation: GraphQLHTTPOperation, request: Request, context: Context) async -> GraphQLHTTPResult

    /// The scope of the persisted-query store a request's documents are kept in and looked up
    /// from: a document stored in one scope is unknown in every other (see
    /// `GraphQLHTTPPersistedQueries`). An executor that serves several audiences from one
    /// handler (tenants, say) gives each its own scope, so that whether a hash is known tells
    /// nothing about what another audience sent. Opaque to the HTTP layer; by default one scope
    /// for the whole handler, right for one schema serving one audience.
    func persistedQueryScope(for request: Request, context: Context) -> String
    /// The most bytes of files `request` may upload, all its files together, when the executor
    /// has a limit of its own for it (a tenant's, say), or `nil` for the configuration's alone.
    /// The handler refuses with 413, before reading the body, a multipart request whose
    /// Content-Length is over this plus the configuration's `maxBodySize` (the other fields),
    /// and, while reading, one whose files pass it.
    func uploadLimit(for request: Request, context: Context) -> Int?
    /// The text of the document registered as `id` for `request` (a trusted document: a
    /// `documentId`, or a persisted-query hash the executor knows before the persisted-query
    /// store does), or `nil` when it has none.
    func registeredDocument(_ id: String, request: Request, context: Context) -> String?
    /// What the `extensions` of every error the HTTP layer itself answers `request` with carry
    /// beside `code` (a malformed body, an unknown persisted query): the request's trace id, say.
    /// The executor adds the same to the errors of the responses it makes. None by default.
    func errorExtensions(for request: Request, context: Context) -> GraphQLObject
}

extension GraphQLHTTPExecutor {
    public func persistedQueryScope(for request: Request, context: Context) -> String { "" }
    public func uploadLimit(for request: Request, context: Context) -> Int? { nil }
    public func registeredDocument(_ id: String, request: Request, context: Context) -> String? { nil }
    public func errorExtensions(for request: Request, context: Context) -> GraphQLObject { [:] }
}

/// One well-formed GraphQL-over-HTTP request, as the engine should run it.
public struct GraphQLHTTPOperation: Sendable {
    /// The document's source text (possibly from the persisted-query store).
    public var query: String
    public var operationName: String?
    /// The raw variables, as sent (uploads appear as `GraphQLUpload` markers).
    public var variables: GraphQLObject
    public var extensions: GraphQLObject
    /// The operation types this request may run: queries only over GET, queries and mutations
    /// over POST.
    public var allowedOperationTypes: Set<OperationType>

    public init(
        query: String, operationName: String? = nil, variables: GraphQLObject = [:],
        extensions: GraphQLObject = [:], allowedOperationTypes: Set<OperationType> = [.query, .mutation]
    ) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.extensions = extensions
        self.allowedOperationTypes = allowedOperationTypes
    }
}

/// What the engine made of an operation.
public enum GraphQLHTTPResult: Sendable {
    /// A GraphQL response, serialized as a JSON object (`errors`, `data`, `extensions`).
    /// `executionStarted` is false when the request failed before execution (a syntax or
    /// validation error, no operation to run, variables that do not coerce): the response then
    /// has no `data`, and `application/graphql-response+json` answers 400.
    case response(json: [UInt8], executionStarted: Bool)
    /// The selected operation's type is not allowed for this request; nothing ran.
    case operationNotAllowed(OperationType)
}
