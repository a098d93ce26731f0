/// Compiles an operation into an `OperationPlan`: graphql-js's `collectFields` and
/// `collectSubfields` (with `@skip`, `@include`, fragment spreads and inline fragments), done
/// once per document instead of once per object of every list.
final class PlanCompiler: Sendable {
    let schema: GraphQLSchema
    let fragments: [String: FragmentDefinition]
    /// The coerced values of the variables that `@skip`/`@include` read.
    let conditionValues: [String: GraphQLValue]
    let source: Source?

    init(
        schema: GraphQLSchema, fragments: [String: FragmentDefinition], conditionValues: [String: GraphQLValue],
        source: Source?
    ) {
        self.schema = schema
        self.fragments = fragments
        self.conditionValues = conditionValues
        self.source = source
    }

    func compile(_ operation: OperationDefinition, rootType: GraphQLObjectType) -> OperationPlan {
        var groups = FieldGroups()
        var visited: Set<String> = []
        collectFields(rootType, operation.selectionSet, into: &groups, visited: &visited)
        return OperationPlan(rootType: rootType, root: selectionPlan(rootType, groups))
    }

    /// The plan of the sub-selections of `nodes` (a field's merged nodes) for an object type.
    func subPlan(for type: GraphQLObjectType, nodes: [Field]) -> SelectionPlan {
        var groups = FieldGroups()
        var visited: Set<String> = []
        for node in nodes {
            if let selectionSet = node.selectionSet {
                collectFields(type, selectionSet, into: &groups, visited: &visited)
            }
        }
        return selectionPlan(type, groups)
    }

    private func selectionPlan(_ type: GraphQLObjectType, _ groups: FieldGroups) -> SelectionPlan {
        var fields: [FieldPlan] = []
        fields.reserveCapacity(groups.keys.count)
        for (key, nodes) in zip(groups.keys, groups.nodes) {
            if let field = fieldPlan(key, nodes, type) { fields.append(field) }
        }
        return SelectionPlan(type: type, fields: fields)
    }

    private func collectFields(
        _ type: GraphQLObjectType, _ selectionSet: SelectionSet, into groups: inout FieldGroups,
        visited: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                guard shouldInclude(field.directives) else { continue }
                groups.add(field)
            case .inlineFragment(let fragment):
                guard shouldInclude(fragment.directives), conditionMatches(fragment.typeCondition, type) else {
                    continue
                }
                collectFields(type, fragment.selectionSet, into: &groups, visited: &visited)
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visited.contains(name), shouldInclude(spread.directives) else { continue }
                visited.insert(name)
                guard let fragment = fragments[name], conditionMatches(fragment.typeCondition, type) else {
                    continue
                }
                collectFields(type, fragment.selectionSet, into: &groups, visited: &visited)
            }
        }
    }

    /// graphql-js's `shouldIncludeNode`: not `@skip(if: true)`, not `@include(if: false)`.
    private func shouldInclude(_ directives: [Directive]) -> Bool {
        for directive in directives {
            switch directive.name.value {
            case "skip": if condition(directive) == true { return false }
            case "include": if condition(directive) == false { return false }
            default: break
            }
        }
        return true
    }

    private func condition(_ directive: Directive) -> Bool? {
        guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { return nil }
        switch argument.value {
        case .boolean(let boolean): return boolean.value
        case .variable(let variable): return conditionValues[variable.name.value]?.boolValue
        default: return nil
        }
    }

    private func conditionMatches(_ condition: NamedType?, _ type: GraphQLObjectType) -> Bool {
        guard let condition else { return true }
        guard let conditionType = schema.type(named: condition.name.value) else { return false }
        switch conditionType {
        case .object(let object): return object === type
        case .interface, .union: return schema.isSubType(conditionType, .object(type))
        default: return false
        }
    }

    private func fieldPlan(_ key: String, _ nodes: [Field], _ parent: GraphQLObjectType) -> FieldPlan? {
        let name = nodes[0].name.value
        guard let definition = schema.field(.object(parent), named: name) else { return nil }
        let resolver: ResolverPlan =
            switch (name, definition.resolve) {
            case ("__typename", _): .typename
            case (_, .sync(let resolve)?): .sync(resolve)
            case (_, .async(let resolve)?): .async(resolve)
            case (_, nil): .read
            }
        return FieldPlan(
            responseKey: key, nodes: nodes, parentType: parent, definition: definition, resolver: resolver,
            arguments: argumentsPlan(definition, nodes[0]), completion: completion(definition.type, nodes))
    }

    private func argumentsPlan(_ definition: GraphQLField, _ node: Field) -> ArgumentsPlan {
        if node.arguments.contains(where: { $0.value.containsVariable }) { return .variable }
        do {
            return .constant(try getArgumentValues(definition.arguments, node, variables: [:], source: source))
        } catch {
            return .failed(error)
        }
    }

    private func completion(_ type: GraphQLType, _ nodes: [Field]) -> Completion {
        var type = type
        var isNullable = true
        if case .nonNull(let inner) = type {
            isNullable = false
            type = inner
        }
        switch type {
        case .nonNull: preconditionFailure("non-null of non-null")
        case .list(let item):
            return Completion(isNullable: isNullable, kind: .list, item: completion(item, nodes))
        case .named(let named):
            switch named {
            case .scalar(let scalar):
                let builtIns: [(GraphQLScalarType, Completion.Kind)] = [
                    (GraphQLString, .string), (GraphQLID, .id), (GraphQLInt, .int), (GraphQLFloat, .float),
                    (GraphQLBoolean, .boolean),
                ]
                let kind = builtIns.first { $0.0 === scalar }?.1 ?? .scalar
                return Completion(isNullable: isNullable, kind: kind, scalar: scalar)
            case .enum(let enumType):
                return Completion(isNullable: isNullable, kind: .enumeration, enumType: enumType)
            case .object(let object):
                return Completion(isNullable: isNullable, kind: .object, plan: subPlan(for: object, nodes: nodes))
            case .interface, .union:
                let abstract = AbstractPlan(type: named, nodes: nodes, compiler: self)
                return Completion(isNullable: isNullable, kind: .abstract, abstract: abstract)
            case .inputObject(let input):
                preconditionFailure("input object type \(input.name) used as an output type")
            }
        }
    }
}

