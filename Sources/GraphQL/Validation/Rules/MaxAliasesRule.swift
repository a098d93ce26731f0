/// Limit: an operation has at most `ValidationLimits.maxAliases` aliased fields (fragments counted
/// each time they are spread), so that one field cannot be asked for hundreds of times.
public final class MaxAliasesRule: OperationMeasureRule {
    override var limit: Int { context.options.limits.maxAliases ?? Int.max }

    override public var events: ValidationEvents { [.enterOperation, .leaveDocument, .enterField, .enterFragmentSpread] }

    override public func enterField(_ node: Field) -> VisitAction {
        if node.alias != nil { measures[context.definitionIndex].own += 1 }
        return .continue
    }

    override public func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction {
        measures[context.definitionIndex].spreads.append((node.name.value, 1))
        return .continue
    }

    override func message(_ operation: OperationDefinition, _ total: Int) -> String {
        "\(describe(operation)) has \(total) aliases, more than the maximum of \(limit)."
    }
}
