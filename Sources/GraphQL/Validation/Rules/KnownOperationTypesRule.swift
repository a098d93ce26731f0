/// Operation type existence: the schema has a root type for each operation's type.
public final class KnownOperationTypesRule: ValidationRule {
    override public var events: ValidationEvents { [.enterOperation] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        if context.schema.rootType(for: node.operation) == nil {
            context.report("The \(node.operation.rawValue) operation is not supported by the schema.", [node.loc])
        }
        return .continue
    }
}
