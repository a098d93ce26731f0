/// Variables are input types: a variable's type is a scalar, enum or input object type.
public final class VariablesAreInputTypesRule: ValidationRule {
    override public var events: ValidationEvents { [.enterVariableDefinition] }

    override public func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction {
        if let type = typeFromAST(context.schema, node.type), !type.isInputType {
            context.report(
                "Variable \"$\(node.variable.name.value)\" cannot be non-input type \"\(print(node.type))\".",
                [node.type.loc])
        }
        return .continue
    }
}
