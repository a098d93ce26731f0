/// Directives are defined, and used only in the locations their definitions allow.
public final class KnownDirectivesRule: ValidationRule {
    override public var events: ValidationEvents { [.enterDirective] }

    override public func enterDirective(_ node: Directive, location: DirectiveLocation?) -> VisitAction {
        let name = node.name.value
        let locations: [String]
        if let definition = context.documentDirectives[name] {
            locations = definition.locations.map(\.value)
        } else if let directive = context.schema.directive(named: name) {
            locations = directive.locations.map(\.rawValue)
        } else {
            locations = []
        }
        if locations.isEmpty {
            context.report("Unknown directive \"@\(name)\".", [node.loc])
        } else if let location, !locations.contains(location.rawValue) {
            context.report("Directive \"@\(name)\" may not be used on \(location.rawValue).", [node.loc])
        }
        return .continue
    }
}
