/// All variable uses defined: every variable an operation uses, in its own selections or in the
/// fragments it spreads, is defined by the operation.
///
/// graphql-js checks at the operation; the fragments may follow it, so this rule checks once the
/// document is walked and reports in graphql-js's place.
public final class NoUndefinedVariablesRule: WholeDocumentOperationRule {
    override func check(_ operation: OperationDefinition, index: Int, at position: ErrorPosition) {
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
