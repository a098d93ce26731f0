/// Building a schema from SDL, as graphql-js's `buildASTSchema` (and the part of
/// `extendSchema` it uses): every definition and extension of the documents is applied, the
/// specified directives are added unless redefined, and without a `schema { }` definition the
/// root types are the types named `Query`, `Mutation` and `Subscription`.
///
/// The result is not checked: run `validateSchema` (or `assertValidSchema`) before use.
/// References that do not fit the strongly typed model (a union member that is not an object
/// type, an interface list naming an object type, a root type that is not an object type) are
/// left out of it; `validateSchema` finds them in the AST and reports them as graphql-js does.

/// Builds a schema from SDL documents, in order; `extend` may extend a type of any document.
/// Throws when a type is referred to but never defined. Defaults of arguments and input fields
/// are coerced to their types; a default that does not coerce is kept as `.null` (and
/// `validateSchema` reports it).
public func buildASTSchema(_ documents: [Document]) throws(GraphQLError) -> GraphQLSchema {
    var builder = SchemaBuilder(documents: documents)
    return try builder.build()
}

/// `buildASTSchema` of one document.
public func buildASTSchema(_ document: Document) throws(GraphQLError) -> GraphQLSchema {
    try buildASTSchema([document])
}

/// Parses SDL sources (e.g. one file per module) and builds one schema from them, as
/// graphql-js's `buildSchema` does for one. Each source is parsed on its own, so a syntax error
/// has the line and column in its own file. With a single source the schema keeps it, and
/// `validateSchema`'s errors are located in it; errors about a schema of several sources have
/// no locations (their messages name the type, field or argument concerned).
public func buildSchema(_ sources: [Source]) throws(GraphQLError) -> GraphQLSchema {
    var documents: [Document] = []
    for source in sources { documents.append(try parse(source)) }
    let schema = try buildASTSchema(documents)
    if sources.count == 1 { schema.source = sources[0] }
    return schema
}

/// `buildSchema` of one source.
public func buildSchema(_ source: Source) throws(GraphQLError) -> GraphQLSchema {
    try buildSchema([source])
}

/// `buildSchema` of SDL text.
public func buildSchema(_ sdl: String) throws(GraphQLError) -> GraphQLSchema {
    try buildSchema([Source(sdl)])
}

private struct SchemaBuilder {
    var schemaDefinition: SchemaDefinition?
    var schemaExtensions: [SchemaExtension] = []
    var typeDefinitions: [TypeDefinition] = []
    var typeExtensions: [String: [TypeExtension]] = [:]
    var directiveDefinitions: [DirectiveDefinition] = []
    var types: [String: GraphQLNamedType] = [:]

    init(documents: [Document]) {
        for document in documents {
            for definition in document.definitions {
                switch definition {
                case .schema(let schema): schemaDefinition = schemaDefinition ?? schema
                case .schemaExtension(let schemaExtension): schemaExtensions.append(schemaExtension)
                case .type(let type): typeDefinitions.append(type)
                case .typeExtension(let typeExtension): typeExtensions[typeExtension.name, default: []].append(typeExtension)
                case .directive(let directive): directiveDefinitions.append(directive)
                case .operation, .fragment: break
                }
            }
        }
    }

    mutating func build() throws(GraphQLError) -> GraphQLSchema {
        // First every named type as an empty shell, so that fields can refer to any of them.
        var ordered: [GraphQLNamedType] = []
        for definition in typeDefinitions where types[definition.name] == nil {
            let type = standardType(named: definition.name) ?? makeShell(definition)
            types[type.name] = type
            ordered.append(type)
        }
        for type in ordered where standardType(named: type.name) == nil {
            try fill(type)
        }

        var directives: [GraphQLDirective] = []
        for definition in directiveDefinitions {
            directives.append(try buildDirective(definition))
        }
        var defaults = DefaultCoercion()
        defaults.coerce(types: ordered, directives: directives)
        for directive in specifiedDirectives where !directives.contains(where: { $0.name == directive.name }) {
            directives.append(directive)
        }

        var roots: [OperationType: GraphQLObjectType] = [:]
        let operationTypes = (schemaDefinition?.operationTypes ?? []) + schemaExtensions.flatMap(\.operationTypes)
        for operationType in operationTypes {
            let type = try namedType(operationType.type.name.value)
            if case .object(let object) = type { roots[operationType.operation] = object }
        }
        if schemaDefinition == nil {
            for (operation, name) in [(OperationType.query, "Query"), (.mutation, "Mutation"), (.subscription, "Subscription")] {
                if case .object(let object) = types[name] { roots[operation] = object }
            }
        }

        let schema = GraphQLSchema(
            description: schemaDefinition?.description?.value, query: roots[.query], mutation: roots[.mutation],
            subscription: roots[.subscription], types: ordered, directives: directives)
        schema.astNode = schemaDefinition
        schema.extensionASTNodes = schemaExtensions
        return schema
    }

