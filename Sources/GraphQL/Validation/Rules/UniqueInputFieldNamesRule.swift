/// Input object field uniqueness: an input object literal gives each field once.
public final class UniqueInputFieldNamesRule: ValidationRule {
    /// The names seen in each enclosing object literal, innermost last.
    private var knownNames: [[String: Name]] = []

    override public var events: ValidationEvents { [.enterValue, .leaveValue, .enterObjectField] }

    override public func enterValue(_ node: Value) -> VisitAction {
        if case .object = node { knownNames.append([:]) }
        return .continue
    }

    override public func leaveValue(_ node: Value) {
        if case .object = node { knownNames.removeLast() }
    }

    override public func enterObjectField(_ node: ObjectField) -> VisitAction {
        let name = node.name
        if let first = knownNames[knownNames.count - 1][name.value] {
            context.report("There can be only one input field named \"\(name.value)\".", [first.loc, name.loc])
        } else {
            knownNames[knownNames.count - 1][name.value] = name
        }
        return .continue
    }
}
