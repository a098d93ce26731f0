/// Executable definitions: a document to execute holds only operations and fragments.
public final class ExecutableDefinitionsRule: ValidationRule {
    override public var events: ValidationEvents { [.enterDocument] }

    override public func enterDocument(_ node: Document) -> VisitAction {
        for definition in node.definitions {
            let described: String
            let loc: Location?
            switch definition {
            case .operation, .fragment: continue
            case .schema(let schema): (described, loc) = ("schema", schema.loc)
            case .schemaExtension(let schema): (described, loc) = ("schema", schema.loc)
            case .directive(let directive): (described, loc) = ("\"\(directive.name.value)\"", directive.loc)
            case .type(let type): (described, loc) = ("\"\(type.name)\"", type.loc)
            case .typeExtension(let type): (described, loc) = ("\"\(type.name)\"", type.loc)
            }
            context.report("The \(described) definition is not executable.", [loc])
        }
        return .skip
    }
}
