/// graphql-js's `printSchema` and `printIntrospectionSchema`: a schema written back as SDL, in
/// the schema's own order, defaults as written (or, when set in Swift, as `astFromValue` writes
/// them), descriptions as block strings where they can be.

/// The schema's SDL without the built-in scalars, the specified directives and the
/// introspection types. The `schema { }` definition is left out when it says nothing beyond the
/// default root type names.
public func printSchema(_ schema: GraphQLSchema) -> String {
    printFilteredSchema(
        schema, directives: { !isSpecifiedDirective($0) },
        types: { !isSpecifiedScalarType($0) && !isIntrospectionType($0) })
}

/// The specified directives and the introspection types, as SDL.
public func printIntrospectionSchema(_ schema: GraphQLSchema) -> String {
    printFilteredSchema(schema, directives: isSpecifiedDirective, types: isIntrospectionType)
}

/// One named type as SDL.
public func printType(_ type: GraphQLNamedType) -> String {
    switch type {
    case .scalar(let scalar):
        return printDescription(scalar.description) + "scalar \(scalar.name)" + printSpecifiedByURL(scalar)
    case .object(let object):
        return printDescription(object.description) + "type \(object.name)"
            + printImplementedInterfaces(object.interfaces) + printFields(object.fields)
    case .interface(let interface):
        return printDescription(interface.description) + "interface \(interface.name)"
            + printImplementedInterfaces(interface.interfaces) + printFields(interface.fields)
    case .union(let union):
        let members = union.types.isEmpty ? "" : " = " + union.types.map(\.name).joined(separator: " | ")
        return printDescription(union.description) + "union \(union.name)" + members
    case .enum(let enumType):
        let values = enumType.values.enumerated().map { index, value in
            printDescription(value.description, indentation: "  ", firstInBlock: index == 0) + "  " + value.name
                + printDeprecated(value.deprecationReason)
        }
        return printDescription(enumType.description) + "enum \(enumType.name)" + printBlock(values)
    case .inputObject(let input):
        let fields = input.fields.enumerated().map { index, field in
            printDescription(field.description, indentation: "  ", firstInBlock: index == 0) + "  "
                + printInputValue(field)
        }
        return printDescription(input.description) + "input \(input.name)" + (input.isOneOf ? " @oneOf" : "")
            + printBlock(fields)
    }
}

/// One directive definition as SDL.
public func printDirective(_ directive: GraphQLDirective) -> String {
    printDescription(directive.description) + "directive @\(directive.name)" + printArguments(directive.arguments)
        + printDeprecated(directive.deprecationReason) + (directive.isRepeatable ? " repeatable" : "") + " on "
        + directive.locations.map(\.rawValue).joined(separator: " | ")
}

private func printFilteredSchema(
    _ schema: GraphQLSchema, directives: (GraphQLDirective) -> Bool, types: (GraphQLNamedType) -> Bool
) -> String {
    var parts: [String] = []
    if let definition = printSchemaDefinition(schema) { parts.append(definition) }
    parts += schema.directives.filter(directives).map(printDirective)
    parts += schema.typeMap.filter(types).map(printType)
    return parts.joined(separator: "\n\n")
}

private func printSchemaDefinition(_ schema: GraphQLSchema) -> String? {
    let roots: [(String, GraphQLObjectType?)] = [
        ("query", schema.queryType), ("mutation", schema.mutationType), ("subscription", schema.subscriptionType),
    ]
    guard roots.contains(where: { $0.1 != nil }) else { return nil }
    // The default names need no `schema { }`, unless a default name is used by another type.
    let usesDefaultNames = zip(roots, ["Query", "Mutation", "Subscription"]).allSatisfy { root, name in
        guard let type = schema.type(named: name) else { return root.1 == nil }
        guard case .object(let object) = type else { return false }
        return root.1 === object
    }
    if schema.description == nil && usesDefaultNames { return nil }
    var text = printDescription(schema.description) + "schema {\n"
    for (operation, type) in roots {
        if let type { text += "  \(operation): \(type.name)\n" }
    }
    return text + "}"
}

