/// Lone anonymous operation: an operation without a name must be the document's only one.
public final class LoneAnonymousOperationRule: ValidationRule {
    private var operationCount = 0

    override public var events: ValidationEvents { [.enterDocument, .enterOperation] }

    override public func enterDocument(_ node: Document) -> VisitAction {
        operationCount = node.definitions.count { if case .operation = $0 { true } else { false } }
        return .continue
    }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        if node.name == nil, operationCount > 1 {
            context.report("This anonymous operation must be the only defined operation.", [node.loc])
        }
        return .continue
    }
}
