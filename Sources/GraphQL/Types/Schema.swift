/// A schema: the types, the root operation types and the directives, as graphql-js's
/// `GraphQLSchema`. Build one from SDL with `buildSchema` (Types/BuildSchema.swift), check it
/// with `validateSchema`, then attach resolvers by `Type.field`.
public final class GraphQLSchema: @unchecked Sendable {
    public var description: String?
    public var queryType: GraphQLObjectType?
    public var mutationType: GraphQLObjectType?
    public var subscriptionType: GraphQLObjectType?
    /// Every named type, built-in scalars and introspection types included, in definition order.
    public private(set) var typeMap = FieldMap<GraphQLNamedType>()
    public var directives: [GraphQLDirective]
    /// Whether `__schema` and `__type` may be queried.
    public var introspectionEnabled = true
    /// Whether error messages may suggest names that exist ("Did you mean ...?").
    public var suggestionsEnabled = true
    public var astNode: SchemaDefinition?
    public var extensionASTNodes: [SchemaExtension] = []
    /// The SDL the AST nodes were parsed from, for the locations of schema validation errors.
    public var source: Source?

    /// Object types that implement each interface (directly or through another interface),
    /// and interfaces that do, computed once from the type map.
    private var implementations: [String: (objects: [GraphQLObjectType], interfaces: [GraphQLInterfaceType])] = [:]
    private var subTypes: [String: Set<String>] = [:]

    public init(
        description: String? = nil, query: GraphQLObjectType?, mutation: GraphQLObjectType? = nil,
        subscription: GraphQLObjectType? = nil, types: [GraphQLNamedType], directives: [GraphQLDirective]
    ) {
        self.description = description
        self.queryType = query
        self.mutationType = mutation
        self.subscriptionType = subscription
        self.directives = directives
        typeMap = Self.collectTypes(
            types: types, roots: [query, mutation, subscription].compactMap { $0 }, directives: directives)
        computeImplementations()
    }

    /// The type map in graphql-js's order: each given type followed by the types it refers to
    /// (depth first), then the root types', the directive arguments' and the introspection
    /// types. Built-in scalars and introspection types are found through references only, as in
    /// graphql-js. Of two types with one name, the first is kept.
    private static func collectTypes(
        types: [GraphQLNamedType], roots: [GraphQLObjectType], directives: [GraphQLDirective]
    ) -> FieldMap<GraphQLNamedType> {
        var collector = TypeCollector()
        // graphql-js seeds its set with the given types, then takes each out and adds it back
        // with what it refers to: a given type not yet reached sits at its seed position until then.
        for type in types { collector.seed(type) }
        for type in types {
            collector.unseed(type)
            collector.collect(type)
        }
        for root in roots { collector.collect(.object(root)) }
        for directive in directives {
            for argument in directive.arguments { collector.collect(argument.type.namedType) }
        }
        collector.collect(introspectionTypes[0])
        var map = FieldMap<GraphQLNamedType>()
        for case let type? in collector.order { map.insert(type, named: type.name) }
        return map
    }

    public func type(named name: String) -> GraphQLNamedType? { typeMap[name] }

    public func directive(named name: String) -> GraphQLDirective? {
        directives.first { $0.name == name }
    }

    public func rootType(for operation: OperationType) -> GraphQLObjectType? {
        switch operation {
        case .query: queryType
        case .mutation: mutationType
        case .subscription: subscriptionType
        }
    }

    /// The object types a value of an abstract type may have.
    public func possibleTypes(of type: GraphQLNamedType) -> [GraphQLObjectType] {
        switch type {
        case .union(let union): union.types
        case .interface(let interface): implementations[interface.name]?.objects ?? []
        case .object(let object): [object]
        default: []
        }
    }

    public func implementations(of interface: GraphQLInterfaceType)
        -> (objects: [GraphQLObjectType], interfaces: [GraphQLInterfaceType])
    {
        implementations[interface.name] ?? ([], [])
    }

    /// Whether `maybeSubType` is a member of the union, or implements the interface.
    public func isSubType(_ abstractType: GraphQLNamedType, _ maybeSubType: GraphQLNamedType) -> Bool {
        subTypes[abstractType.name]?.contains(maybeSubType.name) ?? false
    }

    private func computeImplementations() {
        for type in typeMap {
            switch type {
            case .object(let object):
                for interface in object.interfaces {
                    implementations[interface.name, default: ([], [])].objects.append(object)
                    subTypes[interface.name, default: []].insert(object.name)
                }
            case .interface(let interface):
                for parent in interface.interfaces {
                    implementations[parent.name, default: ([], [])].interfaces.append(interface)
                    subTypes[parent.name, default: []].insert(interface.name)
                }
            case .union(let union):
                for member in union.types { subTypes[union.name, default: []].insert(member.name) }
            default:
                break
            }
        }
    }
}

/// An insertion-ordered set of named types where a removed type leaves a hole, so that adding
/// it again puts it at the end (the behaviour of the JavaScript `Set` graphql-js collects into).
private struct TypeCollector {
    var order: [GraphQLNamedType?] = []
    var position: [String: Int] = [:]

    mutating func seed(_ type: GraphQLNamedType) {
        guard position[type.name] == nil else { return }
        position[type.name] = order.count
        order.append(type)
    }

    mutating func unseed(_ type: GraphQLNamedType) {
        guard let index = position.removeValue(forKey: type.name) else { return }
        order[index] = nil
    }

    mutating func collect(_ type: GraphQLNamedType) {
        guard position[type.name] == nil else { return }
        seed(type)
        switch type {
        case .union(let union):
            for member in union.types { collect(.object(member)) }
        case .object(let object):
            collectFields(interfaces: object.interfaces, fields: object.fields)
        case .interface(let interface):
            collectFields(interfaces: interface.interfaces, fields: interface.fields)
        case .inputObject(let input):
            for field in input.fields { collect(field.type.namedType) }
        case .scalar, .enum:
            break
        }
    }

    private mutating func collectFields(interfaces: [GraphQLInterfaceType], fields: FieldMap<GraphQLField>) {
        for interface in interfaces { collect(.interface(interface)) }
        for field in fields {
            collect(field.type.namedType)
            for argument in field.arguments { collect(argument.type.namedType) }
        }
    }
}
