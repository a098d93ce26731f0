/// All variables used: every variable an operation defines is used, in its own selections or in
/// the fragments it spreads. Checked once the document is walked (see
/// `NoUndefinedVariablesRule`).
public final class NoUnusedVariablesRule: ValidationRule {
    private var operations: [(index: Int, position: ErrorPosition)] = []

    override public var events: ValidationEvents { [.enterOperation, .leaveDocument] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        operations.append((context.definitionIndex, context.position))
        return .continue
    }

    override public func leaveDocument(_ node: Document) {
        for (index, position) in operations {
            guard case .operation(let operation) = context.document.definitions[index] else { continue }
            let used = Set(context.recursiveVariableUsages(ofOperation: index).map(\.node.name.value))
            for definition in operation.variableDefinitions {
                let name = definition.variable.name.value
                if used.contains(name) { continue }
                let message =
                    if let operationName = operation.name {
                        "Variable \"$\(name)\" is never used in operation \"\(operationName.value)\"."
                    } else {
                        "Variable \"$\(name)\" is never used."
                    }
                context.report(message, [definition.loc], at: position)
            }
        }
    }
}
