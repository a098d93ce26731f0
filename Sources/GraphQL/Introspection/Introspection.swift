/// The introspection types (`__Schema`, `__Type`, ...) and the meta-fields `__schema`,
/// `__type` and `__typename`, as graphql-js 17 (graphql-core 3.3) defines them.
///
/// Every schema contains these types; their resolvers read the schema's own definitions.

let schemaObjectType = GraphQLObjectType(
    name: "__Schema",
    description: "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all available types "
        + "and directives on the server, as well as the entry points for query, mutation, and subscription operations."
)

let directiveObjectType = GraphQLObjectType(
    name: "__Directive",
    description: "A Directive provides a way to describe alternate runtime execution and type validation behavior "
        + "in a GraphQL document.\n\nIn some cases, you need to provide options to alter GraphQL's execution "
        + "behavior in ways field arguments will not suffice, such as conditionally including or skipping a field. "
        + "Directives provide this by describing additional information to the executor."
)

let directiveLocationEnumType: GraphQLEnumType = {
    let type = GraphQLEnumType(
        name: "__DirectiveLocation",
        description: "A Directive can be adjacent to many parts of the GraphQL language, a __DirectiveLocation "
            + "describes one such possible adjacencies.")
    for location in DirectiveLocation.allCases {
        type.values.insert(
            GraphQLEnumValue(name: location.rawValue, description: location.introspectionDescription),
            named: location.rawValue)
    }
    return type
}()

let typeObjectType = GraphQLObjectType(
    name: "__Type",
    description: "The fundamental unit of any GraphQL Schema is the type. There are many kinds of types in GraphQL "
        + "as represented by the `__TypeKind` enum.\n\nDepending on the kind of a type, certain fields describe "
        + "information about that type. Scalar types provide no information beyond a name, description and "
        + "optional `specifiedByURL`, while Enum types provide their values. Object and Interface types provide "
        + "the fields they describe. Abstract types, Union and Interface, provide the Object types possible at "
        + "runtime. List and NonNull types compose other types."
)

let fieldObjectType = GraphQLObjectType(
    name: "__Field",
    description: "Object and Interface types are described by a list of Fields, each of which has a name, "
        + "potentially a list of arguments, and a return type."
)

let inputValueObjectType = GraphQLObjectType(
    name: "__InputValue",
    description: "Arguments provided to Fields or Directives and the input fields of an InputObject are "
        + "represented as Input Values which describe their type and optionally a default value."
)

let enumValueObjectType = GraphQLObjectType(
    name: "__EnumValue",
    description: "One possible value for a given Enum. Enum values are unique values, not a placeholder for a "
        + "string or numeric value. However an Enum value is returned in a JSON response as a string."
)

/// The kinds `__Type.kind` reports.
public enum TypeKind: String, Sendable, CaseIterable {
    case scalar = "SCALAR"
    case object = "OBJECT"
    case interface = "INTERFACE"
    case union = "UNION"
    case `enum` = "ENUM"
    case inputObject = "INPUT_OBJECT"
    case list = "LIST"
    case nonNull = "NON_NULL"

    var introspectionDescription: String {
        switch self {
        case .scalar: "Indicates this type is a scalar."
        case .object: "Indicates this type is an object. `fields` and `interfaces` are valid fields."
        case .interface:
            "Indicates this type is an interface. `fields`, `interfaces`, and `possibleTypes` are valid fields."
        case .union: "Indicates this type is a union. `possibleTypes` is a valid field."
        case .enum: "Indicates this type is an enum. `enumValues` is a valid field."
        case .inputObject: "Indicates this type is an input object. `inputFields` is a valid field."
        case .list: "Indicates this type is a list. `ofType` is a valid field."
        case .nonNull: "Indicates this type is a non-null. `ofType` is a valid field."
        }
    }
}

let typeKindEnumType: GraphQLEnumType = {
    let type = GraphQLEnumType(
        name: "__TypeKind", description: "An enum describing what kind of type a given `__Type` is.")
    for kind in TypeKind.allCases {
        type.values.insert(
            GraphQLEnumValue(name: kind.rawValue, description: kind.introspectionDescription), named: kind.rawValue)
    }
    return type
}()

