/// The comparisons of `OverlappingFieldsCanBeMergedRule`, with graphql-js's caches.
///
/// AST nodes are values here, so a selection set is known by where it starts in the source
/// (hand-built nodes without a location are collected afresh each time).
final class ConflictFinder {
    private let context: ValidationContext
    private let schema: GraphQLSchema
    private var budget = 500_000
    private var collected: [CollectedFields] = []
    private var collectedBySet: [CollectedKey: CollectedFields] = [:]
    /// (field set, fragment) pairs compared, with whether they were mutually exclusive.
    private var comparedFieldsAndFragments: [PairKey: Bool] = [:]
    /// (fragment, fragment) pairs compared, in either order.
    private var comparedFragments: [PairKey: Bool] = [:]
    private var fragmentIDs: [String: Int] = [:]
    /// A number for each shape of selection set (its parent type and what it selects, written
    /// out without locations), so that copies of one selection set are compared once.
    private var shapeIDs: [String: Int] = [:]
    private var shapeBySet: [CollectedKey: Int] = [:]
    /// Pairs of shapes (and whether their parents are exclusive) known to merge without conflict.
    private var mergeableShapes = Set<ShapePair>()
    /// No more conflicts than errors can be reported are collected in one list.
    private let maxConflicts: Int

    init(context: ValidationContext) {
        self.context = context
        self.schema = context.schema
        self.maxConflicts = context.options.maxErrors + 1
    }

    private struct ShapePair: Hashable {
        var a: Int
        var b: Int
        var exclusive: Bool
    }

    private struct CollectedKey: Hashable {
        var type: String?
        var start: Int
    }

    private struct PairKey: Hashable {
        var a: Int
        var b: Int
    }

    private struct BudgetExhausted: Error {}

    private func spend(_ cost: Int) throws(BudgetExhausted) {
        budget -= cost
        if budget < 0 { throw BudgetExhausted() }
    }

    /// The conflicts within one selection set; nil when the budget ran out.
    func conflictsWithin(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) -> [Conflict]? {
        var conflicts: [Conflict] = []
        do {
            let fields = collectFields(parentType, selectionSet)
            try collectConflictsWithin(&conflicts, fields)
            if !fields.spreadNodes.isEmpty, !fields.isEmpty || fields.spreadNodes.count > 1 {
                let spreads = fragmentSpreads(fields)
                for (index, spread) in spreads.enumerated() {
                    try collectConflictsBetweenFieldsAndFragment(&conflicts, false, fields, spread)
                    for other in spreads[(index + 1)...] {
                        try collectConflictsBetweenFragments(&conflicts, false, spread, other)
                    }
                }
            }
        } catch {
            return nil
        }
        return conflicts
    }

    // MARK: - Collecting

    private func collectFields(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) -> CollectedFields {
        let key = selectionSet.loc.map { CollectedKey(type: parentType?.name, start: $0.start) }
        if let key, let cached = collectedBySet[key] { return cached }
        let fields = CollectedFields()
        collectFields(parentType, selectionSet, into: fields)
        collected.append(fields)
        if let key { collectedBySet[key] = fields }
        return fields
    }

