/// Directives are unique per location: a directive that is not repeatable is applied at most once
/// to a node (and once across a type and its extensions, or a schema and its extensions).
public final class UniqueDirectivesPerLocationRule: ValidationRule {
    private var schemaDirectives: [String: Directive] = [:]
    private var typeDirectives: [String: [String: Directive]] = [:]
    private var directiveDirectives: [String: [String: Directive]] = [:]

    override public var events: ValidationEvents { [.enterDirectives] }

    override public func enterDirectives(_ nodes: [Directive], owner: DirectiveOwner) {
        var seen: [String: Directive]
        switch owner {
        case .schema: seen = schemaDirectives
        case .type(let name): seen = typeDirectives[name] ?? [:]
        case .directive(let name): seen = directiveDirectives[name] ?? [:]
        case .executable, .member: seen = [:]
        }
        for directive in nodes {
            let name = directive.name.value
            guard isUnique(name) else { continue }
            if let first = seen[name] {
                context.report(
                    "The directive \"@\(name)\" can only be used once at this location.", [first.loc, directive.loc])
            } else {
                seen[name] = directive
            }
        }
        switch owner {
        case .schema: schemaDirectives = seen
        case .type(let name): typeDirectives[name] = seen
        case .directive(let name): directiveDirectives[name] = seen
        case .executable, .member: break
        }
    }

    /// Whether a directive is known and not repeatable.
    private func isUnique(_ name: String) -> Bool {
        if let definition = context.documentDirectives[name] { return !definition.repeatable }
        if let directive = context.schema.directive(named: name) { return !directive.isRepeatable }
        return false
    }
}
