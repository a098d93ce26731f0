/// `@stream` is used only on list fields.
public final class StreamDirectiveOnListFieldRule: ValidationRule {
    override public var events: ValidationEvents { [.enterDirective] }

    override public func enterDirective(_ node: Directive, location: DirectiveLocation?) -> VisitAction {
        guard node.name.value == "stream", let fieldDef = context.fieldDef, let parentType = context.parentType,
            !fieldDef.type.nullableType.isList
        else { return .continue }
        let isOwnField = parentType.fields?[fieldDef.name] === fieldDef
        let fieldName = isOwnField ? " \"\(fieldDef.name)\"" : ""
        context.report(
            "Stream directive cannot be used on non-list field\(fieldName) on type \"\(parentType.name)\".", [node.loc])
        return .continue
    }
}
