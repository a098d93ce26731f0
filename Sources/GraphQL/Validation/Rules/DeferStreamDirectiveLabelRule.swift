/// The `label` of `@defer` and `@stream` is a string literal, unique in the document.
public final class DeferStreamDirectiveLabelRule: ValidationRule {
    private var knownLabels: [String: Directive] = [:]

    override public var events: ValidationEvents { [.enterDirective] }

    override public func enterDirective(_ node: Directive, location: DirectiveLocation?) -> VisitAction {
        let name = node.name.value
        guard name == "defer" || name == "stream",
            let label = node.arguments.first(where: { $0.name.value == "label" })
        else { return .continue }
        switch label.value {
        case .null:
            break
        case .string(let value):
            if let known = knownLabels[value.value] {
                context.report("Defer/Stream directive label argument must be unique.", [known.loc, node.loc])
            } else {
                knownLabels[value.value] = node
            }
        default:
            context.report("\(name.prefix(1).uppercased() + name.dropFirst()) directive label argument must be a static string.", [node.loc])
        }
        return .continue
    }
}
