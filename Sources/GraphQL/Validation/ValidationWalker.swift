/// Walks a document once, in graphql-js's order, keeping `TypeInfo` up to date and calling at
/// each node the rules that asked for it (see `ValidationRule.events`).
///
/// graphql-js visits with a generic visitor that looks up each rule's handler for each node
/// kind; here each node kind has its own method and each event its own list of rules, so a node
/// costs one call per interested rule. The walk records what rules need across definitions: the
/// variables each definition uses, with their expected types.
final class ValidationWalker {
    private let context: ValidationContext
    private let typeInfo: TypeInfo
    /// The rules to call for each event, by the event's bit position.
    private var rulesByEvent: [[ValidationRule]]
    /// Rules that returned `.skip`, innermost last.
    private var skippedRules: [ValidationRule] = []
    /// The nesting level of the current node.
    private var level = 0
    /// Whether to record variable usages: not inside a variable definition.
    private var recordsUsages = false
    private let nesting: DocumentNesting

    init(context: ValidationContext, rules: [ValidationRule]) {
        self.context = context
        self.typeInfo = context.typeInfo
        rulesByEvent = Array(repeating: [], count: ValidationEvents.count)
        for rule in rules {
            let events = rule.events.rawValue
            for bit in 0..<ValidationEvents.count where events & (1 << bit) != 0 {
                rulesByEvent[bit].append(rule)
            }
        }
        nesting = DocumentNesting(context.document, fragments: context.fragments)
    }

    // MARK: - Dispatch

    private static func bit(_ event: ValidationEvents) -> Int { event.rawValue.trailingZeroBitCount }

    /// Calls `body` on each active rule of `event`; a rule that answers `.skip` is skipped until
    /// the node at the current level is left.
    @inline(__always)
    private func enter(_ event: ValidationEvents, _ body: (ValidationRule) -> VisitAction) {
        context.currentEvent &+= 1
        let rules = rulesByEvent[Self.bit(event)]
        if rules.isEmpty { return }
        for rule in rules where rule.skippedAtLevel < 0 {
            context.currentRule = rule.index
            if body(rule) == .skip {
                rule.skippedAtLevel = level
                skippedRules.append(rule)
            }
        }
    }

    @inline(__always)
    private func leave(_ event: ValidationEvents, _ body: (ValidationRule) -> Void) {
        context.currentEvent &+= 1
        let rules = rulesByEvent[Self.bit(event)]
        for rule in rules where rule.skippedAtLevel < 0 {
            context.currentRule = rule.index
            body(rule)
        }
    }

    /// Ends the skips of the rules that skipped the node at the current level.
    @inline(__always)
    private func endSkips() {
        while let last = skippedRules.last, last.skippedAtLevel == level {
            last.skippedAtLevel = -1
            skippedRules.removeLast()
        }
    }

    // MARK: - Document

    func walk() {
        let document = context.document
        level += 1
        enter(.enterDocument) { $0.enterDocument(document) }
        for (index, definition) in document.definitions.enumerated() {
            if context.isAborted { return }
            context.definitionIndex = index
            switch definition {
            case .operation(let operation):
                if nesting.exceedsLimit(operation: operation) { return context.abort("Validation aborted.") }
                walkOperation(operation)
            case .fragment(let fragment):
                if nesting.exceedsLimit(fragment: fragment) { return context.abort("Validation aborted.") }
                walkFragment(fragment)
            default:
                walkTypeSystemDefinition(definition)
            }
        }
        if context.isAborted { return }
        leave(.leaveDocument) { $0.leaveDocument(document) }
        endSkips()
        level -= 1
    }

