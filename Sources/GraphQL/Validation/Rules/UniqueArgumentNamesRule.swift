/// Argument uniqueness: a field or directive takes each argument once.
public final class UniqueArgumentNamesRule: ValidationRule {
    override public var events: ValidationEvents { [.enterField, .enterDirective] }

    override public func enterField(_ node: Field) -> VisitAction {
        check(node.arguments)
        return .continue
    }

    override public func enterDirective(_ node: Directive, location: DirectiveLocation?) -> VisitAction {
        check(node.arguments)
        return .continue
    }

    private func check(_ arguments: [Argument]) {
        if arguments.count < 2 { return }
        reportDuplicates(arguments.map(\.name)) { "There can be only one argument named \"\($0)\"." }
    }
}
