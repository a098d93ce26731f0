/// Schema validation, as graphql-js 17's `validateSchema`: the root types, the directive
/// definitions and every type are checked against the rules of the type system, with
/// graphql-js's messages, in its order, located at the SDL nodes concerned (when the schema was
/// built from SDL and knows its `source`).
///
/// Validate once after building and attaching resolvers (the result is not cached): execution
/// assumes a valid schema.

/// Every way the schema breaks the rules of the type system; empty for a valid schema.
public func validateSchema(_ schema: GraphQLSchema) -> [GraphQLError] {
    var context = SchemaValidationContext(schema: schema)
    context.validateRootTypes()
    context.validateDirectives()
    context.validateTypes()
    return context.errors
}

/// Throws one error whose message lists all of `validateSchema`'s, blank-line separated.
public func assertValidSchema(_ schema: GraphQLSchema) throws(GraphQLError) {
    let errors = validateSchema(schema)
    guard errors.isEmpty else {
        throw GraphQLError(message: errors.map(\.message).joined(separator: "\n\n"))
    }
}

struct SchemaValidationContext {
    let schema: GraphQLSchema
    var errors: [GraphQLError] = []

    init(schema: GraphQLSchema) {
        self.schema = schema
    }

    mutating func report(_ message: String, _ nodes: [Location?] = []) {
        errors.append(GraphQLError(message: message, source: schema.source, nodes: nodes))
    }

    // MARK: Root types

    mutating func validateRootTypes() {
        let roots: [(OperationType, GraphQLNamedType?)] = [.query, .mutation, .subscription].map { ($0, rootType(for: $0)) }
        if roots[0].1 == nil { report("Query root type must be provided.", [schema.astNode?.loc]) }
        var byType: [(name: String, operations: [OperationType])] = []
        for (operation, type) in roots {
            guard let type else { continue }
            guard case .object = type else {
                let name = operation.rawValue.prefix(1).uppercased() + operation.rawValue.dropFirst()
                let ifProvided = operation == .query ? "" : " if provided"
                report(
                    "\(name) root type must be Object type\(ifProvided), it cannot be \(type.name).",
                    [operationTypeNode(operation)?.loc ?? type.definitionLocation])
                continue
            }
            if let index = byType.firstIndex(where: { $0.name == type.name }) {
                byType[index].operations.append(operation)
            } else {
                byType.append((type.name, [operation]))
            }
        }
        for (name, operations) in byType where operations.count > 1 {
            report(
                "All root types must be different, \"\(name)\" type is used as "
                    + andList(operations.map(\.rawValue)) + " root types.",
                operations.map { operationTypeNode($0)?.loc })
        }
    }

    /// The root type as written, whatever its kind (the schema keeps object types only): named
    /// by `schema { }`, or else the type of the default name if it came from SDL.
    private func rootType(for operation: OperationType) -> GraphQLNamedType? {
        if let object = schema.rootType(for: operation) { return .object(object) }
        if let node = operationTypeNode(operation) { return schema.type(named: node.name.value) }
        let defaultName = operation.rawValue.prefix(1).uppercased() + operation.rawValue.dropFirst()
        guard schema.astNode == nil, let type = schema.type(named: defaultName), type.hasDefinitionNode else { return nil }
        return type
    }

    private func operationTypeNode(_ operation: OperationType) -> NamedType? {
        let definitions = [schema.astNode?.operationTypes ?? []] + schema.extensionASTNodes.map(\.operationTypes)
        for operationTypes in definitions {
            if let found = operationTypes.first(where: { $0.operation == operation }) { return found.type }
        }
        return nil
    }

    // MARK: Directives

    mutating func validateDirectives() {
        for directive in schema.directives {
            validateName(directive.name, directive.astNode?.loc)
            if directive.locations.isEmpty {
                report("Directive @\(directive.name) must include 1 or more locations.", [directive.astNode?.loc])
            }
            for argument in directive.arguments {
                validateInputValue(
                    argument, "@\(directive.name)(\(argument.name):)", "argument", typeLocation: argument.astNode?.loc)
            }
        }
    }

