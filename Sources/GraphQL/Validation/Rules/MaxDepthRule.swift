/// Limit: an operation nests fields at most `ValidationLimits.maxDepth` deep, fragments counted
/// where they are spread: `{ a { b { c } } }` has depth 3.
///
/// Checked before the other rules, without recursion: a document over the limit is refused
/// with this error alone, so that a hostile nesting (1,000 levels) costs one pass over it.
enum MaxDepthRule {
    /// The errors of the operations deeper than `maxDepth`.
    static func check(_ context: ValidationContext, maxDepth: Int) -> [(message: String, loc: Location?)] {
        var fragmentDepths: [String: Int] = [:]
        var errors: [(message: String, loc: Location?)] = []
        for case .operation(let operation) in context.document.definitions {
            let depth = depth(of: operation.selectionSet, context, &fragmentDepths, limit: maxDepth)
            if depth > maxDepth {
                errors.append((
                    "\(describe(operation)) is nested more than \(maxDepth) fields deep, the maximum depth.",
                    operation.loc
                ))
            }
        }
        return errors
    }

    /// The field depth of a selection set (each fragment measured once; a spread that closes a
    /// cycle adds nothing), stopping as soon as it passes `limit`.
    private static func depth(
        of root: SelectionSet, _ context: ValidationContext, _ fragmentDepths: inout [String: Int], limit: Int
    ) -> Int {
        var deepest = 0
        var onPath = Set<String>()
        // Each frame: the selections left, the field depth of the set, the fragment it measures.
        var stack: [(selections: ArraySlice<Selection>, depth: Int, fragment: String?, deepest: Int)] = [
            (root.selections[...], 0, nil, 0)
        ]
        while !stack.isEmpty {
            let top = stack.count - 1
            guard let selection = stack[top].selections.first else {
                let frame = stack.removeLast()
                if let fragment = frame.fragment {
                    // The fragment's own depth is measured from where it was entered.
                    fragmentDepths[fragment] = frame.deepest - frame.depth
                    onPath.remove(fragment)
                }
                if !stack.isEmpty { stack[stack.count - 1].deepest = max(stack[stack.count - 1].deepest, frame.deepest) }
                deepest = max(deepest, frame.deepest)
                continue
            }
            stack[top].selections = stack[top].selections.dropFirst()
            let depth = stack[top].depth
            switch selection {
            case .field(let field):
                stack[top].deepest = max(stack[top].deepest, depth + 1)
                if depth + 1 > limit { return depth + 1 }
                if let nested = field.selectionSet {
                    stack.append((nested.selections[...], depth + 1, nil, depth + 1))
                }
            case .inlineFragment(let fragment):
                stack.append((fragment.selectionSet.selections[...], depth, nil, depth))
            case .fragmentSpread(let spread):
                let name = spread.name.value
                if let known = fragmentDepths[name] {
                    stack[top].deepest = max(stack[top].deepest, depth + known)
                    if depth + known > limit { return depth + known }
                } else if let fragment = context.fragments[name], onPath.insert(name).inserted {
                    stack.append((fragment.selectionSet.selections[...], depth, name, depth))
                }
            }
        }
        return deepest
    }
}
