/// Limit: an operation nests fields at most `ValidationLimits.maxDepth` deep (fragments counted
/// where they are spread). `{ a { b { c } } }` has depth 3.
public final class MaxDepthRule: OperationMeasureRule {
    private var depth = 0

    override var combinesByAdding: Bool { true }
    override var limit: Int { context.options.limits.maxDepth ?? Int.max }

    override public var events: ValidationEvents {
        [.enterOperation, .leaveDocument, .enterField, .leaveField, .enterFragmentSpread]
    }

    override public func enterField(_ node: Field) -> VisitAction {
        depth += 1
        measures[context.definitionIndex, default: Measure()].own = max(measures[context.definitionIndex]?.own ?? 0, depth)
        return .continue
    }

    override public func leaveField(_ node: Field) { depth -= 1 }

    override public func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction {
        measures[context.definitionIndex, default: Measure()].spreads.append((node.name.value, depth))
        return .continue
    }

    override func message(_ operation: OperationDefinition, _ total: Int) -> String {
        "\(describe(operation)) is nested \(total) fields deep, more than the maximum depth of \(limit)."
    }
}
