/// Field selections on objects, interfaces and unions: every selected field is defined on the
/// parent type (`__typename` everywhere, `__schema` and `__type` on the query type).
public final class FieldsOnCorrectTypeRule: ValidationRule {
    override public var events: ValidationEvents { [.enterField] }

    override public func enterField(_ node: Field) -> VisitAction {
        guard let parentType = context.parentType, context.fieldDef == nil else { return .continue }
        let name = node.name.value
        var suggestion = ""
        if !context.hideSuggestions {
            suggestion = didYouMean(suggestedTypeNames(parentType, name), subMessage: "to use an inline fragment on")
            if suggestion.isEmpty { suggestion = didYouMean(suggestedFieldNames(parentType, name)) }
        }
        context.report("Cannot query field \"\(name)\" on type \"\(parentType.name)\"." + suggestion, [node.loc])
        return .continue
    }

    /// For an abstract type, the types that have the field: the ones whose fields most of the
    /// others share first, an interface before the types that implement it.
    private func suggestedTypeNames(_ type: GraphQLNamedType, _ fieldName: String) -> [String] {
        guard type.isAbstract else { return [] }
        let schema = context.schema
        var suggested: [GraphQLNamedType] = []
        var seen = Set<String>()
        var usageCount: [String: Int] = [:]
        for possibleType in schema.possibleTypes(of: type) where possibleType.fields[fieldName] != nil {
            if seen.insert(possibleType.name).inserted { suggested.append(.object(possibleType)) }
            usageCount[possibleType.name] = 1
            for interface in possibleType.interfaces where interface.fields[fieldName] != nil {
                if seen.insert(interface.name).inserted { suggested.append(.interface(interface)) }
                usageCount[interface.name, default: 0] += 1
            }
        }
        return suggested.sorted { a, b in
            let difference = usageCount[b.name, default: 0] - usageCount[a.name, default: 0]
            if difference != 0 { return difference < 0 }
            if case .interface = a, schema.isSubType(a, b) { return true }
            if case .interface = b, schema.isSubType(b, a) { return false }
            return naturalCompare(a.name, b.name) < 0
        }.map(\.name)
    }

    private func suggestedFieldNames(_ type: GraphQLNamedType, _ fieldName: String) -> [String] {
        guard let fields = type.fields else { return [] }
        return suggestionList(fieldName, fields.names)
    }
}
