/// Variable uniqueness: an operation defines each variable once.
public final class UniqueVariableNamesRule: ValidationRule {
    override public var events: ValidationEvents { [.enterOperation] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        reportDuplicates(node.variableDefinitions.map(\.variable.name)) { name in
            "There can be only one variable named \"$\(name)\"."
        }
        return .continue
    }
}

extension ValidationRule {
    /// Reports each name that occurs more than once, in order of first occurrence, with the
    /// locations of all its occurrences (graphql-js's `groupBy`).
    func reportDuplicates(_ names: [Name], message: (String) -> String) {
        if names.count < 2 { return }
        var groups: [String: [Name]] = [:]
        var order: [String] = []
        for name in names {
            if groups[name.value] == nil { order.append(name.value) }
            groups[name.value, default: []].append(name)
        }
        if order.count == names.count { return }
        for value in order {
            let group = groups[value]!
            if group.count > 1 { context.report(message(value), group.map(\.loc)) }
        }
    }
}
