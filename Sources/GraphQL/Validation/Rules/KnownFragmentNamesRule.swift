/// Fragment spread target defined: every spread names a fragment of the document.
public final class KnownFragmentNamesRule: ValidationRule {
    override public var events: ValidationEvents { [.enterFragmentSpread] }

    override public func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction {
        if context.fragments[node.name.value] == nil {
            context.report("Unknown fragment \"\(node.name.value)\".", [node.name.loc])
        }
        return .continue
    }
}
