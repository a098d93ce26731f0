/// Argument names: every argument given to a field or directive is defined by it.
public final class KnownArgumentNamesRule: ValidationRule {
    override public var events: ValidationEvents { [.enterDirective, .enterArgument] }

    /// A directive's arguments are checked here; the rule skips them as arguments.
    override public func enterDirective(_ node: Directive, location: DirectiveLocation?) -> VisitAction {
        let name = node.name.value
        if !node.arguments.isEmpty, let known = knownArguments(name) {
            for argument in node.arguments where !known.contains(argument.name.value) {
                let suggestions = context.hideSuggestions ? [] : suggestionList(argument.name.value, known)
                context.report(
                    "Unknown argument \"\(argument.name.value)\" on directive \"@\(name)\"." + didYouMean(suggestions),
                    [argument.loc])
            }
        }
        return .skip
    }

    override public func enterArgument(_ node: Argument) -> VisitAction {
        if context.argument == nil, let fieldDef = context.fieldDef, let parentType = context.parentType {
            let name = node.name.value
            let suggestions = context.hideSuggestions ? [] : suggestionList(name, fieldDef.arguments.names)
            context.report(
                "Unknown argument \"\(name)\" on field \"\(parentType.name).\(fieldDef.name)\"." + didYouMean(suggestions),
                [node.loc])
        }
        return .continue
    }

    /// The argument names of a directive the document or the schema defines.
    private func knownArguments(_ name: String) -> [String]? {
        if let definition = context.documentDirectives[name] { return definition.arguments.map(\.name.value) }
        return context.schema.directive(named: name)?.arguments.names
    }
}
