/// Fragments on composite types: a fragment's type condition is an object, interface or union.
public final class FragmentsOnCompositeTypesRule: ValidationRule {
    override public var events: ValidationEvents { [.enterInlineFragment, .enterFragment] }

    override public func enterInlineFragment(_ node: InlineFragment) -> VisitAction {
        if let condition = node.typeCondition, let type = context.schema.type(named: condition.name.value),
            !type.isComposite
        {
            context.report(
                "Fragment cannot condition on non composite type \"\(condition.name.value)\".", [condition.loc])
        }
        return .continue
    }

    override public func enterFragment(_ node: FragmentDefinition) -> VisitAction {
        let condition = node.typeCondition
        if let type = context.schema.type(named: condition.name.value), !type.isComposite {
            context.report(
                "Fragment \"\(node.name.value)\" cannot condition on non composite type \"\(condition.name.value)\".",
                [condition.loc])
        }
        return .continue
    }
}
