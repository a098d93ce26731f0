/// Limits against abusive documents (nil switches a limit off). The depth is checked first, and
/// a document too deep is refused at once; the other limits are rules that `validate` adds to
/// the specification's.
///
/// The defaults let every ordinary client document through, the standard introspection query of
/// GraphiQL and code generators included (depth 15 with graphql-js 17's nine levels of `ofType`;
/// introspection costs nothing, see `MaxCostRule`), and refuse what only an attacker writes.
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
    /// The cost multiplier of a `first` or `last` argument a variable gives: the largest page the
    /// server returns, so that a variable cannot ask for more than a literal may; nil counts
    /// `defaultListSize`.
    public var variableListSize: Int?

    public init(
        maxDepth: Int? = 20, maxAliases: Int? = 100, maxDirectivesPerLocation: Int? = 10, maxCost: Int? = 100_000,
        defaultListSize: Int = 10, variableListSize: Int? = nil
    ) {
        self.maxDepth = maxDepth
        self.maxAliases = maxAliases
        self.maxDirectivesPerLocation = maxDirectivesPerLocation
        self.maxCost = maxCost
        self.defaultListSize = defaultListSize
        self.variableListSize = variableListSize
    }

    /// No limits: graphql-js's behaviour.
    public static let none = ValidationLimits(maxDepth: nil, maxAliases: nil, maxDirectivesPerLocation: nil, maxCost: nil)

    /// The rules that check the limits that are set.
    var rules: [ValidationRule.Type] {
        var rules: [ValidationRule.Type] = []
        if maxAliases != nil { rules.append(MaxAliasesRule.self) }
        if maxDirectivesPerLocation != nil { rules.append(MaxDirectivesRule.self) }
        if maxCost != nil { rules.append(MaxCostRule.self) }
        return rules
    }
}

/// A quantity of each operation that counts what fragments it spreads, where they are spread:
/// measured per definition while the document is walked, then combined through the fragments
/// (each computed once; a spread that closes a cycle counts nothing, another rule reports it).
public class OperationMeasureRule: WholeDocumentOperationRule {
    /// Each definition's own measure and its spreads, by definition index.
    var measures: [Measure]
    private var fragmentTotals: [String: Int] = [:]
    private var inProgress = Set<String>()

    public required init(context: ValidationContext) {
        measures = Array(repeating: Measure(), count: context.document.definitions.count)
        super.init(context: context)
    }

    struct Measure {
        var own = 0
        /// Each spread's fragment and what its measure is multiplied by where it is spread.
        var spreads: [(name: String, factor: Int)] = []
    }

    var limit: Int { Int.max }

    func message(_ operation: OperationDefinition, _ total: Int) -> String { "" }

    override func check(_ operation: OperationDefinition, index: Int, at position: ErrorPosition) {
        let total = self.total(measures[index])
        if total > limit { context.report(message(operation, total), [operation.loc], at: position) }
    }

    private func total(_ measure: Measure) -> Int {
        var total = measure.own
        for (name, factor) in measure.spreads {
            let fragment = fragmentTotal(name)
            total = saturatingAdd(total, saturatingMultiply(factor, fragment))
        }
        return total
    }

    private func fragmentTotal(_ name: String) -> Int {
        if let known = fragmentTotals[name] { return known }
        guard let index = context.fragmentIndexes[name], inProgress.insert(name).inserted else { return 0 }
        let total = total(measures[index])
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
