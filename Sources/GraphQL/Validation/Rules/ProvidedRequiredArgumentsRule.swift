/// Required arguments: a field or directive is given every argument that is non-null and has no
/// default value.
public final class ProvidedRequiredArgumentsRule: ValidationRule {
    override public var events: ValidationEvents { [.leaveField, .leaveDirective] }

    override public func leaveField(_ node: Field) {
        guard let fieldDef = context.fieldDef, !fieldDef.arguments.isEmpty else { return }
        for argument in fieldDef.arguments where argument.isRequired {
            if node.arguments.contains(where: { $0.name.value == argument.name }) { continue }
            let parent: String
            if let type = context.type, isIntrospectionType(type.namedType) {
                parent = "<meta>."
            } else if let parentType = context.parentType {
                parent = parentType.name + "."
            } else {
                parent = ""
            }
            context.report(
                "Argument \"\(parent)\(node.name.value)(\(argument.name):)\" of type \"\(argument.type.name)\" is required, but it was not provided.",
                [node.loc])
        }
    }

    override public func leaveDirective(_ node: Directive) {
        let name = node.name.value
        let required: [(name: String, type: String)]
        if let definition = context.documentDirectives[name] {
            required = definition.arguments.filter { argument in
                if case .nonNull = argument.type { argument.defaultValue == nil } else { false }
            }.map { ($0.name.value, print($0.type)) }
        } else if let directive = context.schema.directive(named: name) {
            required = directive.arguments.filter(\.isRequired).map { ($0.name, $0.type.name) }
        } else {
            return
        }
        for argument in required where !node.arguments.contains(where: { $0.name.value == argument.name }) {
            context.report(
                "Argument \"@\(name)(\(argument.name):)\" of type \"\(argument.type)\" is required, but it was not provided.",
                [node.loc])
        }
    }
}