    private func walkOperation(_ node: OperationDefinition) {
        level += 1
        typeInfo.enterOperation(node)
        enter(.enterOperation) { $0.enterOperation(node) }
        announceDirectives(node.directives, owner: .executable)
        for definition in node.variableDefinitions { walkVariableDefinition(definition) }
        recordsUsages = true
        walkDirectives(node.directives, location: directiveLocation(of: node.operation))
        walkSelectionSet(node.selectionSet, parentIsInlineFragment: false)
        recordsUsages = false
        leave(.leaveOperation) { $0.leaveOperation(node) }
        typeInfo.leaveOperationOrFragment()
        endSkips()
        level -= 1
    }

    private func walkFragment(_ node: FragmentDefinition) {
        level += 1
        typeInfo.enterFragment(typeCondition: node.typeCondition)
        enter(.enterFragment) { $0.enterFragment(node) }
        announceDirectives(node.directives, owner: .executable)
        recordsUsages = true
        walkNamedType(node.typeCondition, inTypeSystem: false)
        walkDirectives(node.directives, location: .fragmentDefinition)
        walkSelectionSet(node.selectionSet, parentIsInlineFragment: false)
        recordsUsages = false
        leave(.leaveFragment) { $0.leaveFragment(node) }
        typeInfo.leaveOperationOrFragment()
        endSkips()
        level -= 1
    }

    private func walkVariableDefinition(_ node: VariableDefinition) {
        level += 1
        typeInfo.enterVariableDefinition(node)
        enter(.enterVariableDefinition) { $0.enterVariableDefinition(node) }
        announceDirectives(node.directives, owner: .executable)
        walkTypeReference(node.type, inTypeSystem: false)
        if let value = node.defaultValue { walkValue(value) }
        walkDirectives(node.directives, location: .variableDefinition)
        typeInfo.leaveVariableDefinition()
        endSkips()
        level -= 1
    }

    // MARK: - Selections

    private func walkSelectionSet(_ node: SelectionSet, parentIsInlineFragment: Bool) {
        level += 1
        typeInfo.enterSelectionSet()
        enter(.enterSelectionSet) { $0.enterSelectionSet(node, parentIsInlineFragment: parentIsInlineFragment) }
        for selection in node.selections {
            if context.isAborted { break }
            switch selection {
            case .field(let field): walkField(field)
            case .fragmentSpread(let spread): walkFragmentSpread(spread)
            case .inlineFragment(let fragment): walkInlineFragment(fragment)
            }
        }
        leave(.leaveSelectionSet) { $0.leaveSelectionSet(node) }
        typeInfo.leaveSelectionSet()
        endSkips()
        level -= 1
    }

    private func walkField(_ node: Field) {
        level += 1
        typeInfo.enterField(node)
        enter(.enterField) { $0.enterField(node) }
        announceDirectives(node.directives, owner: .executable)
        for argument in node.arguments { walkArgument(argument) }
        walkDirectives(node.directives, location: .field)
        if let selectionSet = node.selectionSet { walkSelectionSet(selectionSet, parentIsInlineFragment: false) }
        leave(.leaveField) { $0.leaveField(node) }
        typeInfo.leaveField()
        endSkips()
        level -= 1
    }

    private func walkFragmentSpread(_ node: FragmentSpread) {
        level += 1
        enter(.enterFragmentSpread) { $0.enterFragmentSpread(node) }
        announceDirectives(node.directives, owner: .executable)
        walkDirectives(node.directives, location: .fragmentSpread)
        endSkips()
        level -= 1
    }

    private func walkInlineFragment(_ node: InlineFragment) {
        level += 1
        typeInfo.enterFragment(typeCondition: node.typeCondition)
        enter(.enterInlineFragment) { $0.enterInlineFragment(node) }
        announceDirectives(node.directives, owner: .executable)
        if let typeCondition = node.typeCondition { walkNamedType(typeCondition, inTypeSystem: false) }
        walkDirectives(node.directives, location: .inlineFragment)
        walkSelectionSet(node.selectionSet, parentIsInlineFragment: true)
        typeInfo.leaveOperationOrFragment()
        endSkips()
        level -= 1
    }

    // MARK: - Directives, arguments, values

