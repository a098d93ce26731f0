/// All variable uses defined: every variable an operation uses, in its own selections or in the
/// fragments it spreads, is defined by the operation.
///
/// graphql-js checks at the operation; the fragments may follow it, so this rule checks once the
/// document is walked and reports in graphql-js's place.
public final class NoUndefinedVariablesRule: ValidationRule {
    private var operations: [(index: Int, position: ErrorPosition)] = []

    override public var events: ValidationEvents { [.enterOperation, .leaveDocument] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        operations.append((context.definitionIndex, context.position))
        return .continue
    }

    override public func leaveDocument(_ node: Document) {
        for (index, position) in operations {
            guard case .operation(let operation) = context.document.definitions[index] else { continue }
            let defined = Set(operation.variableDefinitions.map(\.variable.name.value))
            for usage in context.recursiveVariableUsages(ofOperation: index) {
                let name = usage.node.name.value
                if defined.contains(name) { continue }
                let message =
                    if let operationName = operation.name {
                        "Variable \"$\(name)\" is not defined by operation \"\(operationName.value)\"."
                    } else {
                        "Variable \"$\(name)\" is not defined."
                    }
                context.report(message, [usage.node.loc, operation.loc], at: position)
            }
        }
    }
}
