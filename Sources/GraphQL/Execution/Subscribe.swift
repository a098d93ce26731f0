/// The events of a subscription's root field, as its subscribe resolver produces them: each is
/// the root value of one execution of the operation (the specification's source stream).
public typealias SourceEventStream = AsyncThrowingStream<any Sendable, any Error>

/// Creates the source stream of a subscription's root field (graphql-js's field `subscribe`).
/// It receives the root value, the field's coerced arguments, the context and a `ResolveInfo`,
/// like a resolver; a thrown error is a source error (the subscription gets a response with
/// errors and no data, and no stream).
///
/// ```swift
/// subscription.fields["entryAdded"]?.subscribe = { _, args, context, _ in
///     (context as! RequestContext).hub.stream(of: "entryAdded")
/// }
/// ```
public typealias SubscriptionResolver =
    @Sendable (_ source: any Sendable, _ arguments: GraphQLObject, _ context: any Sendable, _ info: ResolveInfo)
    async throws -> SourceEventStream

/// What subscribing gave (graphql-js's `subscribe` result).
public enum SubscriptionResult: Sendable {
    /// The source stream exists: a response per event.
    case subscribed(SubscriptionStream)
    /// A request error (the document, the operation, the variables) or a source error (the root
    /// field's subscribe resolver threw or gave no stream): a response with errors and no data.
    case failed(GraphQLResponse)
}

/// Runs a subscription operation of a document validated against `schema` (the specification's
/// `Subscribe`): `CreateSourceEventStream`, then, for each event, `ExecuteSubscriptionEvent`
/// through ``SubscriptionStream/responses``.
///
/// - Parameters:
///   - rootValue: the `source` of the root field's subscribe resolver.
///   - contextValue: given to the subscribe resolver, and to every resolver of the events
///     executed by ``SubscriptionStream/responses``.
public func subscribe(
    schema: GraphQLSchema, document: Document, source: Source? = nil,
    rootValue: any Sendable = GraphQLValue.object([:]), contextValue: any Sendable = GraphQLValue.null,
    variableValues: GraphQLObject? = nil, operationName: String? = nil
) async -> SubscriptionResult {
    await PreparedDocument(document: document, source: source).subscribe(
        schema: schema, rootValue: rootValue, contextValue: contextValue, variableValues: variableValues,
        operationName: operationName)
}

extension PreparedDocument {
    /// `CreateSourceEventStream`: the operation selected and its variables coerced as for any
    /// operation, then the subscribe resolver of its one root field called.
    func subscribe(
        schema: GraphQLSchema, rootValue: any Sendable, contextValue: any Sendable, variableValues: GraphQLObject?,
        operationName: String?
    ) async -> SubscriptionResult {
        let selected: SelectedPlan
        switch select(schema: schema, variableValues: variableValues, operationName: operationName) {
        case .success(let found): selected = found
        case .failure(let failure): return .failed(failure.response)
        }
        // Validation (SingleFieldSubscriptionsRule) leaves exactly one root field, without
        // `@skip` or `@include`: the plan's first field is it.
        guard let field = selected.plan.root.fields.first else {
            return .failed(GraphQLResponse(errors: [GraphQLError(message: "Subscription must select one top level field.")]))
        }
        let execution = ExecutionContext(
            schema: schema, document: self, operation: selected.operation, variables: selected.variables,
            rootValue: rootValue, contextValue: contextValue)
        execution.path = [PathEntry(field: field)]
        let events: SourceEventStream
        do {
            let arguments = try execution.arguments(of: field)
            if let subscribe = field.definition.subscribe {
                let info = ResolveInfo(field: field, execution: execution, path: execution.path.components)
                events = try await subscribe(rootValue, arguments, contextValue, info)
            } else {
                let value = try execution.readField(rootValue, field)
                guard let stream = value as? SourceEventStream else {
                    throw GraphQLError(message: "Subscription field must return AsyncIterable. Received: \(inspect(value)).")
                }
                events = stream
            }
        } catch {
            return .failed(GraphQLResponse(errors: [execution.locatedError(error, field)]))
        }
        return .subscribed(
            SubscriptionStream(
                schema: schema, document: self, selected: selected, sourceEvents: events, contextValue: contextValue))
    }
}

/// A subscription whose source stream exists: its events, and the execution of the operation
/// for each of them.
public struct SubscriptionStream: Sendable {
    let schema: GraphQLSchema
    let document: PreparedDocument
    let selected: PreparedDocument.SelectedPlan
    /// The root field's events, as its subscribe resolver gave them (one consumer).
    public let sourceEvents: SourceEventStream
    /// The context the stream was created with, which ``responses`` gives each event.
    public let contextValue: any Sendable

    init(
        schema: GraphQLSchema, document: PreparedDocument, selected: PreparedDocument.SelectedPlan,
        sourceEvents: SourceEventStream, contextValue: any Sendable
    ) {
        self.schema = schema
        self.document = document
        self.selected = selected
        self.sourceEvents = sourceEvents
        self.contextValue = contextValue
    }

    /// `ExecuteSubscriptionEvent`: the operation executed with `event` as its root value, as a
    /// query is (null propagation, errors with paths), in `contextValue` — e.g. a transaction
    /// opened for this event.
    public func execute(event: any Sendable, contextValue: any Sendable) async -> GraphQLResponse {
        let execution = ExecutionContext(
            schema: schema, document: document, operation: selected.operation, variables: selected.variables,
            rootValue: event, contextValue: contextValue)
        return await execution.run(selected.plan, serially: false)
    }

    /// `MapSourceToResponseEvent`: one response per source event, each executed in the
    /// stream's context. An error of the source stream is thrown from the responses' iterator.
    public var responses: SubscriptionResponses { SubscriptionResponses(stream: self) }
}

/// The response stream of a subscription (``SubscriptionStream/responses``).
public struct SubscriptionResponses: AsyncSequence, Sendable {
    public typealias Element = GraphQLResponse
    let stream: SubscriptionStream

    public struct AsyncIterator: AsyncIteratorProtocol {
        let stream: SubscriptionStream
        var events: SourceEventStream.AsyncIterator

        public mutating func next() async throws -> GraphQLResponse? {
            guard let event = try await events.next() else { return nil }
            return await stream.execute(event: event, contextValue: stream.contextValue)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: stream, events: stream.sourceEvents.makeAsyncIterator())
    }
}

extension GraphQLService {
    /// Subscribes with a request: the cached document (or parse and validate it), then
    /// ``subscribe(schema:document:source:rootValue:contextValue:variableValues:operationName:)``.
    /// A document that does not parse or validate gives a failed result with a request error.
    public func subscribe(
        _ request: GraphQLRequest, context: any Sendable = GraphQLValue.null,
        rootValue: any Sendable = GraphQLValue.object([:])
    ) async -> SubscriptionResult {
        switch document(request.query).entry {
        case .invalid(let errors):
            return .failed(GraphQLResponse(errors: errors))
        case .valid(let document):
            return await document.subscribe(
                schema: schema, rootValue: rootValue, contextValue: context, variableValues: request.variables,
                operationName: request.operationName)
        }
    }
}