    /// What an argument (of a directive or a field) and an input field must be: its name not
    /// reserved, an input type (reported at `typeLocation`), not deprecated when required, a
    /// default value of its type. `kind` names it in messages: "argument", "input field".
    private mutating func validateInputValue(
        _ value: GraphQLArgument, _ coordinate: String, _ kind: String, typeLocation: Location?
    ) {
        validateName(value.name, value.astNode?.loc)
        if !value.type.isInputType {
            report("The type of \(coordinate) must be Input Type but got: \(value.type.name).", [typeLocation])
        }
        if value.isRequired, value.deprecationReason != nil {
            let deprecated = value.astNode?.directives.first { $0.name.value == "deprecated" }
            report("Required \(kind) \(coordinate) cannot be deprecated.", [deprecated?.loc, value.astNode?.type.loc])
        }
        validateDefaultValue(value, coordinate)
    }

    private mutating func validateDefaultValue(_ argument: GraphQLArgument, _ coordinate: String) {
        guard let literal = argument.astNode?.defaultValue else { return }
        var errors: [InputValueError] = []
        validateInputLiteral(literal, argument.type) { errors.append($0) }
        for error in errors {
            report(
                "\(coordinate) has invalid default value\(pathSuffix(error.path)): \(error.message)",
                [error.node ?? literal.valueLocation])
        }
    }

    private mutating func validateName(_ name: String, _ node: Location?) {
        if name.hasPrefix("__") {
            report("Name \"\(name)\" must not begin with \"__\", which is reserved by GraphQL introspection.", [node])
        }
    }

    // MARK: Types

    mutating func validateTypes() {
        var inputObjects: [GraphQLInputObjectType] = []
        var defaultCycles = DefaultValueCycleDetector()
        for type in schema.typeMap {
            if !isIntrospectionType(type) { validateName(type.name, type.definitionLocation) }
            switch type {
            case .object(let object):
                validateFields(object.name, object.fields, [object.astNode?.loc] + object.extensionASTNodes.map(\.loc))
                validateInterfaces(
                    .object(object), interfaces: object.interfaces,
                    nodes: [object.astNode].compactMap { $0 }.map(\.interfaces) + object.extensionASTNodes.map(\.interfaces))
            case .interface(let interface):
                validateFields(
                    interface.name, interface.fields, [interface.astNode?.loc] + interface.extensionASTNodes.map(\.loc))
                validateInterfaces(
                    .interface(interface), interfaces: interface.interfaces,
                    nodes: [interface.astNode].compactMap { $0 }.map(\.interfaces)
                        + interface.extensionASTNodes.map(\.interfaces))
            case .union(let union): validateUnionMembers(union)
            case .enum(let enumType): validateEnumValues(enumType)
            case .inputObject(let input):
                validateInputFields(input)
                inputObjects.append(input)
                defaultCycles.check(input, &self)
            case .scalar: break
            }
        }
        detectNonFiniteInputObjects(inputObjects)
    }

    private mutating func validateFields(_ typeName: String, _ fields: FieldMap<GraphQLField>, _ typeNodes: [Location?]) {
        if fields.isEmpty { report("Type \(typeName) must define one or more fields.", typeNodes) }
        for field in fields {
            validateName(field.name, field.astNode?.loc)
            if !field.type.isOutputType {
                report(
                    "The type of \(typeName).\(field.name) must be Output Type but got: \(field.type.name).",
                    [field.astNode?.type.loc])
            }
            for argument in field.arguments {
                validateInputValue(
                    argument, "\(typeName).\(field.name)(\(argument.name):)", "argument", typeLocation: argument.astNode?.type.loc)
            }
        }
    }

    /// `interfaces` is what the schema holds; `nodes` the `implements` lists as written, which
    /// may also name types that are not interfaces.
    private mutating func validateInterfaces(
        _ type: GraphQLNamedType, interfaces: [GraphQLInterfaceType], nodes: [[NamedType]]
    ) {
        let written: [GraphQLNamedType] =
            nodes.isEmpty
            ? interfaces.map { .interface($0) }
            : nodes.flatMap { $0 }.compactMap { schema.type(named: $0.name.value) }
        var seen: Set<String> = []
        for candidate in written {
            guard case .interface(let interface) = candidate else {
                report(
                    "Type \(type.name) must only implement Interface types, it cannot implement \(candidate.name).",
                    implementsNodes(nodes, candidate.name))
                continue
            }
            if type.name == interface.name {
                report(
                    "Type \(type.name) cannot implement itself because it would create a circular reference.",
                    implementsNodes(nodes, interface.name))
            }
            if seen.contains(interface.name) {
                report("Type \(type.name) can only implement \(interface.name) once.", implementsNodes(nodes, interface.name))
                continue
            }
            seen.insert(interface.name)
            validateImplementsAncestors(type, interfaces, interface, nodes)
            validateImplementsInterface(type, interface)
        }
    }