    private func standardType(named name: String) -> GraphQLNamedType? {
        if let scalar = specifiedScalarTypes.first(where: { $0.name == name }) { return .scalar(scalar) }
        return introspectionTypes.first { $0.name == name }
    }

    private func makeShell(_ definition: TypeDefinition) -> GraphQLNamedType {
        switch definition {
        case .scalar(let node):
            let scalar = GraphQLScalarType.custom(name: node.name.value, description: node.description?.value)
            scalar.astNode = node
            return .scalar(scalar)
        case .object(let node):
            let object = GraphQLObjectType(name: node.name.value, description: node.description?.value)
            object.astNode = node
            return .object(object)
        case .interface(let node):
            let interface = GraphQLInterfaceType(name: node.name.value, description: node.description?.value)
            interface.astNode = node
            return .interface(interface)
        case .union(let node):
            let union = GraphQLUnionType(name: node.name.value, description: node.description?.value)
            union.astNode = node
            return .union(union)
        case .enum(let node):
            let enumType = GraphQLEnumType(name: node.name.value, description: node.description?.value)
            enumType.astNode = node
            return .enum(enumType)
        case .inputObject(let node):
            let input = GraphQLInputObjectType(name: node.name.value, description: node.description?.value)
            input.astNode = node
            return .inputObject(input)
        }
    }

    /// Fills a type from its definition and its extensions of the same kind.
    private func fill(_ type: GraphQLNamedType) throws(GraphQLError) {
        let extensions = typeExtensions[type.name] ?? []
        switch type {
        case .scalar(let scalar):
            let nodes = extensions.compactMap { if case .scalar(let node) = $0 { node } else { nil } }
            scalar.extensionASTNodes = nodes
            for directives in [scalar.astNode?.directives ?? []] + nodes.map(\.directives) {
                if let url = stringArgument("specifiedBy", "url", in: directives) { scalar.specifiedByURL = url }
            }
        case .object(let object):
            let nodes = extensions.compactMap { if case .object(let node) = $0 { node } else { nil } }
            object.extensionASTNodes = nodes
            for node in [object.astNode!] + nodes {
                object.interfaces += try interfaces(node.interfaces)
                for field in node.fields { object.fields.insert(try buildField(field), named: field.name.value) }
            }
        case .interface(let interface):
            let nodes = extensions.compactMap { if case .interface(let node) = $0 { node } else { nil } }
            interface.extensionASTNodes = nodes
            for node in [interface.astNode!] + nodes {
                interface.interfaces += try interfaces(node.interfaces)
                for field in node.fields { interface.fields.insert(try buildField(field), named: field.name.value) }
            }
        case .union(let union):
            let nodes = extensions.compactMap { if case .union(let node) = $0 { node } else { nil } }
            union.extensionASTNodes = nodes
            for node in [union.astNode!] + nodes {
                for member in node.types {
                    if case .object(let object) = try namedType(member.name.value) { union.types.append(object) }
                }
            }
        case .enum(let enumType):
            let nodes = extensions.compactMap { if case .enum(let node) = $0 { node } else { nil } }
            enumType.extensionASTNodes = nodes
            for node in [enumType.astNode!] + nodes {
                for value in node.values {
                    var enumValue = GraphQLEnumValue(
                        name: value.name.value, description: value.description?.value,
                        deprecationReason: deprecationReason(value.directives))
                    enumValue.astNode = value
                    enumType.values.insert(enumValue, named: value.name.value)
                }
            }
        case .inputObject(let input):
            let nodes = extensions.compactMap { if case .inputObject(let node) = $0 { node } else { nil } }
            input.extensionASTNodes = nodes
            input.isOneOf = input.astNode!.directives.contains { $0.name.value == "oneOf" }
            for node in [input.astNode!] + nodes {
                for field in node.fields { input.fields.insert(try buildInputValue(field), named: field.name.value) }
            }
        }
    }

    private func interfaces(_ names: [NamedType]) throws(GraphQLError) -> [GraphQLInterfaceType] {
        var result: [GraphQLInterfaceType] = []
        for name in names {
            if case .interface(let interface) = try namedType(name.name.value) { result.append(interface) }
        }
        return result
    }

    private func buildField(_ node: FieldDefinition) throws(GraphQLError) -> GraphQLField {
        let field = GraphQLField(name: node.name.value, type: try type(node.type), description: node.description?.value)
        for argument in node.arguments {
            field.arguments.insert(try buildInputValue(argument), named: argument.name.value)
        }
        field.deprecationReason = deprecationReason(node.directives)
        field.astNode = node
        return field
    }

    private func buildInputValue(_ node: InputValueDefinition) throws(GraphQLError) -> GraphQLArgument {
        let type = try type(node.type)
        // The default is coerced once every type is complete (DefaultCoercion).
        var argument = GraphQLArgument(
            name: node.name.value, type: type, description: node.description?.value,
            deprecationReason: deprecationReason(node.directives))
        argument.astNode = node
        return argument
    }

