/// The type system, named as in graphql-js (`GraphQLObjectType`, `GraphQLField`, ...).
///
/// Named types are classes because the type graph has cycles (an object's field returns the
/// object itself). A schema is built once, configured (resolvers attached), and then only read:
/// the classes are `@unchecked Sendable` on that promise.

/// A type as used by a field, argument or variable: a named type, a list, or non-null.
public indirect enum GraphQLType: Sendable {
    case named(GraphQLNamedType)
    case list(GraphQLType)
    case nonNull(GraphQLType)
}

/// One of the six kinds of named type.
public enum GraphQLNamedType: Sendable {
    case scalar(GraphQLScalarType)
    case object(GraphQLObjectType)
    case interface(GraphQLInterfaceType)
    case union(GraphQLUnionType)
    case `enum`(GraphQLEnumType)
    case inputObject(GraphQLInputObjectType)
}

extension GraphQLNamedType {
    public var name: String {
        switch self {
        case .scalar(let type): type.name
        case .object(let type): type.name
        case .interface(let type): type.name
        case .union(let type): type.name
        case .enum(let type): type.name
        case .inputObject(let type): type.name
        }
    }

    public var description: String? {
        switch self {
        case .scalar(let type): type.description
        case .object(let type): type.description
        case .interface(let type): type.description
        case .union(let type): type.description
        case .enum(let type): type.description
        case .inputObject(let type): type.description
        }
    }

    /// Scalars and enums: the types a response ends in.
    public var isLeaf: Bool {
        switch self {
        case .scalar, .enum: true
        default: false
        }
    }

    /// Interfaces and unions: types resolved to an object type at run time.
    public var isAbstract: Bool {
        switch self {
        case .interface, .union: true
        default: false
        }
    }

    /// Objects, interfaces and unions: the types that take a selection set.
    public var isComposite: Bool {
        switch self {
        case .object, .interface, .union: true
        default: false
        }
    }

    public var isInputType: Bool {
        switch self {
        case .scalar, .enum, .inputObject: true
        default: false
        }
    }

    public var isOutputType: Bool {
        switch self {
        case .inputObject: false
        default: true
        }
    }

    /// The fields of an object or interface type; nil for other kinds.
    public var fields: FieldMap<GraphQLField>? {
        switch self {
        case .object(let type): type.fields
        case .interface(let type): type.fields
        default: nil
        }
    }
}

extension GraphQLType {
    /// The named type at the heart of the wrappers.
    public var namedType: GraphQLNamedType {
        switch self {
        case .named(let type): type
        case .list(let type), .nonNull(let type): type.namedType
        }
    }

    /// The type without its outermost non-null wrapper.
    public var nullableType: GraphQLType {
        if case .nonNull(let type) = self { type } else { self }
    }

    public var isNonNull: Bool { if case .nonNull = self { true } else { false } }
    public var isList: Bool { if case .list = self { true } else { false } }

    public var isInputType: Bool { namedType.isInputType }
    public var isOutputType: Bool { namedType.isOutputType }

    /// The type as written in GraphQL: `[Entry!]!`.
    public var name: String {
        switch self {
        case .named(let type): type.name
        case .list(let type): "[\(type.name)]"
        case .nonNull(let type): "\(type.name)!"
        }
    }
}

/// An ordered map from names to definitions (fields, arguments, enum values), in the order the
/// schema declares them, which introspection and printing keep.
public struct FieldMap<Element>: Sendable, Sequence where Element: Sendable {
    public private(set) var names: [String] = []
    public private(set) var elements: [Element] = []
    private var index: [String: Int] = [:]

    public init() {}

    public var count: Int { elements.count }
    public var isEmpty: Bool { elements.isEmpty }

    public subscript(name: String) -> Element? {
        guard let position = index[name] else { return nil }
        return elements[position]
    }

    /// Adds an element under a name; a second element of the same name replaces the first.
    public mutating func insert(_ element: Element, named name: String) {
        if let position = index[name] {
            elements[position] = element
        } else {
            index[name] = elements.count
            names.append(name)
            elements.append(element)
        }
    }

    public func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }
}

// MARK: - Named types

public final class GraphQLScalarType: @unchecked Sendable {
    public let name: String
    public var description: String?
    public var specifiedByURL: String?
    /// Output coercion: a resolver's value to a response leaf; throws for a value it cannot
    /// represent (the error message becomes the field error's).
    public var serialize: @Sendable (_ value: any Sendable) throws -> GraphQLValue
    /// Input coercion from a variable's JSON value.
    public var parseValue: @Sendable (_ value: GraphQLValue) throws -> GraphQLValue
    /// Input coercion from a literal in the document (variables already substituted).
    public var parseLiteral: @Sendable (_ value: Value) throws -> GraphQLValue
    public var astNode: ScalarTypeDefinition?
    public var extensionASTNodes: [ScalarTypeDefinition] = []

    public init(
        name: String, description: String? = nil, specifiedByURL: String? = nil,
        serialize: @escaping @Sendable (any Sendable) throws -> GraphQLValue,
        parseValue: @escaping @Sendable (GraphQLValue) throws -> GraphQLValue,
        parseLiteral: @escaping @Sendable (Value) throws -> GraphQLValue
    ) {
        self.name = name
        self.description = description
        self.specifiedByURL = specifiedByURL
        self.serialize = serialize
        self.parseValue = parseValue
        self.parseLiteral = parseLiteral
    }
}