    private func implementsNodes(_ nodes: [[NamedType]], _ name: String) -> [Location?] {
        nodes.flatMap { $0 }.filter { $0.name.value == name }.map(\.loc)
    }

    private mutating func validateImplementsAncestors(
        _ type: GraphQLNamedType, _ interfaces: [GraphQLInterfaceType], _ interface: GraphQLInterfaceType,
        _ nodes: [[NamedType]]
    ) {
        let interfaceNodes = [interface.astNode].compactMap { $0 }.map(\.interfaces) + interface.extensionASTNodes.map(\.interfaces)
        for transitive in interface.interfaces where !interfaces.contains(where: { $0 === transitive }) {
            let message =
                transitive.name == type.name
                ? "Type \(type.name) cannot implement \(interface.name) because it would create a circular reference."
                : "Type \(type.name) must implement \(transitive.name) because it is implemented by \(interface.name)."
            report(message, implementsNodes(interfaceNodes, transitive.name) + implementsNodes(nodes, interface.name))
        }
    }

    private mutating func validateImplementsInterface(_ type: GraphQLNamedType, _ interface: GraphQLInterfaceType) {
        let fields = type.fields ?? FieldMap()
        let typeNodes = type.definitionLocations
        for interfaceField in interface.fields {
            let fieldName = interfaceField.name
            guard let field = fields[fieldName] else {
                report(
                    "Interface field \(interface.name).\(fieldName) expected but \(type.name) does not provide it.",
                    [interfaceField.astNode?.loc] + typeNodes)
                continue
            }
            if !isTypeSubTypeOf(schema, field.type, interfaceField.type) {
                report(
                    "Interface field \(interface.name).\(fieldName) expects type \(interfaceField.type.name) but "
                        + "\(type.name).\(fieldName) is type \(field.type.name).",
                    [interfaceField.astNode?.type.loc, field.astNode?.type.loc])
            }
            for interfaceArgument in interfaceField.arguments {
                let argumentName = interfaceArgument.name
                guard let argument = field.arguments[argumentName] else {
                    report(
                        "Interface field argument \(interface.name).\(fieldName)(\(argumentName):) expected but "
                            + "\(type.name).\(fieldName) does not provide it.",
                        [interfaceArgument.astNode?.loc, field.astNode?.loc])
                    continue
                }
                if !isEqualType(interfaceArgument.type, argument.type) {
                    report(
                        "Interface field argument \(interface.name).\(fieldName)(\(argumentName):) expects type "
                            + "\(interfaceArgument.type.name) but \(type.name).\(fieldName)(\(argumentName):) is type "
                            + "\(argument.type.name).",
                        [interfaceArgument.astNode?.type.loc, argument.astNode?.type.loc])
                }
            }
            for argument in field.arguments where interfaceField.arguments[argument.name] == nil && argument.isRequired {
                report(
                    "Argument \"\(type.name).\(fieldName)(\(argument.name):)\" must not be required type "
                        + "\"\(argument.type.name)\" if not provided by the Interface field "
                        + "\"\(interface.name).\(fieldName)\".",
                    [argument.astNode?.loc, interfaceField.astNode?.loc])
            }
            if field.deprecationReason != nil && interfaceField.deprecationReason == nil {
                let deprecated = field.astNode?.directives.first { $0.name.value == "deprecated" }
                report(
                    "Interface field \(interface.name).\(fieldName) is not deprecated, so implementation field "
                        + "\(type.name).\(fieldName) must not be deprecated.",
                    [deprecated?.loc, field.astNode?.type.loc])
            }
        }
    }

