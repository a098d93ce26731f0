/// How deeply each definition nests selection sets once its fragment spreads are expanded,
/// computed without recursion before the rules run, as graphql-core does: the parser bounds the
/// nesting within one definition, but fragments can stack definitions on each other, and the
/// rules that follow spreads recurse. A definition nested deeper than `maxNestingDepth` aborts
/// the validation ("Validation aborted.") when the walk reaches it.
struct DocumentNesting {
    /// graphql-core's parser limit, which this bound follows.
    static let maxNestingDepth = 200

    private var fragmentDepths: [String: Int] = [:]
    private let nestings: [String: (depth: Int, spreads: [(name: String, depth: Int)])]

    init(_ document: Document, fragments: [String: FragmentDefinition]) {
        var nestings: [String: (depth: Int, spreads: [(name: String, depth: Int)])] = [:]
        for (name, fragment) in fragments { nestings[name] = Self.selectionNesting(fragment.selectionSet) }
        self.nestings = nestings
        // Depth-first over the spreads, without recursion; a spread that closes a cycle adds
        // nothing (the rules report cycles).
        for root in fragments.keys where fragmentDepths[root] == nil {
            var path: [(name: String, next: Int)] = [(root, 0)]
            var onPath: Set<String> = [root]
            while let (name, next) = path.last {
                let spreads = nestings[name]!.spreads
                var position = next
                var descended = false
                while position < spreads.count {
                    let spread = spreads[position].name
                    position += 1
                    if nestings[spread] != nil, fragmentDepths[spread] == nil, !onPath.contains(spread) {
                        path[path.count - 1].next = position
                        path.append((spread, 0))
                        onPath.insert(spread)
                        descended = true
                        break
                    }
                }
                if descended { continue }
                path.removeLast()
                onPath.remove(name)
                fragmentDepths[name] = depth(nestings[name]!)
            }
        }
    }

    private func depth(_ nesting: (depth: Int, spreads: [(name: String, depth: Int)])) -> Int {
        var depth = nesting.depth
        for spread in nesting.spreads { depth = max(depth, spread.depth + (fragmentDepths[spread.name] ?? 0)) }
        return depth
    }

    func exceedsLimit(operation: OperationDefinition) -> Bool {
        depth(Self.selectionNesting(operation.selectionSet)) > Self.maxNestingDepth
    }

    func exceedsLimit(fragment: FragmentDefinition) -> Bool {
        (fragmentDepths[fragment.name.value] ?? 0) > Self.maxNestingDepth
    }

    /// The nesting depth of a selection set (1 for a flat one) and its fragment spreads, each
    /// with the depth of the selection set it is in.
    static func selectionNesting(_ selectionSet: SelectionSet) -> (depth: Int, spreads: [(name: String, depth: Int)]) {
        var maxDepth = 0
        var spreads: [(name: String, depth: Int)] = []
        var stack = [(selectionSet, 1)]
        while let (set, depth) = stack.popLast() {
            maxDepth = max(maxDepth, depth)
            for selection in set.selections {
                switch selection {
                case .fragmentSpread(let spread): spreads.append((spread.name.value, depth))
                case .field(let field): if let nested = field.selectionSet { stack.append((nested, depth + 1)) }
                case .inlineFragment(let fragment): stack.append((fragment.selectionSet, depth + 1))
                }
            }
        }
        return (maxDepth, spreads)
    }
}