    /// Tells the rules about a node's directives as the node is entered (graphql-js's rules see
    /// a node's directives on entering it, before its children): same event as the node's.
    private func announceDirectives(_ nodes: [Directive], owner: DirectiveOwner) {
        if nodes.isEmpty { return }
        for rule in rulesByEvent[Self.bit(.enterDirectives)] where rule.skippedAtLevel < 0 {
            context.currentRule = rule.index
            rule.enterDirectives(nodes, owner: owner)
        }
    }

    private func walkDirectives(_ nodes: [Directive], location: DirectiveLocation?) {
        for node in nodes {
            level += 1
            typeInfo.enterDirective(node)
            enter(.enterDirective) { $0.enterDirective(node, location: location) }
            for argument in node.arguments { walkArgument(argument) }
            leave(.leaveDirective) { $0.leaveDirective(node) }
            typeInfo.leaveDirective()
            endSkips()
            level -= 1
        }
    }

    private func walkArgument(_ node: Argument) {
        level += 1
        typeInfo.enterArgument(node)
        enter(.enterArgument) { $0.enterArgument(node) }
        walkValue(node.value)
        typeInfo.leaveArgument()
        endSkips()
        level -= 1
    }

    private func walkValue(_ node: Value) {
        level += 1
        switch node {
        case .list(let list):
            typeInfo.enterListValue()
            enter(.enterValue) { $0.enterValue(node) }
            for item in list.values { walkValue(item) }
            leave(.leaveValue) { $0.leaveValue(node) }
            typeInfo.leaveListValueOrObjectField()
        case .object(let object):
            enter(.enterValue) { $0.enterValue(node) }
            for field in object.fields { walkObjectField(field) }
            leave(.leaveValue) { $0.leaveValue(node) }
        case .enum(let value):
            typeInfo.enterEnumValue(value)
            enter(.enterValue) { $0.enterValue(node) }
            leave(.leaveValue) { $0.leaveValue(node) }
            typeInfo.leaveEnumValue()
        case .variable(let variable):
            if recordsUsages {
                context.usagesByDefinition[context.definitionIndex].append(
                    VariableUsage(
                        node: variable, type: typeInfo.inputType, parentType: typeInfo.parentInputType,
                        hasLocationDefaultValue: typeInfo.hasDefaultValue))
            }
            enter(.enterValue) { $0.enterValue(node) }
            leave(.leaveValue) { $0.leaveValue(node) }
        default:
            enter(.enterValue) { $0.enterValue(node) }
            leave(.leaveValue) { $0.leaveValue(node) }
        }
        endSkips()
        level -= 1
    }

    private func walkObjectField(_ node: ObjectField) {
        level += 1
        typeInfo.enterObjectField(node)
        enter(.enterObjectField) { $0.enterObjectField(node) }
        walkValue(node.value)
        typeInfo.leaveListValueOrObjectField()
        endSkips()
        level -= 1
    }

    private func walkTypeReference(_ node: TypeReference, inTypeSystem: Bool) {
        switch node {
        case .named(let named): walkNamedType(named, inTypeSystem: inTypeSystem)
        case .list(let list): walkTypeReference(list.type, inTypeSystem: inTypeSystem)
        case .nonNull(let nonNull): walkTypeReference(nonNull.type, inTypeSystem: inTypeSystem)
        }
    }

    private func walkNamedType(_ node: NamedType, inTypeSystem: Bool) {
        context.currentEvent &+= 1
        let rules = rulesByEvent[Self.bit(.enterNamedType)]
        for rule in rules where rule.skippedAtLevel < 0 {
            context.currentRule = rule.index
            rule.enterNamedType(node, inTypeSystem: inTypeSystem)
        }
    }

    private func directiveLocation(of operation: OperationType) -> DirectiveLocation {
        switch operation {
        case .query: .query
        case .mutation: .mutation
        case .subscription: .subscription
        }
    }

