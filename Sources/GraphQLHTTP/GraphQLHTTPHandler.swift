import GraphQL
import Hummingbird

/// GraphQL over HTTP for one schema (https://graphql.github.io/graphql-over-http/draft/):
/// reads the request, checks it, finds its document (Apollo's persisted queries), collects its
/// uploads (the GraphQL multipart request specification), hands it to the executor and writes
/// the response with the status codes the specification gives.
///
/// - `GET ?query=…&operationName=…&variables=<JSON>&extensions=<JSON>`: queries only; a
///   mutation gets 405 with `Allow: POST`.
/// - `POST` with `application/json`: one operation as a JSON object, or, when
///   `maxBatchSize > 0`, a JSON array of them (answered with an array).
/// - `POST` with `multipart/form-data`: uploads, held to the configuration's limits and the
///   executor's ``GraphQLHTTPExecutor/uploadLimit(for:context:)``: refused with 413 by their
///   Content-Length before anything is read, or as soon as the bytes read pass a limit. The
///   answer goes out at once; whatever the client still sends of that body, Hummingbird reads
///   and drops (nothing is kept) before the connection's next request.
/// - Anything else: 415 for other content types, 405 for other methods, 406 when the
///   `Accept` header allows neither `application/graphql-response+json` nor `application/json`.
///
/// It serves any schema: the executor (``GraphQLHTTPExecutor``) runs the operations, and decides
/// what a request runs as. For a schema with no tenancy or sessions, an executor over a
/// `GraphQLService` (which keeps each document parsed and validated) is all it takes:
/// ```swift
/// import GraphQL
/// import GraphQLHTTP
/// import Hummingbird
///
/// struct ServiceExecutor: GraphQLHTTPExecutor {
///     let service: GraphQLService
///
///     func execute(_ operation: GraphQLHTTPOperation, request: Request, context: BasicRequestContext) async -> GraphQLHTTPResult {
///         let graphQLRequest = GraphQLRequest(
///             query: operation.query, operationName: operation.operationName,
///             variables: operation.variables, extensions: operation.extensions)
///         if let selected = service.selectedOperation(of: graphQLRequest),
///             !operation.allowedOperationTypes.contains(selected.type) {
///             return .operationNotAllowed(selected.type)    // a mutation over GET: 405
///         }
///         let response = await service.execute(graphQLRequest)
///         return .response(json: response.jsonBytes(), executionStarted: !response.isRequestError)
///     }
/// }
///
/// let router = Router()
/// let handler = GraphQLHTTPHandler(executor: ServiceExecutor(service: GraphQLService(schema: schema)))
/// router.addGraphQLRoutes(handler)                    // GET and POST /graphql
/// try await Application(router: router).runService()
/// ```
///
/// Several schemas (one per tenant, say) are each a handler of their own on their own route, or
/// one handler whose executor picks the schema from the request's context and gives each its
/// own ``GraphQLHTTPExecutor/persistedQueryScope(for:context:)``.
public struct GraphQLHTTPHandler<Executor: GraphQLHTTPExecutor>: Sendable {
    public typealias Context = Executor.Context

    public let executor: Executor
    public let configuration: GraphQLHTTPConfiguration
    private let persistedQueries: GraphQLHTTPPersistedQueries

    public init(executor: Executor, configuration: GraphQLHTTPConfiguration = .init()) {
        self.executor = executor
        self.configuration = configuration
        self.persistedQueries = GraphQLHTTPPersistedQueries(
            capacity: configuration.persistedQueryCapacity, maxBytes: configuration.persistedQueryMaxBytes)
    }

    /// Answers one HTTP request to the GraphQL endpoint.
    public func respond(to request: Request, context: Context) async throws -> Response {
        guard let responseType = GraphQLHTTPResponseType(accept: request.headers[.accept]) else {
            return response(
                for: GraphQLHTTPFailure(
                    status: .notAcceptable,
                    message: "The Accept header allows neither application/graphql-response+json nor application/json.",
                    code: "NOT_ACCEPTABLE"),
                type: .json, request: request, context: context)
        }
        do {
            switch request.method {
            case .get:
                let parameters = try GraphQLHTTPParameters(
                    queryString: request.uri.query, maxJSONDepth: configuration.maxJSONDepth)
                let outcome = await run(parameters, allowing: [.query], uploads: [:], request: request, context: context)
                return response(for: outcome, type: responseType, request: request, context: context)
            case .post:
                return try await respondToPost(request, context: context, type: responseType)
            default:
                var failure = GraphQLHTTPFailure(
                    status: .methodNotAllowed, message: "GraphQL requests use GET or POST.", code: "METHOD_NOT_ALLOWED")
                failure.headers[.allow] = "GET, POST"
                throw failure
            }
        } catch let failure as GraphQLHTTPFailure {
            return response(for: failure, type: responseType, request: request, context: context)
        }
    }