    private mutating func validateUnionMembers(_ union: GraphQLUnionType) {
        let nodes = [union.astNode].compactMap { $0 }.map(\.types) + union.extensionASTNodes.map(\.types)
        let members: [GraphQLNamedType] =
            nodes.isEmpty
            ? union.types.map { .object($0) }
            : nodes.flatMap { $0 }.compactMap { schema.type(named: $0.name.value) }
        if members.isEmpty {
            report(
                "Union type \(union.name) must define one or more member types.",
                [union.astNode?.loc] + union.extensionASTNodes.map(\.loc))
        }
        var seen: Set<String> = []
        for member in members {
            let memberNodes = nodes.flatMap { $0 }.filter { $0.name.value == member.name }.map(\.loc)
            guard case .object = member else {
                report(
                    "Union type \(union.name) can only include Object types, it cannot include \(member.name).",
                    memberNodes)
                continue
            }
            if !seen.insert(member.name).inserted {
                report("Union type \(union.name) can only include type \(member.name) once.", memberNodes)
            }
        }
    }

    private mutating func validateEnumValues(_ enumType: GraphQLEnumType) {
        if enumType.values.isEmpty {
            report(
                "Enum type \(enumType.name) must define one or more values.",
                [enumType.astNode?.loc] + enumType.extensionASTNodes.map(\.loc))
        }
        for value in enumType.values { validateName(value.name, value.astNode?.loc) }
    }

    private mutating func validateInputFields(_ input: GraphQLInputObjectType) {
        if input.fields.isEmpty {
            report(
                "Input Object type \(input.name) must define one or more fields.",
                [input.astNode?.loc] + input.extensionASTNodes.map(\.loc))
        }
        for field in input.fields {
            let coordinate = "\(input.name).\(field.name)"
            validateInputValue(field, coordinate, "input field", typeLocation: field.astNode?.type.loc)
            if input.isOneOf {
                if field.type.isNonNull {
                    report("OneOf input field \(coordinate) must be nullable.", [field.astNode?.type.loc])
                }
                if field.defaultValue != nil {
                    report("OneOf input field \(coordinate) cannot have a default value.", [field.astNode?.loc])
                }
            }
        }
    }
}

/// " at .a[0].b" for a path inside a value; "" for none (graphql-js's `printPathList`).
private func pathSuffix(_ path: [PathComponent]) -> String {
    guard !path.isEmpty else { return "" }
    return " at " + path.map { component in
        switch component {
        case .key(let key): ".\(key)"
        case .index(let index): "[\(index)]"
        }
    }.joined()
}

/// `A`, `A and B`, `A, B, and C`.
func andList(_ items: [String]) -> String {
    switch items.count {
    case 0: ""
    case 1: items[0]
    case 2: items[0] + " and " + items[1]
    default: items.dropLast().joined(separator: ", ") + ", and " + items.last!
    }
}

extension GraphQLNamedType {
    var hasDefinitionNode: Bool {
        switch self {
        case .scalar(let type): type.astNode != nil
        case .object(let type): type.astNode != nil
        case .interface(let type): type.astNode != nil
        case .union(let type): type.astNode != nil
        case .enum(let type): type.astNode != nil
        case .inputObject(let type): type.astNode != nil
        }
    }

    /// Where the type is defined in SDL.
    var definitionLocation: Location? {
        switch self {
        case .scalar(let type): type.astNode?.loc
        case .object(let type): type.astNode?.loc
        case .interface(let type): type.astNode?.loc
        case .union(let type): type.astNode?.loc
        case .enum(let type): type.astNode?.loc
        case .inputObject(let type): type.astNode?.loc
        }
    }

    /// The definition and every extension of an object or interface type.
    var definitionLocations: [Location?] {
        switch self {
        case .object(let type): [type.astNode?.loc] + type.extensionASTNodes.map(\.loc)
        case .interface(let type): [type.astNode?.loc] + type.extensionASTNodes.map(\.loc)
        default: [definitionLocation]
        }
    }
}

extension TypeReference {
    var loc: Location? {
        switch self {
        case .named(let node): node.loc
        case .list(let node): node.loc
        case .nonNull(let node): node.loc
        }
    }
}