    // MARK: - Type system definitions

    /// Type-system definitions are not executable (a rule reports them), but graphql-js walks
    /// them too: their directives, arguments, values and type names are checked.
    private func walkTypeSystemDefinition(_ definition: Definition) {
        recordsUsages = false
        switch definition {
        case .schema(let schema):
            walkSchema(schema.directives, schema.operationTypes)
        case .schemaExtension(let schema):
            walkSchema(schema.directives, schema.operationTypes)
        case .type(let type): walkTypeDefinition(type)
        case .typeExtension(let type): walkTypeDefinition(type.definition)
        case .directive(let directive):
            announceTypeSystemDirectives(directive.directives, owner: .directive(directive.name.value))
            for argument in directive.arguments { walkInputValueDefinition(argument, inInputObject: false) }
            walkDirectives(directive.directives, location: .directiveDefinition)
        case .operation, .fragment:
            break
        }
    }

    /// A type-system node has no event of its own; entering it is an event all the same, so
    /// that errors about its directives fall in graphql-js's order.
    private func announceTypeSystemDirectives(_ nodes: [Directive], owner: DirectiveOwner) {
        context.currentEvent &+= 1
        announceDirectives(nodes, owner: owner)
    }

    private func walkSchema(_ directives: [Directive], _ operationTypes: [OperationTypeDefinition]) {
        announceTypeSystemDirectives(directives, owner: .schema)
        walkDirectives(directives, location: .schema)
        for operationType in operationTypes { walkNamedType(operationType.type, inTypeSystem: true) }
    }

    private func walkTypeDefinition(_ definition: TypeDefinition) {
        let owner = DirectiveOwner.type(definition.name)
        switch definition {
        case .scalar(let node):
            announceTypeSystemDirectives(node.directives, owner: owner)
            walkDirectives(node.directives, location: .scalar)
        case .object(let node):
            announceTypeSystemDirectives(node.directives, owner: owner)
            for interface in node.interfaces { walkNamedType(interface, inTypeSystem: true) }
            walkDirectives(node.directives, location: .object)
            for field in node.fields { walkFieldDefinition(field) }
        case .interface(let node):
            announceTypeSystemDirectives(node.directives, owner: owner)
            for interface in node.interfaces { walkNamedType(interface, inTypeSystem: true) }
            walkDirectives(node.directives, location: .interface)
            for field in node.fields { walkFieldDefinition(field) }
        case .union(let node):
            announceTypeSystemDirectives(node.directives, owner: owner)
            walkDirectives(node.directives, location: .union)
            for member in node.types { walkNamedType(member, inTypeSystem: true) }
        case .enum(let node):
            announceTypeSystemDirectives(node.directives, owner: owner)
            walkDirectives(node.directives, location: .enum)
            for value in node.values {
                announceTypeSystemDirectives(value.directives, owner: .member)
                walkDirectives(value.directives, location: .enumValue)
            }
        case .inputObject(let node):
            announceTypeSystemDirectives(node.directives, owner: owner)
            walkDirectives(node.directives, location: .inputObject)
            for field in node.fields { walkInputValueDefinition(field, inInputObject: true) }
        }
    }

    private func walkFieldDefinition(_ node: FieldDefinition) {
        announceTypeSystemDirectives(node.directives, owner: .member)
        for argument in node.arguments { walkInputValueDefinition(argument, inInputObject: false) }
        walkTypeReference(node.type, inTypeSystem: true)
        walkDirectives(node.directives, location: .fieldDefinition)
    }

    private func walkInputValueDefinition(_ node: InputValueDefinition, inInputObject: Bool) {
        announceTypeSystemDirectives(node.directives, owner: .member)
        walkTypeReference(node.type, inTypeSystem: true)
        if let value = node.defaultValue { walkValue(value) }
        walkDirectives(node.directives, location: inInputObject ? .inputFieldDefinition : .argumentDefinition)
    }
}
