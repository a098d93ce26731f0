import Synchronization

/// The state of one execution (graphql-js's `ExecutionContext`): what resolvers see through
/// `ResolveInfo`, the errors so far, the response path being completed, the fields waiting for a
/// round (see `Deferred`) and the request's `DataLoader` queues.
///
/// The synchronous work runs on one task, so everything but the load queues (which async
/// resolvers may reach concurrently) is unsynchronised: `@unchecked Sendable` on that promise.
final class ExecutionContext: @unchecked Sendable {
    let schema: GraphQLSchema
    let document: PreparedDocument
    let operation: OperationDefinition
    let variables: VariableValues
    let rootValue: any Sendable
    let contextValue: any Sendable

    var fragments: [String: FragmentDefinition] { document.fragments }
    var variableValues: GraphQLObject { variables.ordered }
    var source: Source? { document.source }

    @exclusivity(unchecked) var errors: [GraphQLError] = []
    /// The response positions nulled by an error: later errors inside them are dropped, as
    /// graphql-js 17 does (an empty path is the whole `data`).
    private var nulledPositions: Set<[PathComponent]> = []
    // The hot state below is touched for every field: the dynamic exclusivity checks that a
    // class's stored properties get by default would cost more than the work itself. Only the
    // execution's own task touches it.

    /// The path of the value being completed.
    @exclusivity(unchecked) var path: [PathEntry] = []
    /// The nearest enclosing position that may be null: where an error in a non-null position
    /// ends up (the root position is `data` itself).
    @exclusivity(unchecked) var nullable = NullablePosition.root
    /// The tokens being written: the response's main tape, or a later round's fill of a hole
    /// (`tapeNumber`, as in `ResponseTape.Mark`).
    @exclusivity(unchecked) var tape: [ResponseTape.Token] = []
    @exclusivity(unchecked) var tapeNumber = 0
    /// The values of holes, by hole number, and the positions nulled by later rounds' errors.
    @exclusivity(unchecked) var fills: [[ResponseTape.Token]] = []
    @exclusivity(unchecked) var nulledMarks: Set<ResponseTape.Mark> = []
    /// Fields whose value waits for the next round.
    @exclusivity(unchecked) var pending: [Pending] = []
    /// The shapes of the values' types met so far (``ValueShape``).
    @exclusivity(unchecked) var valueShapes: [ObjectIdentifier: ValueShape] = [:]

    private struct LoadQueues {
        var byLoader: [ObjectIdentifier: any LoadQueue] = [:]
        var order: [any LoadQueue] = []
    }
    private let loadQueues = Mutex(LoadQueues())

    init(
        schema: GraphQLSchema, document: PreparedDocument, operation: OperationDefinition, variables: VariableValues,
        rootValue: any Sendable, contextValue: any Sendable
    ) {
        self.schema = schema
        self.document = document
        self.operation = operation
        self.variables = variables
        self.rootValue = rootValue
        self.contextValue = contextValue
    }

    // MARK: - Errors

    /// Adds an error raised at `position` (where null was put), unless that position or one of
    /// its ancestors was nulled already.
    func record(_ error: GraphQLError, at position: [PathComponent]) {
        guard !isNulled(position) else { return }
        nulledPositions.insert(position)
        errors.append(error)
    }

    /// Whether `position` or one of its ancestors has been nulled by an error.
    func isNulled(_ position: [PathComponent]) -> Bool {
        guard !nulledPositions.isEmpty else { return false }
        for length in 0...position.count where nulledPositions.contains(Array(position.prefix(length))) {
            return true
        }
        return false
    }

    /// graphql-js's `locatedError`: an error from a resolver or from completion, given the
    /// locations of the field's nodes (unless it has its own) and the current path.
    func locatedError(_ error: any Error, _ field: FieldPlan) -> GraphQLError {
        if var located = error as? GraphQLError {
            guard located.path.isEmpty else { return located }
            if located.locations.isEmpty { located = located.at(field.nodes.map(\.loc), in: source) }
            located.path = path.components
            return located
        }
        var located = GraphQLError(message: String(describing: error)).at(field.nodes.map(\.loc), in: source)
        located.path = path.components
        return located
    }

