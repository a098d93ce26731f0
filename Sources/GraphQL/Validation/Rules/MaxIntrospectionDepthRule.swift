/// Introspection depth: an introspection query may not nest the lists of `__Type` (`fields`,
/// `interfaces`, `possibleTypes`, `inputFields`) three deep, as in
/// `__schema { types { fields { type { fields { type { fields … } } } } } }`: each level
/// multiplies the response by the schema's size. graphql-js's `MaxIntrospectionDepthRule`.
public final class MaxIntrospectionDepthRule: ValidationRule {
    static let maxListDepth = 3

    /// For each fragment, the greatest entry depth at which its check ended below the limit.
    private var checkedFragments: [String: Int] = [:]
    /// For each fragment, the smallest entry depth at which its check reached the limit.
    private var exceededFragments: [String: Int] = [:]

    override public var events: ValidationEvents { [.enterField] }

    override public func enterField(_ node: Field) -> VisitAction {
        let name = node.name.value
        guard name == "__schema" || name == "__type" else { return .continue }
        var visitedFragments: [String: Int] = [:]
        if reachesLimit(node, &visitedFragments) {
            context.report("Maximum introspection depth exceeded", [node.loc])
            return .skip
        }
        return .continue
    }

    /// Walks depth-first without recursion, in the order of a recursive walk, so that long
    /// chains of fragments cannot exhaust the stack.
    private func reachesLimit(_ root: Field, _ visitedFragments: inout [String: Int]) -> Bool {
        // Each frame: the selections left to walk, their list depth, and the fragment they
        // belong to (whose check completes when the frame is done).
        var stack: [(selections: ArraySlice<Selection>, depth: Int, fragment: String?)] = [
            ([.field(root)], 0, nil)
        ]
        while !stack.isEmpty {
            let top = stack.count - 1
            guard let selection = stack[top].selections.first else {
                let frame = stack.removeLast()
                if let fragment = frame.fragment { checkedFragments[fragment] = frame.depth }
                continue
            }
            stack[top].selections = stack[top].selections.dropFirst()
            var depth = stack[top].depth
            switch selection {
            case .fragmentSpread(let spread):
                let name = spread.name.value
                if let exceeded = exceededFragments[name], exceeded <= depth {
                    markExceeded(stack)
                    return true
                }
                if visitedFragments[name, default: -1] >= depth || checkedFragments[name, default: -1] >= depth {
                    continue
                }
                guard let fragment = context.fragments[name] else { continue }
                visitedFragments[name] = depth
                stack.append((fragment.selectionSet.selections[...], depth, name))
            case .field(let field):
                switch field.name.value {
                case "fields", "interfaces", "possibleTypes", "inputFields":
                    depth += 1
                    if depth >= Self.maxListDepth {
                        markExceeded(stack)
                        return true
                    }
                default: break
                }
                if let selectionSet = field.selectionSet { stack.append((selectionSet.selections[...], depth, nil)) }
            case .inlineFragment(let fragment):
                stack.append((fragment.selectionSet.selections[...], depth, nil))
            }
        }
        return false
    }

    /// Records that the fragments being checked reached the limit, innermost first, so that a
    /// fragment entered twice keeps the smaller depth.
    private func markExceeded(_ stack: [(selections: ArraySlice<Selection>, depth: Int, fragment: String?)]) {
        for frame in stack.reversed() {
            if let fragment = frame.fragment { exceededFragments[fragment] = frame.depth }
        }
    }
}
