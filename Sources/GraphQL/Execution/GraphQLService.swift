import Tracing

/// A schema ready to answer requests: parses, validates and plans each document once (keeping
/// it in a `DocumentCache`), then executes. This is what the HTTP layer serves.
///
/// Each phase is a span of swift-distributed-tracing's bootstrapped tracer: `graphql.parse` and
/// `graphql.validate` (only for a document the cache did not hold) and `graphql.execute` (with
/// `graphql.operation.type` and `graphql.operation.name`), in the caller's trace. A span records no document text and no
/// error message, which may quote the document's literals; without a tracer they cost next to
/// nothing.
///
/// ```swift
/// let service = GraphQLService(schema: schema)
/// let response = await service.execute(request, context: requestContext)
/// // response.isRequestError → 400 with application/graphql-response+json
/// let body = response.jsonBytes()
/// ```
public final class GraphQLService: Sendable {
    public let schema: GraphQLSchema
    public let documentCache: DocumentCache
    public let parseOptions: ParseOptions
    public let validationOptions: ValidationOptions

    public init(
        schema: GraphQLSchema, cacheCapacity: Int = 1_000, parseOptions: ParseOptions = ParseOptions(),
        validationOptions: ValidationOptions = ValidationOptions()
    ) {
        self.schema = schema
        self.documentCache = DocumentCache(capacity: cacheCapacity)
        self.parseOptions = parseOptions
        self.validationOptions = validationOptions
    }

    /// Runs a request: the cached document (or parse and validate it), then `execute`.
    /// A document that does not parse or validate gives a request error (no `data`).
    ///
    /// - Parameters:
    ///   - context: passed to every resolver (graphql-js's `contextValue`).
    ///   - rootValue: the `source` of the root fields.
    public func execute(
        _ request: GraphQLRequest, context: any Sendable = GraphQLValue.null,
        rootValue: any Sendable = GraphQLValue.object([:])
    ) async -> GraphQLResponse {
        await execute(prepare(request), context: context, rootValue: rootValue)
    }

    /// Runs a request ``prepare(_:)`` looked up, without looking its document up again.
    public func execute(
        _ prepared: PreparedRequest, context: any Sendable = GraphQLValue.null,
        rootValue: any Sendable = GraphQLValue.object([:])
    ) async -> GraphQLResponse {
        let request = prepared.request
        switch prepared.entry {
        case .invalid(let errors):
            return GraphQLResponse(errors: errors)
        case .valid(let document):
            return await withSpan("graphql.execute") { span in
                if span.isRecording, case .success(let index) = document.operation(named: request.operationName) {
                    span.attributes["graphql.operation.type"] = document.operations[index].operation.rawValue
                    span.attributes["graphql.operation.name"] = document.operations[index].name?.value
                }
                let response = await document.execute(
                    schema: schema, rootValue: rootValue, contextValue: context, variableValues: request.variables,
                    operationName: request.operationName)
                if !response.errors.isEmpty { span.setStatus(SpanStatus(code: .error)) }
                return response
            }
        }
    }

    /// The operation a request would run: its type (e.g. to refuse a mutation over GET) and the
    /// names of its root fields (through fragments, whatever `@skip`/`@include` say), from the
    /// cached document; nil when the document is invalid or names no operation `execute` could
    /// select: `execute` then answers with the request error.
    public func selectedOperation(of request: GraphQLRequest) -> SelectedOperation? {
        prepare(request).operation
    }

    /// `request` with its document from the cache (or parsed and validated now, and cached): what
    /// a caller that must know the operation before running it looks up once, for
    /// `execute(_:context:rootValue:)`.
    public func prepare(_ request: GraphQLRequest) -> PreparedRequest {
        let (entry, cached) = document(request.query)
        var operation: SelectedOperation?
        if case .valid(let document) = entry, case .success(let index) = document.operation(named: request.operationName) {
            operation = SelectedOperation(type: document.operations[index].operation, rootFieldNames: document.rootFieldNames[index])
        }
        return PreparedRequest(request: request, entry: entry, wasCached: cached, operation: operation)
    }

    /// Why `text` would not run here: its syntax or validation errors, with their locations;
    /// none for a document that parses and validates (it is then cached for `execute`).
    public func documentErrors(_ text: String) -> [GraphQLError] {
        if case .invalid(let errors) = document(text).entry { return errors }
        return []
    }

    /// The document of `text`, parsed and validated, from the cache when it is there (`cached`).
    func document(_ text: String) -> (entry: DocumentCache.Entry, cached: Bool) {
        if let entry = documentCache.entry(for: text) { return (entry, true) }
        let source = Source(text)
        let entry: DocumentCache.Entry
        do {
            let document = try traced("graphql.parse") { () throws(GraphQLError) in try parse(source, options: parseOptions) }
            let errors = traced("graphql.validate") { validate(schema: schema, document: document, source: source, options: validationOptions) }
            entry = errors.isEmpty ? .valid(PreparedDocument(document: document, source: source)) : .invalid(errors)
        } catch {
            entry = .invalid([error])
        }
        documentCache.insert(entry, for: text)
        return (entry, false)
    }
}

/// Runs `body` in a span named `name`, marked as an error (with no message) when it throws.
private func traced<T, Failure: Error>(_ name: String, _ body: () throws(Failure) -> T) throws(Failure) -> T {
    let span = startSpan(name)
    defer { span.end() }
    do {
        return try body()
    } catch {
        span.setStatus(SpanStatus(code: .error))
        throw error
    }
}

/// A request and its document, looked up once by ``GraphQLService/prepare(_:)``.
public struct PreparedRequest: Sendable {
    public let request: GraphQLRequest
    let entry: DocumentCache.Entry
    /// Whether the document came from the cache (parsed and validated by an earlier request).
    public let wasCached: Bool
    /// The operation it would run; nil when the document is invalid or names no operation to run.
    public let operation: SelectedOperation?
}

/// What ``GraphQLService/selectedOperation(of:)`` tells of a request's operation.
public struct SelectedOperation: Sendable, Equatable {
    public var type: OperationType
    /// The fields its root selection set may select.
    public var rootFieldNames: Set<String>
}
