/// Single root field: a subscription selects exactly one top-level field, which is not an
/// introspection field, and its top level uses no `@skip` or `@include`.
public final class SingleFieldSubscriptionsRule: ValidationRule {
    override public var events: ValidationEvents { [.enterOperation] }

    override public func enterOperation(_ node: OperationDefinition) -> VisitAction {
        guard node.operation == .subscription, let subscriptionType = context.schema.subscriptionType else {
            return .continue
        }
        var collector = RootFieldCollector(context: context, rootType: subscriptionType)
        collector.collect(node.selectionSet)
        let subject = node.name.map { "Subscription \"\($0.value)\"" } ?? "Anonymous Subscription"
        if !collector.forbiddenDirectives.isEmpty {
            context.report(
                subject + " must not use `@skip` or `@include` directives in the top level selection.",
                collector.forbiddenDirectives.map(\.loc))
            return .continue
        }
        if collector.groups.isEmpty {
            context.report(subject + " must select one top level field.", [node.selectionSet.loc])
        } else if collector.groups.count > 1 {
            context.report(
                subject + " must select only one top level field.",
                collector.groups.dropFirst().flatMap { $0.fields.map(\.loc) })
        }
        for group in collector.groups where group.fields[0].name.value.hasPrefix("__") {
            context.report(
                subject + " must not select an introspection top level field.", group.fields.map(\.loc))
        }
        return .continue
    }
}

/// Collects the top-level fields of a subscription as execution would (following fragments
/// whose type applies), recording `@skip` and `@include`, which a subscription's top level
/// must not use.
private struct RootFieldCollector {
    let context: ValidationContext
    let rootType: GraphQLObjectType
    var groups: [(key: String, fields: [Field])] = []
    var groupIndex: [String: Int] = [:]
    var forbiddenDirectives: [Directive] = []
    /// Fragments followed, each with the `@defer` it was followed under (nil: none).
    var visited: [String: [Location?]] = [:]

    init(context: ValidationContext, rootType: GraphQLObjectType) {
        self.context = context
        self.rootType = rootType
    }

    mutating func collect(_ selectionSet: SelectionSet, deferredBy parentDefer: Directive? = nil) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                guard isIncluded(field.directives) else { continue }
                let key = field.responseKey
                if let index = groupIndex[key] {
                    groups[index].fields.append(field)
                } else {
                    groupIndex[key] = groups.count
                    groups.append((key, [field]))
                }
            case .inlineFragment(let fragment):
                guard isIncluded(fragment.directives), conditionMatches(fragment.typeCondition) else { continue }
                collect(fragment.selectionSet, deferredBy: deferDirective(fragment.directives) ?? parentDefer)
            case .fragmentSpread(let spread):
                guard isIncluded(spread.directives), let fragment = context.fragments[spread.name.value],
                    conditionMatches(fragment.typeCondition)
                else { continue }
                let deferredBy = deferDirective(spread.directives) ?? parentDefer
                let name = spread.name.value
                let seen = visited[name, default: []]
                if seen.contains(where: { $0 == nil }) { continue }
                if let deferredBy, seen.contains(where: { $0 == deferredBy.loc }) { continue }
                visited[name, default: []].append(deferredBy?.loc)
                collect(fragment.selectionSet, deferredBy: deferredBy)
            }
        }
    }

    /// Records `@skip` (or else `@include`) and leaves the selection out, as graphql-js does.
    private mutating func isIncluded(_ directives: [Directive]) -> Bool {
        if let skip = directives.first(where: { $0.name.value == "skip" }) {
            forbiddenDirectives.append(skip)
            return false
        }
        if let include = directives.first(where: { $0.name.value == "include" }) {
            forbiddenDirectives.append(include)
            return false
        }
        return true
    }

    private func conditionMatches(_ condition: NamedType?) -> Bool {
        guard let condition else { return true }
        guard let type = context.schema.type(named: condition.name.value) else { return false }
        if type.name == rootType.name { return true }
        return type.isAbstract && context.schema.isSubType(type, .object(rootType))
    }

    /// The `@defer` of a fragment, unless its `if` is the literal `false`.
    private func deferDirective(_ directives: [Directive]) -> Directive? {
        guard let directive = directives.first(where: { $0.name.value == "defer" }) else { return nil }
        if let condition = directive.arguments.first(where: { $0.name.value == "if" }),
            case .boolean(let value) = condition.value, !value.value
        {
            return nil
        }
        return directive
    }
}
