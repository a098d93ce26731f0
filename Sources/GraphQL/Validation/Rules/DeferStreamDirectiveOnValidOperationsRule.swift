/// A subscription uses `@defer` and `@stream` only when they can be switched off (their `if` is
/// a variable or `false`), unless the selection is skipped.
public final class DeferStreamDirectiveOnValidOperationsRule: ValidationRule {
    private var checkedFragments = Set<String>()

    override public var events: ValidationEvents { [.enterOperation] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        guard node.operation == .subscription else { return .continue }
        var visited = Set<String>()
        var parents: [FragmentSpread] = []
        if forbid(node.selectionSet, &parents, &visited) { checkedFragments.formUnion(visited) }
        return .continue
    }

    private func forbid(_ selectionSet: SelectionSet, _ parents: inout [FragmentSpread], _ visited: inout Set<String>)
        -> Bool
    {
        var valid = true
        for selection in selectionSet.selections {
            let directives: [Directive]
            switch selection {
            case .field(let field): directives = field.directives
            case .fragmentSpread(let spread): directives = spread.directives
            case .inlineFragment(let fragment): directives = fragment.directives
            }
            if let skip = directives.first(where: { $0.name.value == "skip" }), canBeSkipped(bySkip: skip) { continue }
            if let include = directives.first(where: { $0.name.value == "include" }), canBeSkipped(byInclude: include) {
                continue
            }
            for directive in directives {
                let message: String
                switch directive.name.value {
                case "defer":
                    if ifArgumentCanBeFalse(directive) { continue }
                    message =
                        "Defer directive not supported on subscription operations. Disable `@defer` by setting the `if` argument to `false`."
                case "stream":
                    if ifArgumentCanBeFalse(directive) { continue }
                    message =
                        "Stream directive not supported on subscription operations. Disable `@stream` by setting the `if` argument to `false`."
                default:
                    continue
                }
                valid = false
                context.report(message, [directive.loc] + parents.reversed().map(\.loc))
            }
            switch selection {
            case .fragmentSpread(let spread):
                let name = spread.name.value
                if visited.contains(name) || checkedFragments.contains(name) { continue }
                visited.insert(name)
                if let fragment = context.fragments[name] {
                    parents.append(spread)
                    valid = forbid(fragment.selectionSet, &parents, &visited) && valid
                    parents.removeLast()
                }
            case .field(let field):
                if let nested = field.selectionSet { valid = forbid(nested, &parents, &visited) && valid }
            case .inlineFragment(let fragment):
                valid = forbid(fragment.selectionSet, &parents, &visited) && valid
            }
        }
        return valid
    }

    private func ifArgument(_ directive: Directive) -> Argument? {
        directive.arguments.first { $0.name.value == "if" }
    }

    private func ifArgumentCanBeFalse(_ directive: Directive) -> Bool {
        guard let argument = ifArgument(directive) else { return false }
        switch argument.value {
        case .boolean(let value): return !value.value
        case .variable: return true
        default: return false
        }
    }

    private func canBeSkipped(bySkip directive: Directive) -> Bool {
        guard let argument = ifArgument(directive) else { return true }
        if case .boolean(let value) = argument.value { return value.value }
        return true
    }

    private func canBeSkipped(byInclude directive: Directive) -> Bool {
        guard let argument = ifArgument(directive) else { return false }
        if case .boolean(let value) = argument.value { return !value.value }
        return true
    }
}
