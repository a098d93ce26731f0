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
        switch prepare(request.query) {
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
        guard case .valid(let document) = prepare(request.query),
            case .success(let index) = document.operation(named: request.operationName)
        else { return nil }
        return SelectedOperation(type: document.operations[index].operation, rootFieldNames: document.rootFieldNames[index])
    }

    /// Why `text` would not run here: its syntax or validation errors, with their locations;
    /// none for a document that parses and validates (it is then cached for `execute`).
    public func documentErrors(_ text: String) -> [GraphQLError] {
        if case .invalid(let errors) = prepare(text) { return errors }
        return []
    }

    /// The document of `text`, parsed and validated, from the cache when it is there.
    func prepare(_ text: String) -> DocumentCache.Entry {
        if let entry = documentCache.entry(for: text) { return entry }
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
        return entry
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

/// What ``GraphQLService/selectedOperation(of:)`` tells of a request's operation.
public struct SelectedOperation: Sendable, Equatable {
    public var type: OperationType
    /// The fields its root selection set may select.
    public var rootFieldNames: Set<String>
}
