/// Operation name uniqueness: no two operations share a name.
public final class UniqueOperationNamesRule: ValidationRule {
    private var knownNames: [String: Name] = [:]

    override public var events: ValidationEvents { [.enterOperation, .enterFragment] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        if let name = node.name {
            if let known = knownNames[name.value] {
                context.report("There can be only one operation named \"\(name.value)\".", [known.loc, name.loc])
            } else {
                knownNames[name.value] = name
            }
        }
        return .skip
    }

    override public func enterFragment(_ node: FragmentDefinition) -> VisitAction { .skip }
}
