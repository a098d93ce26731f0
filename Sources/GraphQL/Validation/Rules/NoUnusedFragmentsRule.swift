/// Fragments must be used: every fragment is spread by some operation, directly or through
/// other fragments.
public final class NoUnusedFragmentsRule: ValidationRule {
    private var operationIndexes: [Int] = []
    private var fragmentIndexes: [Int] = []
    private var definitionIndex = -1

    override public var events: ValidationEvents { [.enterOperation, .enterFragment, .leaveDocument] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        operationIndexes.append(context.definitionIndex)
        return .skip
    }

    override public func enterFragment(_ node: FragmentDefinition) -> VisitAction {
        fragmentIndexes.append(context.definitionIndex)
        return .skip
    }

    override public func leaveDocument(_ node: Document) {
        let used = Set(context.recursivelyReferencedFragments(ofDefinitions: operationIndexes).map { index in
            if case .fragment(let fragment) = context.document.definitions[index] { fragment.name.value } else { "" }
        })
        for index in fragmentIndexes {
            guard case .fragment(let fragment) = context.document.definitions[index] else { continue }
            if !used.contains(fragment.name.value) {
                context.report("Fragment \"\(fragment.name.value)\" is never used.", [fragment.loc])
            }
        }
    }
}
