/// Field selection merging: fields that share a response name (directly, or through fragments
/// and inline fragments) can be merged: unless their parents are distinct object types they are
/// the same field with the same arguments, and in any case their types do not conflict and
/// their subselections merge too.
///
/// graphql-js's algorithm, with its caches: the fields of a selection set are collected once per
/// (parent type, selection set); pairs of fragments, and of a field set and a fragment, are
/// compared once; identical leaf fields (500 `f`s, or 500 aliases of `f`) are recognised
/// without comparing every pair. A budget of comparisons bounds pathological documents
/// ("Validation aborted.").
public final class OverlappingFieldsCanBeMergedRule: ValidationRule {
    private lazy var finder = ConflictFinder(context: context)

    override public var events: ValidationEvents { [.enterSelectionSet] }

    override public func enterSelectionSet(_ node: SelectionSet, parentIsInlineFragment: Bool) -> VisitAction {
        if parentIsInlineFragment { return .continue }
        let selections = node.selections
        if selections.count <= 1 {
            guard let first = selections.first, case .inlineFragment = first else { return .continue }
        }
        if hasOnlyDistinctFields(selections) { return .continue }
        guard let conflicts = finder.conflictsWithin(context.parentType, node) else {
            context.abort("Validation aborted.")
            return .continue
        }
        for conflict in conflicts {
            context.report(
                "Fields \"\(abbreviate(conflict.responseName))\" conflict because \(conflict.reason). Use different aliases on the fields to fetch both if this was intentional.",
                (conflict.fields1 + conflict.fields2).map(\.loc))
        }
        return .continue
    }
}

/// Whether a selection set is only fields with distinct response names: nothing to merge (its
/// fields' own selection sets are checked when the walk reaches them). Most selection sets are.
private func hasOnlyDistinctFields(_ selections: [Selection]) -> Bool {
    var keys: [String] = []
    keys.reserveCapacity(selections.count)
    for selection in selections {
        guard case .field(let field) = selection else { return false }
        keys.append(field.responseKey)
    }
    if keys.count <= 16 {
        for i in keys.indices {
            for j in keys.index(after: i)..<keys.endIndex where keys[i] == keys[j] { return false }
        }
        return true
    }
    return Set(keys).count == keys.count
}

struct Conflict {
    var responseName: String
    var reason: String
    var fields1: [Field]
    var fields2: [Field]
}

let maxConflictDetailLength = 1000
let maxConflictNodes = 20

func abbreviate(_ text: String) -> String {
    text.count > maxConflictDetailLength ? text.prefix(maxConflictDetailLength) + "..." : text
}

/// A field as collected: its node, parent type and definition.
final class CollectedField {
    let node: Field
    let parentType: GraphQLNamedType?
    let definition: GraphQLField?
    let stream: Directive?
    /// No arguments, no selections, no `@stream`: equal to a field of the same name and type.
    let isSimpleLeaf: Bool
    /// The number of the field's shape (parent type, name, arguments, directives, selections).
    var shape: Int?

    init(node: Field, parentType: GraphQLNamedType?, definition: GraphQLField?) {
        self.node = node
        self.parentType = parentType
        self.definition = definition
        stream = node.directives.first { $0.name.value == "stream" }
        isSimpleLeaf = node.arguments.isEmpty && node.selectionSet == nil && stream == nil
    }
}

/// The fields of a selection set grouped by response name, in order, and its fragment spreads.
final class CollectedFields {
    var keys: [String] = []
    var groups: [String: [CollectedField]] = [:]
    var spreadNodes: [FragmentSpread] = []
    /// The spreads once deduplicated by fragment (computed once).
    var spreads: [FragmentSpread]?
    var isEmpty: Bool { keys.isEmpty }
}
