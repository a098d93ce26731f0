/// What the rules of one validation share: the schema and document, the types at the current
/// node (from `TypeInfo`), the fragments by name, the variables each definition uses, and the
/// errors reported so far.
public final class ValidationContext {
    public let schema: GraphQLSchema
    public let document: Document
    /// The types at the walker's current node.
    public let typeInfo: TypeInfo
    /// Whether messages must not suggest names ("Did you mean …?"): the schema's
    /// `suggestionsEnabled` is off, or the options say so.
    public let hideSuggestions: Bool
    public let options: ValidationOptions

    /// The fragment definitions by name (the last one of a name, as graphql-js keeps).
    public let fragments: [String: FragmentDefinition]
    /// The index in `document.definitions` of each fragment in `fragments`.
    let fragmentIndexes: [String: Int]
    /// The directives the document defines (they override the schema's of the same name).
    public let documentDirectives: [String: DirectiveDefinition]

    /// The variables used in each executable definition (by index in `document.definitions`),
    /// in document order, recorded by the walker. Complete for a definition once it is left.
    var usagesByDefinition: [[VariableUsage]]
    private var spreadsByDefinition: [Int: [FragmentSpread]] = [:]
    private var recursiveUsagesByOperation: [Int: [VariableUsage]] = [:]

    // Errors, each with where it belongs in graphql-js's order (see `ErrorPosition`).
    private(set) var errors: [(position: ErrorPosition, message: String, locations: [Location?])] = []
    /// Set when the error limit is reached or validation is aborted: the walker stops.
    private(set) var abortMessage: String?
    var needsSorting = false
    var currentEvent = 0
    /// The definition being walked, as an index in `document.definitions`.
    public internal(set) var definitionIndex = 0
    var currentRule = 0

    init(schema: GraphQLSchema, document: Document, options: ValidationOptions) {
        self.schema = schema
        self.document = document
        self.options = options
        self.typeInfo = TypeInfo(schema: schema)
        self.hideSuggestions = options.hideSuggestions || !schema.suggestionsEnabled
        var fragments: [String: FragmentDefinition] = [:]
        var fragmentIndexes: [String: Int] = [:]
        var directives: [String: DirectiveDefinition] = [:]
        for (index, definition) in document.definitions.enumerated() {
            switch definition {
            case .fragment(let fragment):
                fragments[fragment.name.value] = fragment
                fragmentIndexes[fragment.name.value] = index
            case .directive(let directive):
                directives[directive.name.value] = directive
            default:
                break
            }
        }
        self.fragments = fragments
        self.fragmentIndexes = fragmentIndexes
        self.documentDirectives = directives
        self.usagesByDefinition = Array(repeating: [], count: document.definitions.count)
    }

    // MARK: - Types at the current node

    public var type: GraphQLType? { typeInfo.type }
    public var parentType: GraphQLNamedType? { typeInfo.parentType }
    public var inputType: GraphQLType? { typeInfo.inputType }
    public var parentInputType: GraphQLType? { typeInfo.parentInputType }
    public var fieldDef: GraphQLField? { typeInfo.fieldDef }
    public var directive: GraphQLDirective? { typeInfo.directive }
    public var argument: GraphQLArgument? { typeInfo.argument }

    // MARK: - Errors

    /// Where the rule reporting now stands in graphql-js's order of errors.
    public var position: ErrorPosition { ErrorPosition(event: currentEvent, rule: currentRule) }

    /// Reports an error about the nodes at `locations`.
    public func report(_ message: String, _ locations: [Location?]) {
        report(message, locations, at: position)
    }

    /// Reports an error found later than graphql-js finds it (for example once the fragments
    /// that follow an operation are walked), in the place graphql-js would have reported it.
    public func report(_ message: String, _ locations: [Location?], at position: ErrorPosition) {
        guard abortMessage == nil else { return }
        if let last = errors.last?.position, position < last { needsSorting = true }
        errors.append((position, message, locations))
        if errors.count > options.maxErrors {
            abortMessage = "Too many validation errors, error limit reached. Validation aborted."
        }
    }

