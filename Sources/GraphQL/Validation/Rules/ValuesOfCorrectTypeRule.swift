/// Values of correct type: every literal fits the input type of its position (scalars as their
/// literal coercion accepts, enum values that exist, input objects with their required fields
/// and no unknown ones, `@oneOf` input objects with exactly one non-null field).
public final class ValuesOfCorrectTypeRule: ValidationRule {
    override public var events: ValidationEvents { [.enterValue] }

    /// Checks the whole value at once and skips its parts (a variable is left to other rules).
    override public func enterValue(_ node: Value) -> VisitAction {
        let type: GraphQLType?
        switch node {
        case .variable: return .continue
        // The walker has already entered the list: its type is the parent input type.
        case .list: type = context.parentInputType
        default: type = context.inputType
        }
        if let type {
            let context = self.context
            validateInputLiteral(node, type, hideSuggestions: context.hideSuggestions) { error in
                context.report(error.message, [error.node])
            }
        }
        return .skip
    }
}
