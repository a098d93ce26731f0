/// A validation rule: one check of the specification (or one abuse limit), written as a visitor
/// of the document, as graphql-js's rules are.
///
/// The validator walks the document once and calls every rule at each node; a rule overrides the
/// `enter…`/`leave…` methods it needs and lists them in `events`, so the walker calls it only
/// there (a rule's method that is not in its `events` is never called). Rules read the types at
/// the current node from the `context` (`parentType`, `fieldDef`, `inputType`, …) and report
/// errors with `context.report`.
///
/// An `enter…` method may return `.skip`: the walker then calls this rule for nothing inside that
/// node, and not for the node's `leave…` either (other rules are not affected), as returning
/// `false` from a graphql-js visitor does.
///
/// A rule is a class made fresh for each validation: it may keep state across nodes.
open class ValidationRule {
    /// The validation this rule takes part in (which outlives its rules: `validate` holds it).
    public unowned(unsafe) let context: ValidationContext
    /// The walker's nesting level at which this rule returned `.skip`, or -1 while it is active.
    final var skippedAtLevel = -1
    /// The rule's place in the rule list, which orders errors found at the same node.
    final var index = 0

    public required init(context: ValidationContext) {
        self.context = context
    }

    /// The methods the walker calls on this rule.
    open var events: ValidationEvents { [] }

    open func enterDocument(_ node: Document) -> VisitAction { .continue }
    open func leaveDocument(_ node: Document) {}
    open func enterOperation(_ node: OperationDefinition) -> VisitAction { .continue }
    open func leaveOperation(_ node: OperationDefinition) {}
    open func enterFragment(_ node: FragmentDefinition) -> VisitAction { .continue }
    open func leaveFragment(_ node: FragmentDefinition) {}
    open func enterVariableDefinition(_ node: VariableDefinition) -> VisitAction { .continue }
    /// `parentIsInlineFragment`: the set is an inline fragment's (graphql-js passes the parent).
    open func enterSelectionSet(_ node: SelectionSet, parentIsInlineFragment: Bool) -> VisitAction { .continue }
    open func leaveSelectionSet(_ node: SelectionSet) {}
    open func enterField(_ node: Field) -> VisitAction { .continue }
    open func leaveField(_ node: Field) {}
    open func enterFragmentSpread(_ node: FragmentSpread) -> VisitAction { .continue }
    open func enterInlineFragment(_ node: InlineFragment) -> VisitAction { .continue }
    /// The directives of one node, before each is entered: `owner` tells which node has them.
    open func enterDirectives(_ nodes: [Directive], owner: DirectiveOwner) {}
    /// One directive; `location` is where it is applied (nil where no location applies).
    open func enterDirective(_ node: Directive, location: DirectiveLocation?) -> VisitAction { .continue }
    open func leaveDirective(_ node: Directive) {}
    /// An argument of a field or directive.
    open func enterArgument(_ node: Argument) -> VisitAction { .continue }
    /// Any value: a literal, a list, an object or a variable.
    open func enterValue(_ node: Value) -> VisitAction { .continue }
    open func leaveValue(_ node: Value) {}
    open func enterObjectField(_ node: ObjectField) -> VisitAction { .continue }
    /// A named type: a type condition, a variable's type, or a type in a type-system definition
    /// (`inTypeSystem`).
    open func enterNamedType(_ node: NamedType, inTypeSystem: Bool) {}
}

/// What a rule's `enter…` method tells the walker.
public enum VisitAction: Sendable {
    /// Go on into the node.
    case `continue`
    /// Call this rule for nothing inside the node, nor for its `leave…`.
    case skip
}

/// The node that a list of directives is applied to, for rules that compare directives across
/// nodes (a type and its extensions share their directives).
public enum DirectiveOwner: Sendable {
    /// An executable node: an operation, field, fragment, spread or variable definition.
    case executable
    /// A schema definition or extension.
    case schema
    /// A type definition or extension, by the type's name.
    case type(String)
    /// A directive definition, by the directive's name.
    case directive(String)
    /// A field, argument, enum value or input field definition.
    case member
}

/// The `enter…`/`leave…` methods of `ValidationRule` that a rule implements.
public struct ValidationEvents: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let enterDocument = ValidationEvents(rawValue: 1 << 0)
    public static let leaveDocument = ValidationEvents(rawValue: 1 << 1)
    public static let enterOperation = ValidationEvents(rawValue: 1 << 2)
    public static let leaveOperation = ValidationEvents(rawValue: 1 << 3)
    public static let enterFragment = ValidationEvents(rawValue: 1 << 4)
    public static let leaveFragment = ValidationEvents(rawValue: 1 << 5)
    public static let enterVariableDefinition = ValidationEvents(rawValue: 1 << 6)
    public static let enterSelectionSet = ValidationEvents(rawValue: 1 << 7)
    public static let leaveSelectionSet = ValidationEvents(rawValue: 1 << 8)
    public static let enterField = ValidationEvents(rawValue: 1 << 9)
    public static let leaveField = ValidationEvents(rawValue: 1 << 10)
    public static let enterFragmentSpread = ValidationEvents(rawValue: 1 << 11)
    public static let enterInlineFragment = ValidationEvents(rawValue: 1 << 12)
    public static let enterDirectives = ValidationEvents(rawValue: 1 << 13)
    public static let enterDirective = ValidationEvents(rawValue: 1 << 14)
    public static let leaveDirective = ValidationEvents(rawValue: 1 << 15)
    public static let enterArgument = ValidationEvents(rawValue: 1 << 16)
    public static let enterValue = ValidationEvents(rawValue: 1 << 17)
    public static let leaveValue = ValidationEvents(rawValue: 1 << 18)
    public static let enterObjectField = ValidationEvents(rawValue: 1 << 19)
    public static let enterNamedType = ValidationEvents(rawValue: 1 << 20)

    static let count = 21
}
