/// Fragments must not form cycles: no fragment spreads itself, directly or through others.
///
/// Each fragment is followed once; the recursion is bounded by the document's nesting, which
/// the validator checks before the rules run.
public final class NoFragmentCyclesRule: ValidationRule {
    private var visited = Set<String>()
    private var spreadPath: [FragmentSpread] = []
    private var spreadPathIndexByName: [String: Int] = [:]

    override public var events: ValidationEvents { [.enterOperation, .enterFragment] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction { .skip }

    override public func enterFragment(_ node: FragmentDefinition) -> VisitAction {
        detectCycle(node.name.value)
        return .skip
    }

    private func detectCycle(_ name: String) {
        guard visited.insert(name).inserted, let index = context.fragmentIndexes[name] else { return }
        let spreads = context.fragmentSpreads(ofDefinition: index)
        if spreads.isEmpty { return }
        spreadPathIndexByName[name] = spreadPath.count
        for spread in spreads {
            let spreadName = spread.name.value
            spreadPath.append(spread)
            if let cycleIndex = spreadPathIndexByName[spreadName] {
                let cycle = spreadPath[cycleIndex...]
                let via = cycle.dropLast().map { "\"\($0.name.value)\"" }.joined(separator: ", ")
                context.report(
                    "Cannot spread fragment \"\(spreadName)\" within itself" + (via.isEmpty ? "." : " via \(via)."),
                    cycle.map(\.loc))
            } else if context.fragments[spreadName] != nil {
                detectCycle(spreadName)
            }
            spreadPath.removeLast()
        }
        spreadPathIndexByName[name] = nil
    }
}