    private func respondToPost(_ request: Request, context: Context, type: GraphQLHTTPResponseType) async throws -> Response {
        guard let contentTypeHeader = request.headers[.contentType] else {
            throw Self.unsupportedMediaType("A POST request needs a Content-Type: application/json.")
        }
        guard let contentType = GraphQLHTTPMediaType(contentTypeHeader) else {
            throw Self.unsupportedMediaType("The Content-Type header is malformed.")
        }
        let body: GraphQLValue
        var uploads: [String: GraphQLUpload] = [:]
        switch (contentType.type, contentType.subtype) {
        case ("application", "json"):
            guard contentType.acceptsUTF8 else { throw Self.unsupportedMediaType("JSON bodies must be UTF-8.") }
            body = try await readJSON(request, limit: min(configuration.maxBodySize, context.maxUploadSize))
        case ("multipart", "form-data") where configuration.uploadsEnabled:
            try checkPreflightHeader(request)
            let limits = GraphQLHTTPUploadLimits(
                configuration: configuration, requestLimit: executor.uploadLimit(for: request, context: context))
            try limits.check(contentLength: request.headers[.contentLength])
            let multipart = try await GraphQLHTTPMultipartRequest.read(
                request, boundary: contentType.parameter("boundary") ?? "", limits: limits, maxJSONDepth: configuration.maxJSONDepth)
            body = multipart.operations
            uploads = multipart.uploads
        default:
            throw Self.unsupportedMediaType(
                "Unsupported Content-Type \(contentType.type)/\(contentType.subtype): send application/json"
                    + (configuration.uploadsEnabled ? " (or multipart/form-data for uploads)." : "."))
        }
        guard case .list(let batch) = body else {
            let outcome = await run(
                try GraphQLHTTPParameters(json: body), allowing: [.query, .mutation], uploads: uploads,
                request: request, context: context)
            return response(for: outcome, type: type, request: request, context: context)
        }
        guard configuration.maxBatchSize > 0 else {
            throw GraphQLHTTPFailure.badRequest(
                "Batched operations are not enabled on this endpoint: send one operation (a JSON object) per request.",
                code: "BATCHING_NOT_ENABLED")
        }
        guard !batch.isEmpty, batch.count <= configuration.maxBatchSize else {
            throw GraphQLHTTPFailure.badRequest(
                "A batch must hold 1 to \(configuration.maxBatchSize) operations; this one holds \(batch.count).")
        }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, entry) in batch.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let outcome: Outcome
            do {
                outcome = await run(
                    try GraphQLHTTPParameters(json: entry), allowing: [.query, .mutation], uploads: uploads,
                    request: request, context: context)
            } catch {
                outcome = .failure(error)
            }
            switch outcome {
            case .failure(var failure):
                failure.extensions = executor.errorExtensions(for: request, context: context)
                failure.body.writeJSON(to: &out)
            case .response(let json, _): out.append(contentsOf: json)
            }
        }
        out.append(UInt8(ascii: "]"))
        return Self.response(status: .ok, type: type, json: out)
    }

    // MARK: - One operation

    private enum Outcome {
        case failure(GraphQLHTTPFailure)
        case response(json: [UInt8], executionStarted: Bool)
    }

    private func run(
        _ parameters: GraphQLHTTPParameters, allowing allowed: Set<OperationType>, uploads: [String: GraphQLUpload],
        request: Request, context: Context
    ) async -> Outcome {
        let resolved: GraphQLHTTPPersistedQueries.Resolved
        do {
            resolved = try resolveDocument(parameters, request: request, context: context)
        } catch {
            if let failure = error.failure { return .failure(failure) }
            let errors = error.graphQLError.map { [Self.adding(executor.errorExtensions(for: request, context: context), to: $0)] } ?? []
            let body: GraphQLValue = .object(["errors": .list(errors)])
            var json: [UInt8] = []
            body.writeJSON(to: &json)
            return .response(json: json, executionStarted: false)
        }
        let operation = GraphQLHTTPOperation(
            query: resolved.query, operationName: parameters.operationName, variables: parameters.variables,
            extensions: parameters.extensions, allowedOperationTypes: allowed)
        let result = await GraphQLUpload.withFiles(uploads) {
            await executor.execute(operation, request: request, context: context)
        }
        switch result {
        case .response(let json, let executionStarted):
            if executionStarted { persistedQueries.keep(resolved) }
            return .response(json: json, executionStarted: executionStarted)
        case .operationNotAllowed(let type) where request.method == .get:
            var failure = GraphQLHTTPFailure(
                status: .methodNotAllowed, message: "Can only perform a \(type.rawValue) operation from a POST request.",
                code: "METHOD_NOT_ALLOWED")
            failure.headers[.allow] = "POST"
            return .failure(failure)
        case .operationNotAllowed(let type):
            let error: GraphQLValue = .object(["message": .string("\(type.rawValue.capitalized) operations are not supported over HTTP.")])
            let body: GraphQLValue = .object(["errors": .list([Self.adding(executor.errorExtensions(for: request, context: context), to: error)])])
            var json: [UInt8] = []
            body.writeJSON(to: &json)
            return .response(json: json, executionStarted: false)
        }
    }

    /// The document `parameters` name: the query sent; else a registered document by its
    /// `documentId` (not found: `PERSISTED_QUERY_NOT_FOUND`) or its persisted-query hash; else
    /// what the persisted-query protocol finds.
    private func resolveDocument(
        _ parameters: GraphQLHTTPParameters, request: Request, context: Context
    ) throws(GraphQLHTTPPersistedQueryError) -> GraphQLHTTPPersistedQueries.Resolved {
        if parameters.query == nil {
            if let id = parameters.documentID {
                guard let text = executor.registeredDocument(id, request: request, context: context) else { throw .notFound }
                return .init(query: text)
            }
            if case .object(let persisted) = parameters.extensions["persistedQuery"] ?? .null,
                case .string(let hash) = persisted["sha256Hash"] ?? .null,
                let text = executor.registeredDocument(hash, request: request, context: context)
            {
                return .init(query: text)
            }
        }
        return try persistedQueries.resolve(parameters, scope: executor.persistedQueryScope(for: request, context: context))
    }

    // MARK: - Reading

    /// The body as JSON, within `limit` (a larger body is refused by its Content-Length before
    /// it is read, or as soon as it grows past the limit) and `maxJSONDepth`. The limit is
    /// `maxBodySize`, or the context's `maxUploadSize` when that is lower (the server-wide
    /// body limit a middleware may set).
    private func readJSON(_ request: Request, limit: Int) async throws -> GraphQLValue {
        let tooLarge = GraphQLHTTPFailure.tooLarge("The request body is larger than \(limit) bytes.")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw tooLarge }
        var buffer = ByteBuffer()
        for try await chunk in request.body {
            guard buffer.readableBytes + chunk.readableBytes <= limit else { throw tooLarge }
            var chunk = chunk
            buffer.writeBuffer(&chunk)
        }
        guard buffer.readableBytes > 0 else {
            throw GraphQLHTTPFailure.badRequest("The request body is empty: send a JSON object with a `query`.")
        }
        do {
            return try GraphQLValue(json: buffer.readableBytesView, maxDepth: configuration.maxJSONDepth)
        } catch {
            throw GraphQLHTTPFailure.badRequest("The request body is not valid JSON: \(error.message) (byte \(error.offset)).")
        }
    }

    private func checkPreflightHeader(_ request: Request) throws {
        guard configuration.multipartRequiresPreflightHeader else { return }
        let names: Set = ["graphql-require-preflight", "apollo-require-preflight", "x-apollo-operation-name"]
        let present = request.headers.contains { names.contains($0.name.canonicalName) && !$0.value.isEmpty }
        guard present else {
            throw GraphQLHTTPFailure.badRequest(
                "Multipart requests must carry a non-empty GraphQL-Require-Preflight (or Apollo-Require-Preflight) header, "
                    + "which a browser sends only after a CORS preflight: this guards uploads against cross-site request forgery.",
                code: "CSRF_PREFLIGHT_REQUIRED")
        }
    }

    // MARK: - Writing

    private func response(for outcome: Outcome, type: GraphQLHTTPResponseType, request: Request, context: Context) -> Response {
        switch outcome {
        case .failure(let failure):
            return response(for: failure, type: type, request: request, context: context)
        case .response(let json, let executionStarted):
            let status: HTTPResponse.Status = type == .graphQLResponseJSON && !executionStarted ? .badRequest : .ok
            return Self.response(status: status, type: type, json: json)
        }
    }

    private func response(for failure: GraphQLHTTPFailure, type: GraphQLHTTPResponseType, request: Request, context: Context) -> Response {
        var failure = failure
        failure.extensions = executor.errorExtensions(for: request, context: context)
        var json: [UInt8] = []
        failure.body.writeJSON(to: &json)
        var response = Self.response(status: failure.status, type: type, json: json)
        response.headers.append(contentsOf: failure.headers)
        return response
    }

    /// `error` (a JSON object) with `extensions` added to its own.
    private static func adding(_ extensions: GraphQLObject, to error: GraphQLValue) -> GraphQLValue {
        guard !extensions.isEmpty, case .object(var object) = error else { return error }
        let own: GraphQLObject = if case .object(let own) = object["extensions"] ?? .null { own } else { [:] }
        object["extensions"] = .object(own.adding(extensions))
        return .object(object)
    }

    private static func response(status: HTTPResponse.Status, type: GraphQLHTTPResponseType, json: [UInt8]) -> Response {
        Response(
            status: status, headers: [.contentType: type.contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }

    private static func unsupportedMediaType(_ message: String) -> GraphQLHTTPFailure {
        GraphQLHTTPFailure(status: .unsupportedMediaType, message: message, code: "UNSUPPORTED_MEDIA_TYPE")
    }
}

extension RouterMethods {
    /// Routes `GET` and `POST` of `path` (`graphql` by default) to `handler`.
    @discardableResult
    public func addGraphQLRoutes<Executor>(_ handler: GraphQLHTTPHandler<Executor>, at path: RouterPath = "graphql") -> Self
    where Executor.Context == Context {
        get(path) { request, context in try await handler.respond(to: request, context: context) }
        post(path) { request, context in try await handler.respond(to: request, context: context) }
        return self
    }
}
