/// Introspection switched off: no field may return an introspection type (`__schema`,
/// `__type`); `__typename` stays allowed. `validate` adds this rule when the schema's
/// `introspectionEnabled` is off. graphql-js's `NoSchemaIntrospectionCustomRule`.
public final class NoSchemaIntrospectionCustomRule: ValidationRule {
    override public var events: ValidationEvents { [.enterField] }

    override public func enterField(_ node: Field) -> VisitAction {
        if let type = context.type?.namedType, isIntrospectionType(type) {
            context.report(
                "GraphQL introspection has been disabled, but the requested query contained the field \"\(node.name.value)\".",
                [node.loc])
        }
        return .continue
    }
}
