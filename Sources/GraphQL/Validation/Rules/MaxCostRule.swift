/// Limit: an operation costs at most `ValidationLimits.maxCost`.
///
/// The model: each field costs 1 for each time it can occur in the response. A list field
/// multiplies by its size what it and everything under it cost: the value of its literal `first`
/// or `last` argument when it has one, else `ValidationLimits.defaultListSize` (a variable's
/// value is not known when validating). Other fields multiply by 1, fragments count where they
/// are spread. So `{ entries(first: 20) { id tags { name } } }`, with `entries` and `tags` lists,
/// costs 20 × (1 + 1 + 10 × (1 + 1)) = 440.
public final class MaxCostRule: OperationMeasureRule {
    /// The product of the multipliers of the enclosing fields, innermost last.
    private var factors: [Int] = [1]

    override var limit: Int { context.options.limits.maxCost ?? Int.max }

    override public var events: ValidationEvents {
        [.enterOperation, .leaveDocument, .enterField, .leaveField, .enterFragmentSpread, .enterFragment]
    }

    override public func enterFragment(_ node: FragmentDefinition) -> VisitAction {
        factors = [1]
        return .continue
    }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        factors = [1]
        return super.enterOperation(node)
    }

    override public func enterField(_ node: Field) -> VisitAction {
        let factor = saturatingMultiply(factors[factors.count - 1], multiplier(node))
        measures[context.definitionIndex].own = saturatingAdd(measures[context.definitionIndex].own, factor)
        factors.append(factor)
        return .continue
    }

    override public func leaveField(_ node: Field) { factors.removeLast() }

    override public func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction {
        measures[context.definitionIndex].spreads.append((node.name.value, factors[factors.count - 1]))
        return .continue
    }

    private func multiplier(_ node: Field) -> Int {
        guard let type = context.type, type.nullableType.isList else { return 1 }
        for argument in node.arguments where argument.name.value == "first" || argument.name.value == "last" {
            if case .int(let value) = argument.value, let size = Int(value.value) { return max(size, 0) }
        }
        return context.options.limits.defaultListSize
    }

    override func message(_ operation: OperationDefinition, _ total: Int) -> String {
        "\(describe(operation)) has a cost of \(total), more than the maximum of \(limit)."
    }
}