extension DirectiveLocation {
    var introspectionDescription: String {
        switch self {
        case .query: "Location adjacent to a query operation."
        case .mutation: "Location adjacent to a mutation operation."
        case .subscription: "Location adjacent to a subscription operation."
        case .field: "Location adjacent to a field."
        case .fragmentDefinition: "Location adjacent to a fragment definition."
        case .fragmentSpread: "Location adjacent to a fragment spread."
        case .inlineFragment: "Location adjacent to an inline fragment."
        case .variableDefinition: "Location adjacent to an operation variable definition."
        case .fragmentVariableDefinition: "Location adjacent to a fragment variable definition."
        case .schema: "Location adjacent to a schema definition."
        case .scalar: "Location adjacent to a scalar definition."
        case .object: "Location adjacent to an object type definition."
        case .fieldDefinition: "Location adjacent to a field definition."
        case .argumentDefinition: "Location adjacent to an argument definition."
        case .interface: "Location adjacent to an interface definition."
        case .union: "Location adjacent to a union definition."
        case .enum: "Location adjacent to an enum definition."
        case .enumValue: "Location adjacent to an enum value definition."
        case .inputObject: "Location adjacent to an input object type definition."
        case .inputFieldDefinition: "Location adjacent to an input object field definition."
        case .directiveDefinition: "Location adjacent to a directive definition."
        }
    }
}

/// The introspection types, in graphql-js's order.
public let introspectionTypes: [GraphQLNamedType] = {
    defineIntrospectionFields()
    attachIntrospectionResolvers()
    return [
        .object(schemaObjectType), .object(directiveObjectType), .enum(directiveLocationEnumType), .object(typeObjectType),
        .object(fieldObjectType), .object(inputValueObjectType), .object(enumValueObjectType), .enum(typeKindEnumType),
    ]
}()

// The types are built in two steps, since their fields refer to one another; reading one
// through these accessors makes sure both steps ran.
public var __Schema: GraphQLObjectType { _ = introspectionTypes; return schemaObjectType }
public var __Directive: GraphQLObjectType { _ = introspectionTypes; return directiveObjectType }
public var __DirectiveLocation: GraphQLEnumType { _ = introspectionTypes; return directiveLocationEnumType }
public var __Type: GraphQLObjectType { _ = introspectionTypes; return typeObjectType }
public var __Field: GraphQLObjectType { _ = introspectionTypes; return fieldObjectType }
public var __InputValue: GraphQLObjectType { _ = introspectionTypes; return inputValueObjectType }
public var __EnumValue: GraphQLObjectType { _ = introspectionTypes; return enumValueObjectType }
public var __TypeKind: GraphQLEnumType { _ = introspectionTypes; return typeKindEnumType }

/// Whether a named type is one of the introspection types (by name, as graphql-js checks).
public func isIntrospectionType(_ type: GraphQLNamedType) -> Bool {
    isIntrospectionTypeName(type.name)
}

func isIntrospectionTypeName(_ name: String) -> Bool {
    switch name {
    case "__Schema", "__Directive", "__DirectiveLocation", "__Type", "__Field", "__InputValue", "__EnumValue",
        "__TypeKind":
        true
    default: false
    }
}

/// `__schema: __Schema!` on the query root type.
public let SchemaMetaFieldDef: GraphQLField = {
    let field = GraphQLField(
        name: "__schema", type: .nonNull(.named(.object(schemaObjectType))),
        description: "Access the current type schema of this server.")
    field.resolve = .sync { _, _, _, info in info.schema }
    return field
}()

/// `__type(name: String!): __Type` on the query root type.
public let TypeMetaFieldDef: GraphQLField = {
    let field = GraphQLField(
        name: "__type", type: .named(.object(typeObjectType)), description: "Request the type information of a single type.")
    field.arguments.insert(GraphQLArgument(name: "name", type: .nonNull(.named(.scalar(GraphQLString)))), named: "name")
    field.resolve = .sync { _, arguments, _, info in
        arguments["name"]?.stringValue.flatMap { info.schema.type(named: $0) }.map(GraphQLType.named)
    }
    return field
}()

/// `__typename: String!` on every object, interface and union.
public let TypeNameMetaFieldDef = GraphQLField(
    name: "__typename", type: .nonNull(.named(.scalar(GraphQLString))),
    description: "The name of the current Object type at runtime.")

// MARK: - Fields

private let stringType = GraphQLType.named(.scalar(GraphQLString))
private let booleanType = GraphQLType.named(.scalar(GraphQLBoolean))
private let typeType = GraphQLType.named(.object(typeObjectType))