/// Field nodes grouped by response key, keys in the order first met.
private struct FieldGroups {
    var keys: [String] = []
    var nodes: [[Field]] = []
    var index: [String: Int] = [:]

    mutating func add(_ field: Field) {
        let key = field.responseKey
        if let position = index[key] {
            nodes[position].append(field)
        } else {
            index[key] = keys.count
            keys.append(key)
            nodes.append([field])
        }
    }
}

extension Value {
    /// Whether a variable occurs anywhere in the value.
    var containsVariable: Bool {
        switch self {
        case .variable: true
        case .list(let list): list.values.contains { $0.containsVariable }
        case .object(let object): object.fields.contains { $0.value.containsVariable }
        default: false
        }
    }
}

extension OperationDefinition {
    /// The variables that `@skip`/`@include` read in this operation and the fragments it uses:
    /// the variables a compiled plan depends on.
    func conditionVariables(fragments: [String: FragmentDefinition]) -> [String] {
        var names: [String] = []
        var visited: Set<String> = []
        func visitDirectives(_ directives: [Directive]) {
            for directive in directives where directive.name.value == "skip" || directive.name.value == "include" {
                for argument in directive.arguments {
                    if case .variable(let variable) = argument.value, !names.contains(variable.name.value) {
                        names.append(variable.name.value)
                    }
                }
            }
        }
        func visitSelections(_ selectionSet: SelectionSet) {
            for selection in selectionSet.selections {
                switch selection {
                case .field(let field):
                    visitDirectives(field.directives)
                    if let selectionSet = field.selectionSet { visitSelections(selectionSet) }
                case .inlineFragment(let fragment):
                    visitDirectives(fragment.directives)
                    visitSelections(fragment.selectionSet)
                case .fragmentSpread(let spread):
                    visitDirectives(spread.directives)
                    guard visited.insert(spread.name.value).inserted, let fragment = fragments[spread.name.value]
                    else { continue }
                    visitSelections(fragment.selectionSet)
                }
            }
        }
        visitSelections(selectionSet)
        return names
    }
}