    private func collectFields(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet, into fields: CollectedFields) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                let definition = parentType?.fields?[field.name.value]
                let key = field.responseKey
                if fields.groups[key] == nil { fields.keys.append(key) }
                fields.groups[key, default: []].append(
                    CollectedField(node: field, parentType: parentType, definition: definition))
            case .fragmentSpread(let spread):
                fields.spreadNodes.append(spread)
            case .inlineFragment(let fragment):
                let type = fragment.typeCondition.map { schema.type(named: $0.name.value) } ?? parentType
                collectFields(type, fragment.selectionSet, into: fields)
            }
        }
    }

    private func collectFragmentFields(_ fragment: FragmentDefinition) -> CollectedFields {
        collectFields(schema.type(named: fragment.typeCondition.name.value), fragment.selectionSet)
    }

    /// The spreads of a field set, one per fragment (the last spread of each), in order of
    /// first appearance; spreads of unknown fragments count as one.
    private func fragmentSpreads(_ fields: CollectedFields) -> [FragmentSpread] {
        if let spreads = fields.spreads { return spreads }
        var spreads: [FragmentSpread] = []
        var positions: [String?: Int] = [:]
        for spread in fields.spreadNodes {
            let name: String? = context.fragments[spread.name.value] == nil ? nil : spread.name.value
            if let position = positions[name] {
                spreads[position] = spread
            } else {
                positions[name] = spreads.count
                spreads.append(spread)
            }
        }
        fields.spreads = spreads
        return spreads
    }

    private func id(_ fields: CollectedFields) -> Int { ObjectIdentifier(fields).hashValue }

    /// A number for each fragment name (−1 for an unknown fragment).
    private func fragmentID(_ spread: FragmentSpread) -> Int {
        let name = spread.name.value
        guard context.fragments[name] != nil else { return -1 }
        if let id = fragmentIDs[name] { return id }
        let id = fragmentIDs.count
        fragmentIDs[name] = id
        return id
    }

    /// The number of a selection set's shape.
    private func shape(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) -> Int {
        let key = selectionSet.loc.map { CollectedKey(type: parentType?.name, start: $0.start) }
        if let key, let known = shapeBySet[key] { return known }
        var text = (parentType?.name ?? "") + "|"
        writeShape(selectionSet, into: &text)
        let id = intern(text)
        if let key { shapeBySet[key] = id }
        return id
    }

    private func writeShape(_ selectionSet: SelectionSet, into text: inout String) {
        text += "{"
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                if let alias = field.alias { text += alias.value + ":" }
                text += field.name.value
                writeArguments(field.arguments, into: &text)
                writeDirectives(field.directives, into: &text)
                if let nested = field.selectionSet { writeShape(nested, into: &text) }
            case .fragmentSpread(let spread):
                text += "..." + spread.name.value
                writeDirectives(spread.directives, into: &text)
            case .inlineFragment(let fragment):
                text += "...on " + (fragment.typeCondition?.name.value ?? "")
                writeDirectives(fragment.directives, into: &text)
                writeShape(fragment.selectionSet, into: &text)
            }
            text += " "
        }
        text += "}"
    }

    private func writeArguments(_ arguments: [Argument], into text: inout String) {
        if arguments.isEmpty { return }
        text += "("
        for argument in arguments { text += argument.name.value + ":" + print(argument.value) + " " }
        text += ")"
    }

    private func writeDirectives(_ directives: [Directive], into text: inout String) {
        for directive in directives {
            text += "@" + directive.name.value
            writeArguments(directive.arguments, into: &text)
        }
    }

    // MARK: - Comparing

    private func collectConflictsBetweenFieldsAndFragment(
        _ conflicts: inout [Conflict], _ exclusive: Bool, _ fields: CollectedFields, _ spread: FragmentSpread
    ) throws(BudgetExhausted) {
        try spend(1)
        if fields.isEmpty { return }
        let key = PairKey(a: id(fields), b: fragmentID(spread))
        if let compared = comparedFieldsAndFragments[key], exclusive || !compared { return }
        comparedFieldsAndFragments[key] = exclusive
        guard let fragment = context.fragments[spread.name.value] else { return }
        let fields2 = collectFragmentFields(fragment)
        let referenced = fragmentSpreads(fields2)
        if fields === fields2 { return }
        try collectConflictsBetween(&conflicts, exclusive, fields, fields2)
        for spread2 in referenced {
            try collectConflictsBetweenFieldsAndFragment(&conflicts, exclusive, fields, spread2)
        }
    }

    private func collectConflictsBetweenFragments(
        _ conflicts: inout [Conflict], _ exclusive: Bool, _ spread1: FragmentSpread, _ spread2: FragmentSpread
    ) throws(BudgetExhausted) {
        try spend(2)
        let id1 = fragmentID(spread1), id2 = fragmentID(spread2)
        if id1 == id2 { return }
        let key = PairKey(a: min(id1, id2), b: max(id1, id2))
        if let compared = comparedFragments[key], exclusive || !compared { return }
        comparedFragments[key] = exclusive
        guard let fragment1 = context.fragments[spread1.name.value],
            let fragment2 = context.fragments[spread2.name.value]
        else { return }
        let fields1 = collectFragmentFields(fragment1)
        let referenced1 = fragmentSpreads(fields1)
        let fields2 = collectFragmentFields(fragment2)
        let referenced2 = fragmentSpreads(fields2)
        try collectConflictsBetween(&conflicts, exclusive, fields1, fields2)
        for referenced in referenced2 {
            try collectConflictsBetweenFragments(&conflicts, exclusive, spread1, referenced)
        }
        for referenced in referenced1 {
            try collectConflictsBetweenFragments(&conflicts, exclusive, referenced, spread2)
        }
    }

    private func conflictsBetweenSubSelectionSets(
        _ exclusive: Bool, _ parentType1: GraphQLNamedType?, _ selectionSet1: SelectionSet,
        _ parentType2: GraphQLNamedType?, _ selectionSet2: SelectionSet
    ) throws(BudgetExhausted) -> [Conflict] {
        let shape1 = shape(parentType1, selectionSet1), shape2 = shape(parentType2, selectionSet2)
        let pair = ShapePair(a: min(shape1, shape2), b: max(shape1, shape2), exclusive: exclusive)
        if mergeableShapes.contains(pair) { return [] }
        var conflicts: [Conflict] = []
        defer { if conflicts.isEmpty { mergeableShapes.insert(pair) } }
        let fields1 = collectFields(parentType1, selectionSet1)
        let spreads1 = fragmentSpreads(fields1)
        let fields2 = collectFields(parentType2, selectionSet2)
        let spreads2 = fragmentSpreads(fields2)
        try collectConflictsBetween(&conflicts, exclusive, fields1, fields2)
        for spread2 in spreads2 {
            try collectConflictsBetweenFieldsAndFragment(&conflicts, exclusive, fields1, spread2)
        }
        for spread1 in spreads1 {
            try collectConflictsBetweenFieldsAndFragment(&conflicts, exclusive, fields2, spread1)
        }
        for spread1 in spreads1 {
            for spread2 in spreads2 {
                try collectConflictsBetweenFragments(&conflicts, exclusive, spread1, spread2)
            }
        }
        return conflicts
    }

    private func collectConflictsWithin(_ conflicts: inout [Conflict], _ fields: CollectedFields)
        throws(BudgetExhausted)
    {
        for key in fields.keys {
            let group = fields.groups[key]!
            if group.count < 2 || allSameSimpleLeaf(group[...], group[...]) { continue }
            var pairs = ShapePairs(self, group, group)
            for i in 0..<group.count {
                for j in (i + 1)..<group.count where pairs.mayConflict(i, j) {
                    let conflict = try findConflict(false, key, group[i], group[j])
                    pairs.record(i, j, conflict != nil)
                    if let conflict { conflicts.append(conflict) }
                    if conflicts.count > maxConflicts { return }
                }
            }
        }
    }

    private func collectConflictsBetween(
        _ conflicts: inout [Conflict], _ exclusive: Bool, _ fields1: CollectedFields, _ fields2: CollectedFields
    ) throws(BudgetExhausted) {
        if fields1.isEmpty || fields2.isEmpty { return }
        for key in fields1.keys {
            try spend(1)
            guard let group2 = fields2.groups[key] else { continue }
            let group1 = fields1.groups[key]!
            if allSameSimpleLeaf(group1[...], group2[...]) { continue }
            var pairs = ShapePairs(self, group1, group2)
            for i in group1.indices {
                for j in group2.indices where pairs.mayConflict(i, j) {
                    let conflict = try findConflict(exclusive, key, group1[i], group2[j])
                    pairs.record(i, j, conflict != nil)
                    if let conflict { conflicts.append(conflict) }
                    if conflicts.count > maxConflicts { return }
                }
            }
        }
    }

    /// For the pairs of two groups of fields, whether a pair of the same two shapes was found
    /// free of conflict: then every such pair is, and hundreds of copies of one field cost one
    /// comparison, not one per pair. Small groups are compared pair by pair.
    private struct ShapePairs {
        private var classes1: [Int] = []
        private var classes2: [Int] = []
        private var count = 0
        /// By class pair: 0 not compared yet, 1 free of conflict, 2 conflicting.
        private var outcomes: [UInt8] = []

        init(_ finder: ConflictFinder, _ group1: [CollectedField], _ group2: [CollectedField]) {
            guard group1.count * group2.count > 64 else { return }
            var local: [Int: Int] = [:]
            func localClass(_ field: CollectedField) -> Int {
                let shape = finder.shape(of: field)
                if let known = local[shape] { return known }
                local[shape] = local.count
                return local.count - 1
            }
            classes1 = group1.map(localClass)
            classes2 = group2.map(localClass)
            count = local.count
            outcomes = Array(repeating: 0, count: count * count)
        }

        func mayConflict(_ i: Int, _ j: Int) -> Bool {
            count == 0 || outcomes[classes1[i] * count + classes2[j]] != 1
        }

        mutating func record(_ i: Int, _ j: Int, _ conflicting: Bool) {
            guard count > 0 else { return }
            let index = classes1[i] * count + classes2[j]
            if outcomes[index] == 0 { outcomes[index] = conflicting ? 2 : 1 }
        }
    }

    /// The number of a field's shape: its parent type and the field as written, alias aside.
    fileprivate func shape(of field: CollectedField) -> Int {
        if let shape = field.shape { return shape }
        var text = (field.parentType?.name ?? "") + "|" + field.node.name.value
        writeArguments(field.node.arguments, into: &text)
        writeDirectives(field.node.directives, into: &text)
        if let nested = field.node.selectionSet { writeShape(nested, into: &text) }
        let id = intern(text)
        field.shape = id
        return id
    }

    private func intern(_ text: String) -> Int {
        if let known = shapeIDs[text] { return known }
        let id = shapeIDs.count
        shapeIDs[text] = id
        return id
    }

    /// Whether all these fields are simple leaves of one name and type, which never conflict.
    private func allSameSimpleLeaf(_ group1: ArraySlice<CollectedField>, _ group2: ArraySlice<CollectedField>) -> Bool {
        guard let first = group1.first, first.isSimpleLeaf else { return false }
        let name = first.node.name.value
        let type = first.definition?.type
        for field in group1.dropFirst() where !isSameSimpleLeaf(field, name, type) { return false }
        for field in group2 where !isSameSimpleLeaf(field, name, type) { return false }
        return true
    }

    private func isSameSimpleLeaf(_ field: CollectedField, _ name: String, _ type: GraphQLType?) -> Bool {
        guard field.isSimpleLeaf, field.node.name.value == name else { return false }
        switch (field.definition?.type, type) {
        case (nil, nil): return true
        case (let a?, let b?): return isEqualType(a, b)
        default: return false
        }
    }

    /// The conflict between two fields of one response name, if any.
    private func findConflict(
        _ parentsExclusive: Bool, _ responseName: String, _ field1: CollectedField, _ field2: CollectedField
    ) throws(BudgetExhausted) -> Conflict? {
        var exclusive = parentsExclusive
        if !exclusive, let parent1 = field1.parentType, let parent2 = field2.parentType, parent1.name != parent2.name,
            case .object = parent1, case .object = parent2
        {
            exclusive = true
        }
        let type1 = field1.definition?.type, type2 = field2.definition?.type
        try spend(2)
        let node1 = field1.node, node2 = field2.node
        if field1.isSimpleLeaf, field2.isSimpleLeaf, node1.name.value == node2.name.value,
            isSameSimpleLeaf(field2, node1.name.value, type1)
        {
            return nil
        }
        if !exclusive {
            let name1 = node1.name.value, name2 = node2.name.value
            if name1 != name2 {
                return Conflict(
                    responseName: responseName,
                    reason: "\"\(abbreviate(name1))\" and \"\(abbreviate(name2))\" are different fields",
                    fields1: [node1], fields2: [node2])
            }
            if !(try sameArguments(node1.arguments, node2.arguments)) {
                return Conflict(
                    responseName: responseName, reason: "they have differing arguments", fields1: [node1], fields2: [node2])
            }
        }
        if field1.stream != nil || field2.stream != nil {
            var reason = "they have overlapping stream directives"
            if let stream1 = field1.stream, let stream2 = field2.stream,
                try sameArguments(stream1.arguments, stream2.arguments)
            {
                reason += ". See https://github.com/graphql/defer-stream-wg/discussions/100"
            }
            return Conflict(responseName: responseName, reason: reason, fields1: [node1], fields2: [node2])
        }
        if let type1, let type2, try typesConflict(type1, type2) {
            return Conflict(
                responseName: responseName,
                reason: "they return conflicting types \"\(type1.name)\" and \"\(type2.name)\"",
                fields1: [node1], fields2: [node2])
        }
        if let selectionSet1 = node1.selectionSet, let selectionSet2 = node2.selectionSet {
            let conflicts = try conflictsBetweenSubSelectionSets(
                exclusive, type1?.namedType, selectionSet1, type2?.namedType, selectionSet2)
            return subfieldConflicts(conflicts, responseName, node1, node2)
        }
        return nil
    }

    private func subfieldConflicts(_ conflicts: [Conflict], _ responseName: String, _ node1: Field, _ node2: Field)
        -> Conflict?
    {
        if conflicts.isEmpty { return nil }
        var message = ""
        for conflict in conflicts {
            message += (message.isEmpty ? "" : " and ")
                + "subfields \"\(abbreviate(conflict.responseName))\" conflict because \(conflict.reason)"
            if message.count > maxConflictDetailLength { break }
        }
        return Conflict(
            responseName: responseName, reason: abbreviate(message),
            fields1: conflictNodes(node1, conflicts.map(\.fields1)),
            fields2: conflictNodes(node2, conflicts.map(\.fields2)))
    }

    /// The field and the last of each conflict's fields, at most `maxConflictNodes` in all.
    private func conflictNodes(_ node: Field, _ conflictFields: [[Field]]) -> [Field] {
        var nodes = [node]
        for fields in conflictFields {
            let remaining = maxConflictNodes - nodes.count
            nodes += fields.suffix(remaining)
            if nodes.count == maxConflictNodes { break }
        }
        return nodes
    }

    private func sameArguments(_ arguments1: [Argument], _ arguments2: [Argument]) throws(BudgetExhausted) -> Bool {
        if arguments1.count != arguments2.count { return false }
        if arguments1.isEmpty { return true }
        var values2: [String: Value] = [:]
        for argument in arguments2 { values2[argument.name.value] = argument.value }
        for argument in arguments1 {
            try spend(1)
            guard let value2 = values2[argument.name.value], sameValue(argument.value, value2) else { return false }
        }
        return true
    }

    private func typesConflict(_ type1: GraphQLType, _ type2: GraphQLType) throws(BudgetExhausted) -> Bool {
        try spend(1)
        switch (type1, type2) {
        case (.list(let a), .list(let b)), (.nonNull(let a), .nonNull(let b)): return try typesConflict(a, b)
        case (.list, _), (_, .list), (.nonNull, _), (_, .nonNull): return true
        case (.named(let a), .named(let b)):
            return (a.isLeaf || b.isLeaf) && a.name != b.name
        }
    }
}

