/// Fragment spread is possible: a fragment's type can overlap the type it is spread in.
public final class PossibleFragmentSpreadsRule: ValidationRule {
    override public var events: ValidationEvents { [.enterInlineFragment, .enterFragmentSpread] }

    override public func enterInlineFragment(_ node: InlineFragment) -> VisitAction {
        if let fragmentType = context.type?.namedType, fragmentType.isComposite,
            let parentType = context.parentType, parentType.isComposite,
            !doTypesOverlap(context.schema, fragmentType, parentType)
        {
            context.report(
                "Fragment cannot be spread here as objects of type \"\(parentType.name)\" can never be of type \"\(fragmentType.name)\".",
                [node.loc])
        }
        return .continue
    }

    override public func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction {
        let name = node.name.value
        if let fragment = context.fragments[name],
            let fragmentType = context.schema.type(named: fragment.typeCondition.name.value), fragmentType.isComposite,
            let parentType = context.parentType, !doTypesOverlap(context.schema, fragmentType, parentType)
        {
            context.report(
                "Fragment \"\(name)\" cannot be spread here as objects of type \"\(parentType.name)\" can never be of type \"\(fragmentType.name)\".",
                [node.loc])
        }
        return .continue
    }
}
