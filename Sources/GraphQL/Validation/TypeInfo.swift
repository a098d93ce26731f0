/// The types at the walker's current node, as graphql-js's `TypeInfo` tracks them: the output
/// type and its parent composite type, the field, directive and argument definitions, the
/// expected input type of a value and the parent input type, the default value of the current
/// argument or input field, and the enum value.
///
/// The walker calls `enter…`/`leave…` around each node; the stacks are arrays that keep their
/// storage between nodes, so tracking allocates nothing per node.
public final class TypeInfo {
    public let schema: GraphQLSchema
    private var typeStack: [GraphQLType?] = []
    private var parentTypeStack: [GraphQLNamedType?] = []
    private var inputTypeStack: [GraphQLType?] = []
    private var fieldDefStack: [GraphQLField?] = []
    private var defaultValueStack: [Bool] = []

    /// The directive being visited, when it is defined in the schema.
    public private(set) var directive: GraphQLDirective?
    /// The argument being visited, when its field or directive defines it.
    public private(set) var argument: GraphQLArgument?
    /// The enum value being visited, when the expected enum type has it.
    public private(set) var enumValue: GraphQLEnumValue?

    public init(schema: GraphQLSchema) {
        self.schema = schema
        typeStack.reserveCapacity(32)
        parentTypeStack.reserveCapacity(32)
        fieldDefStack.reserveCapacity(32)
        inputTypeStack.reserveCapacity(8)
        defaultValueStack.reserveCapacity(8)
    }

    /// The output type of the current field (or of the operation or fragment).
    public var type: GraphQLType? { typeStack.last ?? nil }
    /// The composite type whose selection set contains the current node.
    public var parentType: GraphQLNamedType? { parentTypeStack.last ?? nil }
    /// The type the current value must have.
    public var inputType: GraphQLType? { inputTypeStack.last ?? nil }
    /// The type of the value that contains the current value (a list or input object type).
    public var parentInputType: GraphQLType? {
        inputTypeStack.count > 1 ? inputTypeStack[inputTypeStack.count - 2] : nil
    }
    /// The definition of the current field.
    public var fieldDef: GraphQLField? { fieldDefStack.last ?? nil }
    /// Whether the current argument or input field has a default value.
    public var hasDefaultValue: Bool { defaultValueStack.last ?? false }

    // MARK: - Walking

    func enterSelectionSet() {
        let named = type?.namedType
        parentTypeStack.append(named?.isComposite == true ? named : nil)
    }

    func leaveSelectionSet() { parentTypeStack.removeLast() }

    func enterField(_ node: Field) {
        var definition: GraphQLField?
        if let parentType { definition = schema.field(parentType, named: node.name.value) }
        fieldDefStack.append(definition)
        typeStack.append(definition?.type)
    }

    func leaveField() {
        fieldDefStack.removeLast()
        typeStack.removeLast()
    }

    func enterDirective(_ node: Directive) { directive = schema.directive(named: node.name.value) }
    func leaveDirective() { directive = nil }

    func enterOperation(_ node: OperationDefinition) {
        typeStack.append(schema.rootType(for: node.operation).map { .named(.object($0)) })
    }

    /// An inline fragment or fragment definition: its type condition, or else the enclosing type.
    func enterFragment(typeCondition: NamedType?) {
        let named: GraphQLNamedType?
        if let typeCondition {
            named = schema.type(named: typeCondition.name.value)
        } else {
            named = type?.namedType
        }
        typeStack.append(named.flatMap { $0.isOutputType ? .named($0) : nil })
    }

    func leaveOperationOrFragment() { typeStack.removeLast() }

    func enterVariableDefinition(_ node: VariableDefinition) {
        let type = typeFromAST(schema, node.type)
        inputTypeStack.append(type?.isInputType == true ? type : nil)
    }

    func leaveVariableDefinition() { inputTypeStack.removeLast() }

    func enterArgument(_ node: Argument) {
        let definition: GraphQLArgument?
        if let directive {
            definition = directive.arguments[node.name.value]
        } else if let fieldDef = fieldDef {
            definition = fieldDef.arguments[node.name.value]
        } else {
            definition = nil
        }
        argument = definition
        defaultValueStack.append(definition?.defaultValue != nil)
        inputTypeStack.append(definition.flatMap { $0.type.isInputType ? $0.type : nil })
    }

    func leaveArgument() {
        argument = nil
        defaultValueStack.removeLast()
        inputTypeStack.removeLast()
    }

    func enterListValue() {
        var itemType: GraphQLType?
        if case .list(let item) = inputType?.nullableType { itemType = item }
        defaultValueStack.append(false)
        inputTypeStack.append(itemType)
    }

    func enterObjectField(_ node: ObjectField) {
        var fieldType: GraphQLType?
        var hasDefault = false
        if case .inputObject(let object) = inputType?.namedType, let field = object.fields[node.name.value] {
            fieldType = field.type.isInputType ? field.type : nil
            hasDefault = field.defaultValue != nil
        }
        defaultValueStack.append(hasDefault)
        inputTypeStack.append(fieldType)
    }

    /// Leaves a list value or an object field.
    func leaveListValueOrObjectField() {
        defaultValueStack.removeLast()
        inputTypeStack.removeLast()
    }

    func enterEnumValue(_ node: EnumValue) {
        if case .enum(let type) = inputType?.namedType { enumValue = type.values[node.value] } else { enumValue = nil }
    }

    func leaveEnumValue() { enumValue = nil }
}
