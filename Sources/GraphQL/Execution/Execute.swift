import Synchronization

/// Runs an operation of a document that has been validated against `schema` (graphql-js's
/// `execute`): selects the operation, coerces the variables, then resolves and completes every
/// field. Request errors (no such operation, bad variables) give a response without `data`.
///
/// - Parameters:
///   - source: the text the document was parsed from, for the line and column of errors.
///   - rootValue: the `source` of the root fields; a `GraphQLValue` object is read by the
///     default resolvers.
///   - contextValue: passed to every resolver, e.g. the request's database transaction.
public func execute(
    schema: GraphQLSchema, document: Document, source: Source? = nil,
    rootValue: any Sendable = GraphQLValue.object([:]), contextValue: any Sendable = GraphQLValue.null,
    variableValues: GraphQLObject? = nil, operationName: String? = nil
) async -> GraphQLResponse {
    let prepared = PreparedDocument(document: document, source: source)
    return await prepared.execute(
        schema: schema, rootValue: rootValue, contextValue: contextValue, variableValues: variableValues,
        operationName: operationName)
}

/// A document ready to run: its fragments and operations indexed, and its compiled plans. The
/// document cache keeps these, so a repeated request compiles nothing.
final class PreparedDocument: Sendable {
    let document: Document
    let source: Source?
    let fragments: [String: FragmentDefinition]
    let operations: [OperationDefinition]
    /// Per operation, the variables its `@skip`/`@include` conditions read.
    private let conditionVariables: [[String]]
    /// Per operation, the names of the fields its root selection set may select (through
    /// fragments, whatever its conditions say).
    let rootFieldNames: [Set<String>]
    private let plans = Mutex<[PlanKey: OperationPlan]>([:])

    private struct PlanKey: Hashable {
        var operation: Int
        var conditions: [GraphQLValue?]
    }

    /// Plans kept per document: one per set of condition values, up to this many.
    private static let maxPlans = 16

    init(document: Document, source: Source?) {
        self.document = document
        self.source = source
        var fragments: [String: FragmentDefinition] = [:]
        var operations: [OperationDefinition] = []
        for definition in document.definitions {
            switch definition {
            case .operation(let operation): operations.append(operation)
            case .fragment(let fragment): fragments[fragment.name.value] = fragment
            default: break
            }
        }
        self.fragments = fragments
        self.operations = operations
        self.conditionVariables = operations.map { $0.conditionVariables(fragments: fragments) }
        self.rootFieldNames = operations.map { Self.fieldNames(of: $0.selectionSet, fragments: fragments) }
    }

    /// The names of the fields `selectionSet` selects at its own level, through fragments.
    private static func fieldNames(of selectionSet: SelectionSet, fragments: [String: FragmentDefinition]) -> Set<String> {
        var names: Set<String> = []
        var spread: Set<String> = []
        func walk(_ set: SelectionSet) {
            for selection in set.selections {
                switch selection {
                case .field(let field): names.insert(field.name.value)
                case .inlineFragment(let inline): walk(inline.selectionSet)
                case .fragmentSpread(let fragmentSpread):
                    guard spread.insert(fragmentSpread.name.value).inserted,
                        let fragment = fragments[fragmentSpread.name.value]
                    else { continue }
                    walk(fragment.selectionSet)
                }
            }
        }
        walk(selectionSet)
        return names
    }

    /// The compiled plan of an operation for these variables' `@skip`/`@include` values.
    private func plan(
        _ index: Int, rootType: GraphQLObjectType, schema: GraphQLSchema, variables: VariableValues
    ) -> OperationPlan {
        let names = conditionVariables[index]
        let key = PlanKey(operation: index, conditions: names.map { variables.byName[$0] })
        if let plan = plans.withLock({ $0[key] }) { return plan }
        var values: [String: GraphQLValue] = [:]
        for name in names { values[name] = variables.byName[name] }
        let compiler = PlanCompiler(schema: schema, fragments: fragments, conditionValues: values, source: source)
        let plan = compiler.compile(operations[index], rootType: rootType)
        return plans.withLock { plans in
            if let existing = plans[key] { return existing }
            if plans.count < Self.maxPlans { plans[key] = plan }
            return plan
        }
    }

    /// graphql-js's operation selection, with its messages.
    func operation(named name: String?) -> Result<Int, GraphQLError> {
        guard let name else {
            switch operations.count {
            case 0: return .failure(GraphQLError(message: "Must provide an operation."))
            case 1: return .success(0)
            default:
                return .failure(GraphQLError(message: "Must provide operation name if query contains multiple operations."))
            }
        }
        // The last operation of that name, as graphql-js's loop leaves it.
        guard let index = operations.lastIndex(where: { $0.name?.value == name }) else {
            return .failure(GraphQLError(message: "Unknown operation named \"\(name)\"."))
        }
        return .success(index)
    }

    func execute(
        schema: GraphQLSchema, rootValue: any Sendable, contextValue: any Sendable, variableValues: GraphQLObject?,
        operationName: String?
    ) async -> GraphQLResponse {
        let selected: SelectedPlan
        switch select(schema: schema, variableValues: variableValues, operationName: operationName) {
        case .success(let found): selected = found
        case .failure(let failure): return failure.response
        }
        let operation = selected.operation
        let context = ExecutionContext(
            schema: schema, document: self, operation: operation, variables: selected.variables, rootValue: rootValue,
            contextValue: contextValue)
        return await context.run(selected.plan, serially: operation.operation == .mutation)
    }

    /// An operation chosen to run, its variables coerced and its plan compiled for them.
    struct SelectedPlan {
        var operation: OperationDefinition
        var variables: VariableValues
        var plan: OperationPlan
    }

    /// The operation named `operationName`, its variables and its plan; or the response of a
    /// request error (no such operation, variables that do not coerce), or of a schema without
    /// the operation's root type.
    func select(
        schema: GraphQLSchema, variableValues: GraphQLObject?, operationName: String?
    ) -> Result<SelectedPlan, FailedResponse> {
        let index: Int
        switch operation(named: operationName) {
        case .success(let found): index = found
        case .failure(let error): return .failure(FailedResponse(GraphQLResponse(errors: [error])))
        }
        let operation = operations[index]
        let variables: VariableValues
        switch getVariableValues(
            schema: schema, definitions: operation.variableDefinitions, inputs: variableValues ?? [:], source: source)
        {
        case .success(let coerced): variables = coerced
        case .failure(let failure): return .failure(FailedResponse(GraphQLResponse(errors: failure.errors)))
        }
        guard let rootType = schema.rootType(for: operation.operation) else {
            let error = GraphQLError(
                message: "Schema is not configured to execute \(operation.operation.rawValue) operation.",
                source: source, nodes: [operation.loc])
            return .failure(FailedResponse(GraphQLResponse(data: .null, errors: [error])))
        }
        let plan = plan(index, rootType: rootType, schema: schema, variables: variables)
        return .success(SelectedPlan(operation: operation, variables: variables, plan: plan))
    }
}

/// A response given instead of running an operation, as the failure of a `Result`.
struct FailedResponse: Error {
    var response: GraphQLResponse

    init(_ response: GraphQLResponse) {
        self.response = response
    }
}