private func field(
    _ name: String, _ type: GraphQLType, description: String? = nil, includeDeprecated: Bool = false
) -> GraphQLField {
    let field = GraphQLField(name: name, type: type, description: description)
    if includeDeprecated {
        field.arguments.insert(
            GraphQLArgument(name: "includeDeprecated", type: .nonNull(booleanType), defaultValue: .bool(false)),
            named: "includeDeprecated")
    }
    return field
}

private func nonNullList(_ type: GraphQLObjectType) -> GraphQLType {
    .nonNull(.list(.nonNull(.named(.object(type)))))
}

private func define(_ type: GraphQLObjectType, _ fields: [GraphQLField]) {
    for field in fields { type.fields.insert(field, named: field.name) }
}

private func defineIntrospectionFields() {
    define(schemaObjectType, [
        field("description", stringType),
        field("types", nonNullList(typeObjectType), description: "A list of all types supported by this server."),
        field("queryType", .nonNull(typeType), description: "The type that query operations will be rooted at."),
        field("mutationType", typeType,
              description: "If this server supports mutation, the type that mutation operations will be rooted at."),
        field("subscriptionType", typeType,
              description: "If this server supports subscription, the type that subscription operations will be rooted at."),
        field("directives", nonNullList(directiveObjectType), description: "A list of all directives supported by this server.",
              includeDeprecated: true),
    ])
    define(directiveObjectType, [
        field("name", .nonNull(stringType)),
        field("description", stringType),
        field("isRepeatable", .nonNull(booleanType)),
        field("locations", .nonNull(.list(.nonNull(.named(.enum(directiveLocationEnumType)))))),
        field("args", nonNullList(inputValueObjectType), includeDeprecated: true),
        field("isDeprecated", .nonNull(booleanType)),
        field("deprecationReason", stringType),
    ])
    define(typeObjectType, [
        field("kind", .nonNull(.named(.enum(typeKindEnumType)))),
        field("name", stringType),
        field("description", stringType),
        field("specifiedByURL", stringType),
        field("fields", .list(.nonNull(.named(.object(fieldObjectType)))), includeDeprecated: true),
        field("interfaces", .list(.nonNull(typeType))),
        field("possibleTypes", .list(.nonNull(typeType))),
        field("enumValues", .list(.nonNull(.named(.object(enumValueObjectType)))), includeDeprecated: true),
        field("inputFields", .list(.nonNull(.named(.object(inputValueObjectType)))), includeDeprecated: true),
        field("ofType", typeType),
        field("isOneOf", booleanType),
    ])
    define(fieldObjectType, [
        field("name", .nonNull(stringType)),
        field("description", stringType),
        field("args", nonNullList(inputValueObjectType), includeDeprecated: true),
        field("type", .nonNull(typeType)),
        field("isDeprecated", .nonNull(booleanType)),
        field("deprecationReason", stringType),
    ])
    define(inputValueObjectType, [
        field("name", .nonNull(stringType)),
        field("description", stringType),
        field("type", .nonNull(typeType)),
        field("defaultValue", stringType,
              description: "A GraphQL-formatted string representing the default value for this input value."),
        field("isDeprecated", .nonNull(booleanType)),
        field("deprecationReason", stringType),
    ])
    define(enumValueObjectType, [
        field("name", .nonNull(stringType)),
        field("description", stringType),
        field("isDeprecated", .nonNull(booleanType)),
        field("deprecationReason", stringType),
    ])
}

extension GraphQLSchema {
    /// The definition of the field `name` selected on `parentType`, meta-fields included, as
    /// graphql-js 17's `schema.getField`: `__schema` and `__type` on the query root type,
    /// `__typename` on every object, interface and union. (With `introspectionEnabled` off,
    /// validation rejects `__schema` and `__type` by NoSchemaIntrospectionCustomRule.)
    public func field(_ parentType: GraphQLNamedType, named name: String) -> GraphQLField? {
        if name.hasPrefix("__") {
            switch name {
            case "__typename" where parentType.isComposite: return TypeNameMetaFieldDef
            case "__schema" where isQueryType(parentType): return SchemaMetaFieldDef
            case "__type" where isQueryType(parentType): return TypeMetaFieldDef
            default: break
            }
        }
        return parentType.fields?[name]
    }

    private func isQueryType(_ type: GraphQLNamedType) -> Bool {
        guard case .object(let object) = type else { return false }
        return object === queryType
    }
}
