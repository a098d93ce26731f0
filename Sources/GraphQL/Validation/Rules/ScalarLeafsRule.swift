/// Leaf field selections: a field of scalar or enum type has no selection set, and a field of
/// any other type has one.
public final class ScalarLeafsRule: ValidationRule {
    override public var events: ValidationEvents { [.enterField] }

    override public func enterField(_ node: Field) -> VisitAction {
        guard let type = context.type else { return .continue }
        if type.namedType.isLeaf {
            if let selectionSet = node.selectionSet {
                context.report(
                    "Field \"\(node.name.value)\" must not have a selection since type \"\(type.name)\" has no subfields.",
                    [selectionSet.loc])
            }
        } else if node.selectionSet == nil {
            let name = node.name.value
            context.report(
                "Field \"\(name)\" of type \"\(type.name)\" must have a selection of subfields. Did you mean \"\(name) { ... }\"?",
                [node.loc])
        }
        return .continue
    }
}
