/// How a field's value is found: graphql-js's `GraphQLFieldResolver`, in two flavours so that
/// plain reads never pay for a task or a suspension.
///
/// Every resolver receives the parent value (`source`), the field's coerced `arguments`, the
/// request's `context` (whatever the caller passed to `execute`, e.g. a database transaction and
/// the current person) and a `ResolveInfo`. It returns the field's value, or nil for null:
///
/// - a `GraphQLValue` (any kind), or a Swift `String`, `Int`, `Double`, `Bool` for leaves;
///   an enum value is its name as a `String`;
/// - for a list, a `GraphQLValue.list`, an `[any Sendable]`, or any other `Sequence`;
/// - for an object, any value: it becomes the `source` of that object's fields. The default
///   resolver (a field without `resolve`) reads the field's name from a `GraphQLValue` object, a
///   `GraphQLObject`, a `[String: any Sendable]` or a `GraphQLFieldReadable`;
/// - a `Deferred`, for a value not known yet: a `DataLoader` load (batched with its siblings'
///   loads into one call) or async work. `.async` resolvers are the shorthand for the latter.
///
/// A thrown error becomes a field error with the field's path and locations; throw a
/// `GraphQLError` to choose its message and `extensions`.
///
/// ```swift
/// entry.fields["body"]?.resolve = .sync { source, _, _, _ in (source as! EntryRow).body }
/// query.fields["entries"]?.resolve = .async { _, args, context, _ in
///     try await (context as! RequestContext).db.entries(first: args["first"]?.intValue ?? 20)
/// }
/// ```
public enum FieldResolver: Sendable {
    /// Runs at once, inline in the executor: the right choice for reads of values already in
    /// memory, and for returning a `DataLoader` load.
    case sync(
        @Sendable (_ source: any Sendable, _ arguments: GraphQLObject, _ context: any Sendable, _ info: ResolveInfo)
            throws -> (any Sendable)?)
    /// Runs after the synchronous pass over its siblings, concurrently with the other async
    /// resolvers and the batch loads of the same round (see `Deferred`).
    case async(
        @Sendable (_ source: any Sendable, _ arguments: GraphQLObject, _ context: any Sendable, _ info: ResolveInfo)
            async throws -> (any Sendable)?)
}

/// Names the concrete object type of a value of an abstract type (graphql-js `resolveType`).
/// Returning nil falls back to the default: the value's `__typename` when it is a JSON object
/// that has one, else the first possible type whose `isTypeOf` accepts the value.
public typealias TypeResolver =
    @Sendable (_ value: any Sendable, _ context: any Sendable, _ info: ResolveInfo) throws -> String?

/// What a resolver knows about the field being resolved (graphql-js `GraphQLResolveInfo`).
public struct ResolveInfo: @unchecked Sendable {
    let field: FieldPlan
    let execution: ExecutionContext
    /// The response path of this field: keys of objects and indices of lists, from the root.
    public let path: [PathComponent]

    init(field: FieldPlan, execution: ExecutionContext, path: [PathComponent]) {
        self.field = field
        self.execution = execution
        self.path = path
    }

    public var fieldName: String { field.fieldName }
    /// The field's nodes in the document: several when the same response key is selected twice.
    public var fieldNodes: [Field] { field.nodes }
    public var returnType: GraphQLType { field.definition.type }
    public var parentType: GraphQLObjectType { field.parentType }
    public var schema: GraphQLSchema { execution.schema }
    public var fragments: [String: FragmentDefinition] { execution.fragments }
    public var rootValue: any Sendable { execution.rootValue }
    public var operation: OperationDefinition { execution.operation }
    /// The operation's coerced variables.
    public var variableValues: GraphQLObject { execution.variableValues }
}