    private func buildDirective(_ node: DirectiveDefinition) throws(GraphQLError) -> GraphQLDirective {
        let directive = GraphQLDirective(
            name: node.name.value, description: node.description?.value,
            locations: node.locations.compactMap { DirectiveLocation(rawValue: $0.value) },
            isRepeatable: node.repeatable, deprecationReason: deprecationReason(node.directives))
        for argument in node.arguments {
            directive.arguments.insert(try buildInputValue(argument), named: argument.name.value)
        }
        directive.astNode = node
        return directive
    }

    private func type(_ node: TypeReference) throws(GraphQLError) -> GraphQLType {
        switch node {
        case .named(let named): .named(try namedType(named.name.value))
        case .list(let list): .list(try type(list.type))
        case .nonNull(let nonNull): .nonNull(try type(nonNull.type))
        }
    }

    private func namedType(_ name: String) throws(GraphQLError) -> GraphQLNamedType {
        if let type = types[name] ?? standardType(named: name) { return type }
        throw GraphQLError(message: "Unknown type: \"\(name)\".")
    }
}

/// Coerces the SDL defaults of arguments and input fields, once all types are built. An input
/// object's field defaults are coerced before any default of that type, since coercing a value
/// fills in the defaults of the fields it leaves out.
private struct DefaultCoercion {
    /// Input objects whose field defaults are done (true) or being done (false).
    private var state: [String: Bool] = [:]

    mutating func coerce(types: [GraphQLNamedType], directives: [GraphQLDirective]) {
        for type in types {
            switch type {
            case .object(let object): for field in object.fields { field.arguments = coerced(field.arguments) }
            case .interface(let interface):
                for field in interface.fields { field.arguments = coerced(field.arguments) }
            case .inputObject(let input): prepare(input)
            default: break
            }
        }
        for directive in directives { directive.arguments = coerced(directive.arguments) }
    }

    private mutating func prepare(_ input: GraphQLInputObjectType) {
        guard state[input.name] == nil else { return }
        state[input.name] = false
        for field in input.fields {
            if case .inputObject(let nested) = field.type.namedType { prepare(nested) }
        }
        input.fields = coerced(input.fields)
        state[input.name] = true
    }

    /// The arguments with their defaults coerced. (Coercing may read the very type whose fields
    /// these are: the new map replaces the old one only when complete.)
    private mutating func coerced(_ arguments: FieldMap<GraphQLArgument>) -> FieldMap<GraphQLArgument> {
        var result = arguments
        for var argument in arguments {
            guard let literal = argument.astNode?.defaultValue else { continue }
            if case .inputObject(let input) = argument.type.namedType { prepare(input) }
            // A default that does not fit is left for validateSchema to report.
            argument.defaultValue = coerceInputLiteral(literal, argument.type) ?? .null
            result.insert(argument, named: argument.name)
        }
        return result
    }
}

/// The reason of a `@deprecated` among `directives`, with its default; nil when not deprecated.
func deprecationReason(_ directives: [Directive]) -> String? {
    guard directives.contains(where: { $0.name.value == "deprecated" }) else { return nil }
    return stringArgument("deprecated", "reason", in: directives) ?? defaultDeprecationReason
}

/// The string value of an argument of the first directive of that name.
private func stringArgument(_ directive: String, _ argument: String, in directives: [Directive]) -> String? {
    guard let found = directives.first(where: { $0.name.value == directive }),
        let value = found.arguments.first(where: { $0.name.value == argument })?.value,
        case .string(let string) = value
    else { return nil }
    return string.value
}

extension GraphQLScalarType {
    /// A custom scalar as graphql-js builds one from SDL: values pass through unchanged (a
    /// literal becomes the value it spells out), until Swift code sets its coercion functions.
    public static func custom(name: String, description: String? = nil) -> GraphQLScalarType {
        GraphQLScalarType(
            name: name, description: description,
            serialize: { value in
                if let runtime = GraphQLValue(swiftValue: value) { return runtime }
                throw GraphQLError(message: "\(name) cannot represent value: \(inspect(value))")
            },
            parseValue: { $0 },
            parseLiteral: { valueFromASTUntyped($0) })
    }
}

/// graphql-js's `valueFromASTUntyped`: a constant literal as the runtime value it spells out
/// (enum values as strings).
public func valueFromASTUntyped(_ literal: Value) -> GraphQLValue {
    switch literal {
    case .variable, .null: .null
    case .int(let int): Int(int.value).map(GraphQLValue.int) ?? .float(Double(int.value) ?? .nan)
    case .float(let float): .float(Double(float.value) ?? .nan)
    case .string(let string): .string(string.value)
    case .boolean(let boolean): .bool(boolean.value)
    case .enum(let value): .string(value.value)
    case .list(let list): .list(list.values.map(valueFromASTUntyped))
    case .object(let object):
        .object(GraphQLObject(uniqueKeysWithValues: object.fields.map { ($0.name.value, valueFromASTUntyped($0.value)) }))
    }
}

extension GraphQLObject {
    /// An object from key-value pairs; of repeated keys the last value wins, at the first's place.
    init(uniqueKeysWithValues pairs: [(String, GraphQLValue)]) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }
}