public final class GraphQLObjectType: @unchecked Sendable {
    public let name: String
    public var description: String?
    public var fields = FieldMap<GraphQLField>()
    public var interfaces: [GraphQLInterfaceType] = []
    /// Whether a value resolved for an abstract type belongs to this type, when the abstract
    /// type has no `resolveType`.
    public var isTypeOf: (@Sendable (_ value: any Sendable) -> Bool)?
    public var astNode: ObjectTypeDefinition?
    public var extensionASTNodes: [ObjectTypeDefinition] = []

    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }
}

public final class GraphQLInterfaceType: @unchecked Sendable {
    public let name: String
    public var description: String?
    public var fields = FieldMap<GraphQLField>()
    public var interfaces: [GraphQLInterfaceType] = []
    /// Names the object type of a value of this interface.
    public var resolveType: TypeResolver?
    public var astNode: InterfaceTypeDefinition?
    public var extensionASTNodes: [InterfaceTypeDefinition] = []

    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }
}

public final class GraphQLUnionType: @unchecked Sendable {
    public let name: String
    public var description: String?
    public var types: [GraphQLObjectType] = []
    /// Names the object type of a value of this union.
    public var resolveType: TypeResolver?
    public var astNode: UnionTypeDefinition?
    public var extensionASTNodes: [UnionTypeDefinition] = []

    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }
}

public final class GraphQLEnumType: @unchecked Sendable {
    public let name: String
    public var description: String?
    public var values = FieldMap<GraphQLEnumValue>()
    public var astNode: EnumTypeDefinition?
    public var extensionASTNodes: [EnumTypeDefinition] = []

    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }
}

public struct GraphQLEnumValue: Sendable {
    public var name: String
    public var description: String?
    public var deprecationReason: String?
    public var astNode: EnumValueDefinition?

    public init(name: String, description: String? = nil, deprecationReason: String? = nil) {
        self.name = name
        self.description = description
        self.deprecationReason = deprecationReason
    }
}

public final class GraphQLInputObjectType: @unchecked Sendable {
    public let name: String
    public var description: String?
    public var fields = FieldMap<GraphQLInputField>()
    /// `@oneOf`: exactly one field must be given, and it must not be null.
    public var isOneOf = false
    public var astNode: InputObjectTypeDefinition?
    public var extensionASTNodes: [InputObjectTypeDefinition] = []

    public init(name: String, description: String? = nil) {
        self.name = name
        self.description = description
    }
}

// MARK: - Fields, arguments, input fields

public final class GraphQLField: @unchecked Sendable {
    public let name: String
    public var description: String?
    public var type: GraphQLType
    public var arguments = FieldMap<GraphQLArgument>()
    public var deprecationReason: String?
    /// How the field's value is found; nil means the default resolver (read the field's name
    /// from the parent value).
    public var resolve: FieldResolver?
    /// For a field of the subscription type: the stream of its events (graphql-js's
    /// `subscribe`); nil means the default, the field's name read from the root value.
    public var subscribe: SubscriptionResolver?
    public var astNode: FieldDefinition?

    public init(name: String, type: GraphQLType, description: String? = nil) {
        self.name = name
        self.type = type
        self.description = description
    }
}

/// An argument of a field or directive.
public struct GraphQLArgument: Sendable {
    public var name: String
    public var description: String?
    public var type: GraphQLType
    /// The default, already coerced; nil when there is none (`.null` is an explicit null default).
    public var defaultValue: GraphQLValue?
    public var deprecationReason: String?
    public var astNode: InputValueDefinition?

    public init(
        name: String, type: GraphQLType, description: String? = nil, defaultValue: GraphQLValue? = nil,
        deprecationReason: String? = nil
    ) {
        self.name = name
        self.type = type
        self.description = description
        self.defaultValue = defaultValue
        self.deprecationReason = deprecationReason
    }
}

/// A field of an input object type: the same shape as an argument.
public typealias GraphQLInputField = GraphQLArgument

// MARK: - Directives

public enum DirectiveLocation: String, Sendable, CaseIterable {
    // Executable locations.
    case query = "QUERY"
    case mutation = "MUTATION"
    case subscription = "SUBSCRIPTION"
    case field = "FIELD"
    case fragmentDefinition = "FRAGMENT_DEFINITION"
    case fragmentSpread = "FRAGMENT_SPREAD"
    case inlineFragment = "INLINE_FRAGMENT"
    case variableDefinition = "VARIABLE_DEFINITION"
    /// A variable of a fragment (graphql-js 17's experimental fragment arguments).
    case fragmentVariableDefinition = "FRAGMENT_VARIABLE_DEFINITION"
    // Type system locations.
    case schema = "SCHEMA"
    case scalar = "SCALAR"
    case object = "OBJECT"
    case fieldDefinition = "FIELD_DEFINITION"
    case argumentDefinition = "ARGUMENT_DEFINITION"
    case interface = "INTERFACE"
    case union = "UNION"
    case `enum` = "ENUM"
    case enumValue = "ENUM_VALUE"
    case inputObject = "INPUT_OBJECT"
    case inputFieldDefinition = "INPUT_FIELD_DEFINITION"
    /// A directive definition (graphql-js 17: `@deprecated` may mark a directive).
    case directiveDefinition = "DIRECTIVE_DEFINITION"
}

public final class GraphQLDirective: @unchecked Sendable {
    public let name: String
    public var description: String?
    public var locations: [DirectiveLocation]
    public var arguments = FieldMap<GraphQLArgument>()
    public var isRepeatable: Bool
    public var deprecationReason: String?
    public var astNode: DirectiveDefinition?

    public init(
        name: String, description: String? = nil, locations: [DirectiveLocation], isRepeatable: Bool = false,
        deprecationReason: String? = nil
    ) {
        self.name = name
        self.description = description
        self.locations = locations
        self.isRepeatable = isRepeatable
        self.deprecationReason = deprecationReason
    }
}
