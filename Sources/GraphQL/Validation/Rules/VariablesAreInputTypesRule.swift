/// Variables are input types: a variable's type is a scalar, enum or input object type.
public final class VariablesAreInputTypesRule: ValidationRule {
    override public var events: ValidationEvents { [.enterVariableDefinition] }

    override public func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction {
        if let type = typeFromAST(context.schema, node.type), !type.isInputType {
            context.report(
                "Variable \"$\(node.variable.name.value)\" cannot be non-input type \"\(node.type.printed)\".",
                [node.type.loc])
        }
        return .continue
    }
}

extension TypeReference {
    /// The reference as GraphQL writes it: `[Entry!]!`.
    var printed: String {
        switch self {
        case .named(let named): named.name.value
        case .list(let list): "[" + list.type.printed + "]"
        case .nonNull(let nonNull): nonNull.type.printed + "!"
        }
    }
}