/// Whether two values are written alike (locations aside; object fields in any order; a block
/// string differs from a plain one), as graphql-js compares arguments.
func sameValue(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.variable(let x), .variable(let y)): return x.name.value == y.name.value
    case (.int(let x), .int(let y)): return x.value == y.value
    case (.float(let x), .float(let y)): return x.value == y.value
    case (.string(let x), .string(let y)): return x.value == y.value && x.block == y.block
    case (.boolean(let x), .boolean(let y)): return x.value == y.value
    case (.null, .null): return true
    case (.enum(let x), .enum(let y)): return x.value == y.value
    case (.list(let x), .list(let y)):
        return x.values.count == y.values.count && zip(x.values, y.values).allSatisfy { sameValue($0, $1) }
    case (.object(let x), .object(let y)):
        if x.fields.count != y.fields.count { return false }
        let sortedX = x.fields.enumerated().sorted { ($0.element.name.value, $0.offset) < ($1.element.name.value, $1.offset) }
        let sortedY = y.fields.enumerated().sorted { ($0.element.name.value, $0.offset) < ($1.element.name.value, $1.offset) }
        return zip(sortedX, sortedY).allSatisfy {
            $0.element.name.value == $1.element.name.value && sameValue($0.element.value, $1.element.value)
        }
    default: return false
    }
}
