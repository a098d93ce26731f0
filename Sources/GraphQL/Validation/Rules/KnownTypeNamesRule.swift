/// Named types exist: every type a document names is in the schema (or, inside type-system
/// definitions, is defined by the document or is a built-in type).
public final class KnownTypeNamesRule: ValidationRule {
    private lazy var definedTypeNames: Set<String> = {
        var names = Set<String>()
        for case .type(let type) in context.document.definitions { names.insert(type.name) }
        return names
    }()
    private lazy var typeNames: [String] = Array(Set(context.schema.typeMap.names).union(definedTypeNames))

    override public var events: ValidationEvents { [.enterNamedType] }

    override public func enterNamedType(_ node: NamedType, inTypeSystem: Bool) {
        let name = node.name.value
        if context.schema.type(named: name) != nil || definedTypeNames.contains(name) { return }
        if inTypeSystem, standardTypeNames.contains(name) { return }
        var suggestions: [String] = []
        if !context.hideSuggestions {
            let candidates = inTypeSystem ? Array(standardTypeNames.union(typeNames)) : typeNames
            suggestions = suggestionList(name, candidates)
        }
        context.report("Unknown type \"\(name)\"." + didYouMean(suggestions), [node.loc])
    }
}

/// The built-in scalars and the introspection types, which type-system definitions may name
/// without defining.
private let standardTypeNames: Set<String> = Set(specifiedScalarTypes.map(\.name)).union(introspectionTypes.map(\.name))