    /// The error of a field or list item whose value began at `valueStart` of the tape: null in
    /// a nullable position (what was written of the value is dropped, the error recorded),
    /// otherwise thrown on to the parent.
    func handleFieldError(_ error: any Error, nullable: Bool, _ field: FieldPlan, valueStart: Int) throws {
        let located = locatedError(error, field)
        guard nullable else { throw located }
        record(located, at: path.components)
        tape.removeSubrange(valueStart...)
        tape.append(.value(.null))
    }

    /// The position about to be written, as the nearest nullable one.
    @inline(__always)
    func nullablePosition() -> NullablePosition {
        NullablePosition(depth: path.count, start: ResponseTape.Mark(tape: tapeNumber, offset: tape.count))
    }

    // MARK: - Running

    func run(_ plan: OperationPlan, serially: Bool) async -> GraphQLResponse {
        // The path's entries refer to the plan's fields unretained (PathEntry).
        defer { withExtendedLifetime(plan) {} }
        let root = Parent(rootValue)
        // Room for as many tokens as the plan's last response had (up to 64 Ki: one huge
        // response does not make every later one allocate as much).
        tape.reserveCapacity(min(plan.expectedTokens.load(ordering: .relaxed), 1 << 16))
        if serially {
            // Mutations: each root field completes (its rounds included) before the next starts.
            tape.append(.object(plan.root.keys))
            for field in plan.root.fields {
                path = [PathEntry(field: field)]
                nullable = .root
                do {
                    try executeField(field, root)
                } catch {
                    record(locatedError(error, field), at: [])
                    break
                }
                await drain()
                if isNulled([]) { break }
            }
        } else {
            do {
                try executeFields(plan.root, root)
            } catch {
                // Only a located error of a non-null root field gets here.
                record(error as? GraphQLError ?? GraphQLError(message: String(describing: error)), at: [])
            }
            await drain()
        }
        plan.expectedTokens.store(tape.count, ordering: .relaxed)
        // `data` itself nulled (its position recorded, as every nulled one): the object may be
        // incomplete (a mutation stops there).
        if isNulled([]) {
            return GraphQLResponse(data: .null, errors: errors)
        }
        let data = ResponseTape(tokens: tape, fills: fills, nulled: nulledMarks)
        return GraphQLResponse(data: data, errors: errors)
    }

    // MARK: - Load queues

    func loadQueue<Key, Value>(for loader: DataLoader<Key, Value>) -> TypedLoadQueue<Key, Value> {
        loadQueues.withLock { queues in
            let id = ObjectIdentifier(loader)
            if let queue = queues.byLoader[id] as? TypedLoadQueue<Key, Value> { return queue }
            let queue = TypedLoadQueue(loader: loader)
            queues.byLoader[id] = queue
            queues.order.append(queue)
            return queue
        }
    }

    /// The queues with keys waiting for a batch call, in the order the loaders were first used.
    func queuesWithQueuedKeys() -> [any LoadQueue] {
        loadQueues.withLock { $0.order }.filter(\.hasQueuedKeys)
    }
}

/// A position of the response that may be null: the length of its path, and where its value
/// begins on the tapes.
struct NullablePosition {
    var depth: Int
    var start: ResponseTape.Mark

    /// `data` itself.
    static let root = NullablePosition(depth: 0, start: ResponseTape.Mark(tape: 0, offset: 0))
}

/// The parent value of a selection set: a JSON object (read directly by the default resolver)
/// or any other value.
enum Parent {
    case json(GraphQLObject)
    case value(any Sendable)

    init(json value: GraphQLValue) {
        if case .object(let object) = value { self = .json(object) } else { self = .value(value) }
    }

    init(_ value: any Sendable) {
        switch value {
        case let value as GraphQLValue:
            if case .object(let object) = value { self = .json(object) } else { self = .value(value) }
        case let object as GraphQLObject: self = .json(object)
        default: self = .value(value)
        }
    }

    /// The value as a resolver's `source`.
    var boxed: any Sendable {
        switch self {
        case .json(let object): GraphQLValue.object(object)
        case .value(let value): value
        }
    }
}

extension GraphQLError {
    /// The error with the locations of `nodes` in `source` (none without a source).
    func at(_ nodes: [Location?], in source: Source?) -> GraphQLError {
        var error = GraphQLError(message: message, source: source, nodes: nodes, path: path)
        error.extensions = extensions
        return error
    }
}
