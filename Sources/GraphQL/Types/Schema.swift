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
        for type in types { typeMap.insert(type, named: type.name) }
        computeImplementations()
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
