/// All variable usages are allowed: a variable's type fits every position it is used in (a
/// nullable variable fits a non-null position only with a default value on either side), and a
/// variable given to a field of a `@oneOf` input object is non-null. Checked once the document is
/// walked, reported where graphql-js reports it (on leaving the operation).
public final class VariablesInAllowedPositionRule: WholeDocumentOperationRule {
    override public var events: ValidationEvents { [.leaveOperation, .leaveDocument] }

    override func check(_ operation: OperationDefinition, index: Int, at position: ErrorPosition) {
        let schema = context.schema
        var definitions: [String: VariableDefinition] = [:]
        for definition in operation.variableDefinitions { definitions[definition.variable.name.value] = definition }
        for usage in context.recursiveVariableUsages(ofOperation: index) {
            let name = usage.node.name.value
            guard let definition = definitions[name], let locationType = usage.type else { continue }
            let variableType = typeFromAST(schema, definition.type)
            if let variableType,
                !allowedVariableUsage(variableType, definition.defaultValue, locationType, usage.hasLocationDefaultValue)
            {
                context.report(
                    "Variable \"$\(name)\" of type \"\(variableType.name)\" used in position expecting type \"\(locationType.name)\".",
                    [definition.loc, usage.node.loc], at: position)
            }
            if case .named(.inputObject(let parent)) = usage.parentType, parent.isOneOf, let variableType,
                !variableType.isNonNull
            {
                context.report(
                    "Variable \"$\(name)\" is of type \"\(variableType.name)\" but must be non-nullable to be used for OneOf Input Object \"\(parent.name)\".",
                    [definition.loc, usage.node.loc], at: position)
            }
        }
    }

    private func allowedVariableUsage(
        _ variableType: GraphQLType, _ variableDefault: Value?, _ locationType: GraphQLType, _ locationHasDefault: Bool
    ) -> Bool {
        if case .nonNull(let nullableLocationType) = locationType, !variableType.isNonNull {
            var hasNonNullVariableDefault = false
            if let variableDefault, case .null = variableDefault {} else if variableDefault != nil {
                hasNonNullVariableDefault = true
            }
            if !hasNonNullVariableDefault && !locationHasDefault { return false }
            return isTypeSubTypeOf(context.schema, variableType, nullableLocationType)
        }
        return isTypeSubTypeOf(context.schema, variableType, locationType)
    }
}