private func printImplementedInterfaces(_ interfaces: [GraphQLInterfaceType]) -> String {
    interfaces.isEmpty ? "" : " implements " + interfaces.map(\.name).joined(separator: " & ")
}

private func printFields(_ fields: FieldMap<GraphQLField>) -> String {
    printBlock(
        fields.enumerated().map { index, field in
            printDescription(field.description, indentation: "  ", firstInBlock: index == 0) + "  " + field.name
                + printArguments(field.arguments, indentation: "  ") + ": " + field.type.name
                + printDeprecated(field.deprecationReason)
        })
}

private func printBlock(_ items: [String]) -> String {
    items.isEmpty ? "" : " {\n" + items.joined(separator: "\n") + "\n}"
}

private func printArguments(_ arguments: FieldMap<GraphQLArgument>, indentation: String = "") -> String {
    if arguments.isEmpty { return "" }
    // Without descriptions, all on one line.
    if arguments.allSatisfy({ $0.description == nil }) {
        return "(" + arguments.map(printInputValue).joined(separator: ", ") + ")"
    }
    let lines = arguments.enumerated().map { index, argument in
        printDescription(argument.description, indentation: "  " + indentation, firstInBlock: index == 0) + "  "
            + indentation + printInputValue(argument)
    }
    return "(\n" + lines.joined(separator: "\n") + "\n" + indentation + ")"
}

private func printInputValue(_ argument: GraphQLArgument) -> String {
    var text = "\(argument.name): \(argument.type.name)"
    if let literal = argument.defaultValueLiteral { text += " = " + print(literal) }
    return text + printDeprecated(argument.deprecationReason)
}

private func printDeprecated(_ reason: String?) -> String {
    guard let reason else { return "" }
    if reason == defaultDeprecationReason { return " @deprecated" }
    return " @deprecated(reason: \(print(.string(StringValue(reason)))))"
}

private func printSpecifiedByURL(_ scalar: GraphQLScalarType) -> String {
    guard let url = scalar.specifiedByURL else { return "" }
    return " @specifiedBy(url: \(print(.string(StringValue(url)))))"
}

private func printDescription(_ description: String?, indentation: String = "", firstInBlock: Bool = true) -> String {
    guard let description else { return "" }
    let literal = print(.string(StringValue(description, block: isPrintableAsBlockString(description))))
    let prefix = !indentation.isEmpty && !firstInBlock ? "\n" + indentation : indentation
    return prefix + literal.replacingNewlines(with: "\n" + indentation) + "\n"
}

extension String {
    fileprivate func replacingNewlines(with replacement: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

extension GraphQLArgument {
    /// The default as a literal: as written in SDL, or else the value set in Swift written back.
    public var defaultValueLiteral: Value? {
        if let literal = astNode?.defaultValue { return literal }
        return defaultValue.flatMap { astFromValue($0, type) }
    }
}

/// graphql-js's `isPrintableAsBlockString`: whether a block string would give back exactly
/// this text (no leading or trailing blank lines, no common indentation, no `\r`, no control
/// characters).
func isPrintableAsBlockString(_ value: String) -> Bool {
    if value.isEmpty { return true }
    var isEmptyLine = true
    var hasIndent = false
    var hasCommonIndent = true
    var seenNonEmptyLine = false
    for scalar in value.unicodeScalars {
        switch scalar.value {
        case 0x00...0x08, 0x0B, 0x0C, 0x0E...0x1F, 0x0D:
            return false
        case 0x0A:
            if isEmptyLine && !seenNonEmptyLine { return false }
            seenNonEmptyLine = true
            isEmptyLine = true
            hasIndent = false
        case 0x09, 0x20:
            hasIndent = hasIndent || isEmptyLine
        default:
            hasCommonIndent = hasCommonIndent && hasIndent
            isEmptyLine = false
        }
    }
    if isEmptyLine { return false }
    if hasCommonIndent && seenNonEmptyLine { return false }
    return true
}