    /// Stops the validation, adding `message` after the errors found so far.
    func abort(_ message: String) {
        if abortMessage == nil { abortMessage = message }
    }

    var isAborted: Bool { abortMessage != nil }

    // MARK: - Fragments and variables

    /// The fragment spreads in a selection set, nested ones included, not following fragments,
    /// in graphql-js's order.
    public func fragmentSpreads(in selectionSet: SelectionSet) -> [FragmentSpread] {
        var spreads: [FragmentSpread] = []
        var setsToVisit = [selectionSet]
        while let set = setsToVisit.popLast() {
            for selection in set.selections {
                switch selection {
                case .fragmentSpread(let spread): spreads.append(spread)
                case .field(let field): if let nested = field.selectionSet { setsToVisit.append(nested) }
                case .inlineFragment(let fragment): setsToVisit.append(fragment.selectionSet)
                }
            }
        }
        return spreads
    }

    /// `fragmentSpreads(in:)` of the definition at `index`, computed once.
    func fragmentSpreads(ofDefinition index: Int) -> [FragmentSpread] {
        if let spreads = spreadsByDefinition[index] { return spreads }
        let spreads: [FragmentSpread]
        switch document.definitions[index] {
        case .operation(let operation): spreads = fragmentSpreads(in: operation.selectionSet)
        case .fragment(let fragment): spreads = fragmentSpreads(in: fragment.selectionSet)
        default: spreads = []
        }
        spreadsByDefinition[index] = spreads
        return spreads
    }

    /// The fragments that the definitions at `indexes` spread, directly or through other
    /// fragments, as indexes in `document.definitions`, in graphql-js's order.
    func recursivelyReferencedFragments(ofDefinitions indexes: [Int]) -> [Int] {
        var names: [String] = []
        var collected = Set<String>()
        for index in indexes {
            for spread in fragmentSpreads(ofDefinition: index) where collected.insert(spread.name.value).inserted {
                names.append(spread.name.value)
            }
        }
        var fragments: [Int] = []
        var next = 0
        while next < names.count {
            if let index = fragmentIndexes[names[next]] {
                fragments.append(index)
                for spread in fragmentSpreads(ofDefinition: index) where collected.insert(spread.name.value).inserted {
                    names.append(spread.name.value)
                }
            }
            next += 1
        }
        return fragments
    }

    /// The variables that the operation at `index` uses, in its own selections and in the
    /// fragments it spreads. Complete once the document is walked.
    func recursiveVariableUsages(ofOperation index: Int) -> [VariableUsage] {
        if let usages = recursiveUsagesByOperation[index] { return usages }
        var usages = usagesByDefinition[index]
        for fragment in recursivelyReferencedFragments(ofDefinitions: [index]) {
            usages += usagesByDefinition[fragment]
        }
        recursiveUsagesByOperation[index] = usages
        return usages
    }
}

/// A variable used in a document, with the type its position expects.
public struct VariableUsage {
    public var node: Variable
    /// The input type expected where the variable is used.
    public var type: GraphQLType?
    /// The list or input object type around the variable, if any.
    public var parentType: GraphQLType?
    /// Whether the argument or input field where the variable is used has a default value.
    public var hasLocationDefaultValue: Bool
}

/// Where an error falls in graphql-js's order: graphql-js reports errors as it walks, at each
/// node calling the rules in order. `event` counts the walker's enter and leave calls, `rule`
/// is the rule's index in the rule list.
public struct ErrorPosition: Comparable, Sendable {
    var event: Int
    var rule: Int

    public static func < (lhs: ErrorPosition, rhs: ErrorPosition) -> Bool {
        lhs.event != rhs.event ? lhs.event < rhs.event : lhs.rule < rhs.rule
    }
}
