/// Fragment name uniqueness: no two fragments share a name.
public final class UniqueFragmentNamesRule: ValidationRule {
    private var knownNames: [String: Name] = [:]

    override public var events: ValidationEvents { [.enterOperation, .enterFragment] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction { .skip }

    override public func enterFragment(_ node: FragmentDefinition) -> VisitAction {
        let name = node.name
        if let known = knownNames[name.value] {
            context.report("There can be only one fragment named \"\(name.value)\".", [known.loc, name.loc])
        } else {
            knownNames[name.value] = name
        }
        return .skip
    }
}
