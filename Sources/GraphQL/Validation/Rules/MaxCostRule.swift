/// Limit: an operation costs at most `ValidationLimits.maxCost`.
///
/// The model: each field costs 1 for each time it can occur in the response. A field that pages
/// (it takes a `first` or `last` argument: a list, or a Relay connection) multiplies by the page's
/// size what it and everything under it cost: its literal `first` or `last`, or
/// `ValidationLimits.variableListSize` when a variable gives it (its value is not known when
/// validating, and the document is validated once for every value), or the argument's default in
/// the schema, else `ValidationLimits.defaultListSize`. Another list multiplies by
/// `defaultListSize`, but the lists right under a connection that pages (its `edges` or `nodes`)
/// by 1: the page counted them. Other fields multiply by 1, fragments count where they are spread. So
/// `{ entries(first: 20) { id tags { name } } }`, with `entries` and `tags` lists, costs
/// 20 × (1 + 1 + 10 × (1 + 1)) = 440, and 100 aliases of a connection's
/// `entries(first: 100) { edges { node { id } } }` cost 100 × 100 × 4 = 40,000.
///
/// Introspection (`__schema`, `__type`) costs nothing here: it reads the schema, not data, and
/// `MaxIntrospectionDepthRule` bounds it; so a limit low enough for data leaves code generators'
/// introspection query through.
public final class MaxCostRule: OperationMeasureRule {
    /// The product of the multipliers of the enclosing fields, innermost last.
    private var factors: [Int] = [1]
    /// Whether each enclosing field pages, innermost last.
    private var pages: [Bool] = [false]

    override var limit: Int { context.options.limits.maxCost ?? Int.max }

    override public var events: ValidationEvents {
        [.enterOperation, .leaveDocument, .enterField, .leaveField, .enterFragmentSpread, .enterFragment]
    }

    override public func enterFragment(_ node: FragmentDefinition) -> VisitAction {
        factors = [1]
        pages = [false]
        return .continue
    }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        factors = [1]
        pages = [false]
        return super.enterOperation(node)
    }

    override public func enterField(_ node: Field) -> VisitAction {
        let page = pageSize(node)
        let factor = saturatingMultiply(factors[factors.count - 1], page ?? multiplier(node))
        measures[context.definitionIndex].own = saturatingAdd(measures[context.definitionIndex].own, factor)
        factors.append(factor)
        // A connection's page: its `edges` and `nodes` are the page, not lists of their own.
        pages.append(page != nil && context.type?.nullableType.isList == false)
        return .continue
    }

    override public func leaveField(_ node: Field) {
        factors.removeLast()
        pages.removeLast()
    }

    override public func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction {
        measures[context.definitionIndex].spreads.append((node.name.value, factors[factors.count - 1]))
        return .continue
    }

    /// The multiplier of a field that does not page.
    private func multiplier(_ node: Field) -> Int {
        if node.name.value == "__schema" || node.name.value == "__type" { return 0 }
        guard let type = context.type, type.nullableType.isList, pages[pages.count - 1] == false else { return 1 }
        return context.options.limits.defaultListSize
    }

    /// The size of the page a field with a `first` or `last` argument asks for (the larger of
    /// the two when both are given); nil for a field without them.
    private func pageSize(_ node: Field) -> Int? {
        guard let definition = context.fieldDef else { return nil }
        let limits = context.options.limits
        var size: Int?
        for name in ["first", "last"] {
            guard let argument = definition.arguments[name] else { continue }
            let asked: Int
            switch node.arguments.first(where: { $0.name.value == name })?.value {
            // A literal no GraphQL Int can hold is refused by ValuesOfCorrectTypeRule.
            case .int(let literal)?: asked = Int32(literal.value).map { max(Int($0), 0) } ?? limits.defaultListSize
            case .variable?: asked = limits.variableListSize ?? limits.defaultListSize
            case nil: asked = argument.defaultValue?.intValue ?? limits.defaultListSize
            default: asked = limits.defaultListSize
            }
            size = max(size ?? 0, asked)
        }
        return size
    }

    override func message(_ operation: OperationDefinition, _ total: Int) -> String {
        "\(describe(operation)) has a cost of \(total), more than the maximum of \(limit)."
    }
}
