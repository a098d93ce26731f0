/// Limits against abusive documents, checked with the specification's rules (each limit is a
/// rule, added by `validate` when the limit is set; nil switches a limit off).
///
/// The defaults let every ordinary client document through, the standard introspection query of
/// GraphiQL and code generators included (depth 15 with graphql-js 17's nine levels of `ofType`),
/// and refuse what only an attacker writes.
///
/// Fragments count where they are spread: a fragment spread three times counts three times, so
/// nesting fragments does not escape a limit.
public struct ValidationLimits: Sendable {
    /// The deepest nesting of fields in an operation: `{ a { b } }` has depth 2.
    public var maxDepth: Int?
    /// The most aliased fields in an operation.
    public var maxAliases: Int?
    /// The most directives on one node (a field, fragment, operation, …).
    public var maxDirectivesPerLocation: Int?
    /// The greatest cost of an operation; see `MaxCostRule` for the model.
    public var maxCost: Int?
    /// The cost multiplier of a list field without a literal `first` or `last` argument.
    public var defaultListSize: Int

    public init(
        maxDepth: Int? = 20, maxAliases: Int? = 100, maxDirectivesPerLocation: Int? = 10, maxCost: Int? = 50_000,
        defaultListSize: Int = 10
    ) {
        self.maxDepth = maxDepth
        self.maxAliases = maxAliases
        self.maxDirectivesPerLocation = maxDirectivesPerLocation
        self.maxCost = maxCost
        self.defaultListSize = defaultListSize
    }

    /// No limits: graphql-js's behaviour.
    public static let none = ValidationLimits(maxDepth: nil, maxAliases: nil, maxDirectivesPerLocation: nil, maxCost: nil)

    /// The rules that check the limits that are set.
    var rules: [ValidationRule.Type] {
        var rules: [ValidationRule.Type] = []
        if maxDepth != nil { rules.append(MaxDepthRule.self) }
        if maxAliases != nil { rules.append(MaxAliasesRule.self) }
        if maxDirectivesPerLocation != nil { rules.append(MaxDirectivesRule.self) }
        if maxCost != nil { rules.append(MaxCostRule.self) }
        return rules
    }
}

/// A quantity of each operation that counts what fragments it spreads, where they are spread:
/// measured per definition while the document is walked, then combined through the fragments
/// (each computed once; a spread that closes a cycle counts nothing, another rule reports it).
public class OperationMeasureRule: ValidationRule {
    /// Each definition's own measure and its spreads, by definition index.
    var measures: [Int: Measure] = [:]
    private var operations: [(index: Int, position: ErrorPosition)] = []
    private var fragmentTotals: [String: Int] = [:]
    private var inProgress = Set<String>()

    struct Measure {
        var own = 0
        /// Each spread's fragment and what its measure is multiplied by (or added to).
        var spreads: [(name: String, factor: Int)] = []
    }

    /// Whether the measure of a spread is the fragment's measure plus `factor` (depth), or times
    /// `factor` (counts and costs).
    var combinesByAdding: Bool { false }
    var limit: Int { Int.max }

    func message(_ operation: OperationDefinition, _ total: Int) -> String { "" }

    override public var events: ValidationEvents { [.enterOperation, .leaveDocument] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        operations.append((context.definitionIndex, context.position))
        return .continue
    }

    override public func leaveDocument(_ node: Document) {
        for (index, position) in operations {
            guard case .operation(let operation) = context.document.definitions[index] else { continue }
            let total = self.total(measures[index] ?? Measure())
            if total > limit { context.report(message(operation, total), [operation.loc], at: position) }
        }
    }

    private func total(_ measure: Measure) -> Int {
        var total = measure.own
        for (name, factor) in measure.spreads {
            let fragment = fragmentTotal(name)
            total =
                combinesByAdding
                ? max(total, saturatingAdd(factor, fragment)) : saturatingAdd(total, saturatingMultiply(factor, fragment))
        }
        return total
    }

    private func fragmentTotal(_ name: String) -> Int {
        if let known = fragmentTotals[name] { return known }
        guard let index = context.fragmentIndexes[name], inProgress.insert(name).inserted else { return 0 }
        let total = total(measures[index] ?? Measure())
        inProgress.remove(name)
        fragmentTotals[name] = total
        return total
    }
}

func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
}

func saturatingMultiply(_ a: Int, _ b: Int) -> Int {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? Int.max : product
}

/// "the operation "Feed"" or "the anonymous query".
func describe(_ operation: OperationDefinition) -> String {
    operation.name.map { "Operation \"\($0.value)\"" } ?? "The anonymous \(operation.operation.rawValue)"
}
