/// All variables used: every variable an operation defines is used, in its own selections or in
/// the fragments it spreads. Checked once the document is walked (see
/// `NoUndefinedVariablesRule`).
public final class NoUnusedVariablesRule: WholeDocumentOperationRule {
    override func check(_ operation: OperationDefinition, index: Int, at position: ErrorPosition) {
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
