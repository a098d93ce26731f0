import Synchronization

/// An operation compiled for execution, once per document (it is cached with the document):
/// the fields collected for each selection set and object type, their definitions and
/// resolvers, their constant arguments already coerced, and how each value is completed.
/// Executing it then costs what graphql-js spends outside `collectFields`: resolving and
/// completing values.
///
/// `@skip`/`@include` conditions that read variables are part of the plan's identity: a plan
/// is compiled for one set of those variables' values (`conditionKey`), and a document keeps
/// one plan per set it has seen.
final class OperationPlan: Sendable {
    let rootType: GraphQLObjectType
    let root: SelectionPlan
    /// How many tokens the plan's last response had: room reserved for the next one's tape.
    let expectedTokens = Atomic<Int>(0)

    init(rootType: GraphQLObjectType, root: SelectionPlan) {
        self.rootType = rootType
        self.root = root
    }
}

/// The fields of one object type collected from one or more selection sets (graphql-js's
/// grouped field set), in response order.
final class SelectionPlan: Sendable {
    let type: GraphQLObjectType
    /// The response keys, shared by every object this plan produces.
    let keys: [String]
    let fields: [FieldPlan]

    init(type: GraphQLObjectType, fields: [FieldPlan]) {
        self.type = type
        self.keys = fields.map(\.responseKey)
        self.fields = fields
    }
}

/// How a field's value is found.
enum ResolverPlan: Sendable {
    /// Read the field's name from the parent (graphql-js's `defaultFieldResolver`).
    case read
    /// `__typename`: the parent type's name.
    case typename
    case sync(
        @Sendable (any Sendable, GraphQLObject, any Sendable, ResolveInfo) throws -> (any Sendable)?)
    case async(
        @Sendable (any Sendable, GraphQLObject, any Sendable, ResolveInfo) async throws -> (any Sendable)?)
}

/// A field's arguments, coerced at compile time when they use no variable.
enum ArgumentsPlan: Sendable {
    case constant(GraphQLObject)
    case failed(GraphQLError)
    /// Coerced at each execution: they read variables.
    case variable
}

/// How a resolved value becomes a response value (graphql-js's `completeValue`), with the
/// type's shape decided once: non-null is a flag rather than a wrapper, and the built-in scalars
/// are told apart so that a JSON value of the right kind passes through untouched. The parts are
/// stored properties beside a payload-free `kind`, which the executor switches on without
/// copying (and retaining) an enum's payload for every value.
final class Completion: Sendable {
    enum Kind: Sendable {
        /// The built-in scalars.
        case string, id, int, float, boolean
        case scalar, enumeration, list, object, abstract
    }

    let isNullable: Bool
    let kind: Kind
    /// For scalars (built-in ones included).
    let scalar: GraphQLScalarType?
    /// For enums: the type and its value names (compared in order: enums are small).
    let enumType: GraphQLEnumType?
    let enumNames: [String]
    /// For lists: how an item completes.
    let item: Completion?
    /// For object types.
    let plan: SelectionPlan?
    /// For interfaces and unions.
    let abstract: AbstractPlan?

    init(
        isNullable: Bool, kind: Kind, scalar: GraphQLScalarType? = nil, enumType: GraphQLEnumType? = nil,
        item: Completion? = nil, plan: SelectionPlan? = nil, abstract: AbstractPlan? = nil
    ) {
        self.isNullable = isNullable
        self.kind = kind
        self.scalar = scalar
        self.enumType = enumType
        self.enumNames = enumType?.values.names ?? []
        self.item = item
        self.plan = plan
        self.abstract = abstract
    }
}

extension Completion {
    /// Whether a JSON leaf is its own completion: a built-in scalar's value of the right kind,
    /// or an enum value's name. (`completeJSON` decides every other case.)
    @inline(__always)
    func passesThrough(_ value: GraphQLValue?) -> Bool {
        guard let value else { return false }
        return switch (kind, value) {
        case (.string, .string), (.id, .string), (.boolean, .bool): true
        case (.int, .int(let int)): int >= graphQLMinInt && int <= graphQLMaxInt
        case (.float, .float(let double)): double.isFinite
        case (.enumeration, .string(let name)): enumNames.contains(name)
        default: false
        }
    }
}

/// One response key of a selection set: the field nodes merged under it and everything needed
/// to resolve and complete it.
final class FieldPlan: Sendable {
    let responseKey: String
    let fieldName: String
    let nodes: [Field]
    let parentType: GraphQLObjectType
    let definition: GraphQLField
    let resolver: ResolverPlan
    let arguments: ArgumentsPlan
    let completion: Completion
    /// Where the field's name was last found in a JSON parent's keys: the objects of one list
    /// usually share their key order, so the first comparison nearly always hits.
    private let keyHint = Atomic<Int>(0)

    init(
        responseKey: String, nodes: [Field], parentType: GraphQLObjectType, definition: GraphQLField,
        resolver: ResolverPlan, arguments: ArgumentsPlan, completion: Completion
    ) {
        self.responseKey = responseKey
        self.fieldName = nodes[0].name.value
        self.nodes = nodes
        self.parentType = parentType
        self.definition = definition
        self.resolver = resolver
        self.arguments = arguments
        self.completion = completion
        self.isNullable = completion.isNullable
        if case .read = resolver { readsParent = true } else { readsParent = false }
    }

    let isNullable: Bool
    /// Whether the default resolver reads the field from the parent.
    let readsParent: Bool

    /// The default resolver over a JSON object: the value under the field's name (nil when the
    /// key is absent). A value `{"__error": "message"}` raises a field error with that message:
    /// the contract of `storykeep gql run` and the execution corpus.
    func read(_ object: GraphQLObject) throws -> GraphQLValue? {
        let keys = object.keys
        var index = keyHint.load(ordering: .relaxed)
        if index >= keys.count || keys[index] != fieldName {
            guard let found = keys.firstIndex(of: fieldName) else { return nil }
            index = found
            keyHint.store(found, ordering: .relaxed)
        }
        let value = object.values[index]
        if case .object(let inner) = value, inner.count == 1, inner.keys[0] == "__error",
            case .string(let message) = inner.values[0]
        {
            throw GraphQLError(message: message)
        }
        return value
    }
}

/// The selection plans of a field of an abstract type, one per runtime object type, compiled
/// the first time a value of that type is met.
final class AbstractPlan: Sendable {
    let type: GraphQLNamedType
    let nodes: [Field]
    let compiler: PlanCompiler
    private let plans = Mutex<[ObjectIdentifier: SelectionPlan]>([:])

    init(type: GraphQLNamedType, nodes: [Field], compiler: PlanCompiler) {
        self.type = type
        self.nodes = nodes
        self.compiler = compiler
    }

    func plan(for object: GraphQLObjectType) -> SelectionPlan {
        let key = ObjectIdentifier(object)
        if let plan = plans.withLock({ $0[key] }) { return plan }
        let plan = compiler.subPlan(for: object, nodes: nodes)
        return plans.withLock { plans in
            if let existing = plans[key] { return existing }
            plans[key] = plan
            return plan
        }
    }
}
