/// A rule that checks each operation once the whole document is walked: the fragments an
/// operation spreads may follow it. Its errors are reported in the operation's place among the
/// other rules' errors, as graphql-js reports them: where the walker entered the operation, or
/// left it for a rule whose `events` list `.leaveOperation` instead of `.enterOperation`.
///
/// A subclass overrides `check(_:index:at:)`; its `events` keep `.leaveDocument` and one of the two
/// operation events.
public class WholeDocumentOperationRule: ValidationRule {
    private var operations: [(index: Int, position: ErrorPosition)] = []

    override public var events: ValidationEvents { [.enterOperation, .leaveDocument] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        operations.append((context.definitionIndex, context.position))
        return .continue
    }

    override public func leaveOperation(_ node: OperationDefinition) {
        operations.append((context.definitionIndex, context.position))
    }

    override public func leaveDocument(_ node: Document) {
        for (index, position) in operations {
            guard case .operation(let operation) = context.document.definitions[index] else { continue }
            check(operation, index: index, at: position)
        }
    }

    /// Checks `operation`, the document's definition `index`, reporting at `position`.
    func check(_ operation: OperationDefinition, index: Int, at position: ErrorPosition) {}
}
