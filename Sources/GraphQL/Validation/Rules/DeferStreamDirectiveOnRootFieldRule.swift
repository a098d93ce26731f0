/// `@defer` and `@stream` are not used on the root fields of a mutation or subscription (the
/// root selection set is executed at once).
public final class DeferStreamDirectiveOnRootFieldRule: ValidationRule {
    private var checkedFragments = Set<String>()

    override public var events: ValidationEvents { [.enterOperation] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        guard node.operation == .mutation || node.operation == .subscription,
            let rootType = context.schema.rootType(for: node.operation)
        else { return .continue }
        var visited = Set<String>()
        if forbid(node.operation, rootType, node.selectionSet, &visited) { checkedFragments.formUnion(visited) }
        return .continue
    }

    /// Reports the `@defer`s and `@stream`s at the root; whether there were none.
    private func forbid(
        _ operation: OperationType, _ rootType: GraphQLObjectType, _ selectionSet: SelectionSet,
        _ visited: inout Set<String>
    ) -> Bool {
        var valid = true
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                if let stream = field.directives.first(where: { $0.name.value == "stream" }) {
                    valid = false
                    context.report(
                        "Stream directive cannot be used on root \(operation.rawValue) type \"\(rootType.name)\".",
                        [stream.loc])
                }
            case .fragmentSpread(let spread):
                let name = spread.name.value
                if !visited.insert(name).inserted { continue }
                guard let fragment = context.fragments[name] else { continue }
                if let deferDirective = spread.directives.first(where: { $0.name.value == "defer" }) {
                    valid = false
                    context.report(
                        "Defer directive cannot be used on root \(operation.rawValue) type \"\(rootType.name)\".",
                        [deferDirective.loc])
                }
                if !checkedFragments.contains(name) {
                    valid = forbid(operation, rootType, fragment.selectionSet, &visited) && valid
                }
            case .inlineFragment(let fragment):
                if let deferDirective = fragment.directives.first(where: { $0.name.value == "defer" }) {
                    valid = false
                    context.report(
                        "Defer directive cannot be used on root \(operation.rawValue) type \"\(rootType.name)\".",
                        [deferDirective.loc])
                }
                valid = forbid(operation, rootType, fragment.selectionSet, &visited) && valid
            }
        }
        return valid
    }
}
