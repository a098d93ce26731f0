/// The two cycle checks of schema validation for input objects, as graphql-js 17 does them:
/// input objects that can never be given a finite value (through non-null fields, or `@oneOf`
/// types whose every field leads back), and defaults that refer to themselves.

/// One input object while finding which ones can have a finite value.
private final class FiniteValueState {
    let input: GraphQLInputObjectType
    var targets: [(field: GraphQLInputField, target: String)] = []
    var dependents: [FiniteValueState] = []
    var unresolvedTargets = 0
    var hasFiniteValue = false

    init(_ input: GraphQLInputObjectType) { self.input = input }
}

extension SchemaValidationContext {
    /// The specification's InputObjectHasUnbreakableCycle for every input object at once: an
    /// input object has a finite value once all its required input-object fields do (for
    /// `@oneOf`, once any field does); what is left references itself.
    mutating func detectNonFiniteInputObjects(_ inputs: [GraphQLInputObjectType]) {
        var states: [String: FiniteValueState] = [:]
        let ordered = inputs.map { input in
            let state = FiniteValueState(input)
            states[input.name] = state
            return state
        }
        var finite: [FiniteValueState] = []
        func markFinite(_ state: FiniteValueState) {
            guard !state.hasFiniteValue else { return }
            state.hasFiniteValue = true
            finite.append(state)
        }
        for state in ordered {
            for field in state.input.fields {
                guard let target = finiteValueTarget(state.input, field.type) else { continue }
                state.targets.append((field, target.name))
                states[target.name]?.dependents.append(state)
            }
            if state.input.isOneOf {
                if state.input.fields.isEmpty || state.targets.count < state.input.fields.count { markFinite(state) }
            } else {
                state.unresolvedTargets = state.targets.count
                if state.targets.isEmpty { markFinite(state) }
            }
        }
        while let next = finite.popLast() {
            for dependent in next.dependents where !dependent.hasFiniteValue {
                if dependent.input.isOneOf {
                    markFinite(dependent)
                    continue
                }
                dependent.unresolvedTargets -= 1
                if dependent.unresolvedTargets == 0 { markFinite(dependent) }
            }
        }

        var visited: Set<String> = []
        var fieldPath: [(coordinate: String, node: Location?)] = []
        var pathIndexByType: [String: Int] = [:]
        func reportCycles(_ state: FiniteValueState) {
            let name = state.input.name
            guard visited.insert(name).inserted else { return }
            pathIndexByType[name] = fieldPath.count
            for (field, target) in state.targets {
                guard let targetState = states[target], !targetState.hasFiniteValue else { continue }
                fieldPath.append(("\(name).\(field.name)", field.astNode?.loc))
                if let cycleIndex = pathIndexByType[target] {
                    let cycle = fieldPath[cycleIndex...]
                    report(
                        "Input Object \(target) cannot be provided a finite value because it references itself "
                            + "through fields: \(cycle.map(\.coordinate).joined(separator: ", ")).",
                        cycle.map(\.node))
                } else {
                    reportCycles(targetState)
                }
                fieldPath.removeLast()
            }
            pathIndexByType[name] = nil
        }
        for state in ordered where !state.hasFiniteValue { reportCycles(state) }
    }

    private func finiteValueTarget(_ input: GraphQLInputObjectType, _ type: GraphQLType) -> GraphQLInputObjectType? {
        if input.isOneOf {
            if case .named(.inputObject(let target)) = type { return target }
            return nil
        }
        if case .nonNull(.named(.inputObject(let target))) = type { return target }
        return nil
    }
}

/// Finds defaults of input object fields that, filled in, would need themselves again
/// (graphql-js's InputObjectDefaultValueCircularRefsValidator).
struct DefaultValueCycleDetector {
    private var visitedFields: Set<String> = []
    private var fieldPath: [(coordinate: String, node: Location?)] = []
    private var fieldPathIndex: [String: Int] = [:]

    mutating func check(_ input: GraphQLInputObjectType, _ context: inout SchemaValidationContext) {
        detectValueCycle(input, .object(GraphQLObject()), &context)
    }

    private mutating func detectValueCycle(
        _ input: GraphQLInputObjectType, _ value: GraphQLValue, _ context: inout SchemaValidationContext
    ) {
        if case .list(let items) = value {
            for item in items { detectValueCycle(input, item, &context) }
            return
        }
        guard case .object(let object) = value else { return }
        for field in input.fields {
            guard case .inputObject(let fieldType) = field.type.namedType else { continue }
            if let fieldValue = object[field.name] {
                detectValueCycle(fieldType, fieldValue, &context)
            } else {
                detectFieldCycle(field, fieldType, "\(input.name).\(field.name)", &context)
            }
        }
    }

    private mutating func detectLiteralCycle(
        _ input: GraphQLInputObjectType, _ literal: Value, _ context: inout SchemaValidationContext
    ) {
        if case .list(let list) = literal {
            for item in list.values { detectLiteralCycle(input, item, &context) }
            return
        }
        guard case .object(let object) = literal else { return }
        for field in input.fields {
            guard case .inputObject(let fieldType) = field.type.namedType else { continue }
            if let node = object.fields.last(where: { $0.name.value == field.name }) {
                detectLiteralCycle(fieldType, node.value, &context)
            } else {
                detectFieldCycle(field, fieldType, "\(input.name).\(field.name)", &context)
            }
        }
    }

    private mutating func detectFieldCycle(
        _ field: GraphQLInputField, _ fieldType: GraphQLInputObjectType, _ coordinate: String,
        _ context: inout SchemaValidationContext
    ) {
        let literal = field.astNode?.defaultValue
        guard literal != nil || field.defaultValue != nil else { return }
        if let cycleIndex = fieldPathIndex[coordinate] {
            let via =
                cycleIndex < fieldPath.count
                ? " via the default values of: " + fieldPath[cycleIndex...].map(\.coordinate).joined(separator: ", ")
                : ""
            context.report(
                "Invalid circular reference. The default value of Input Object field \(coordinate) references itself"
                    + via + ".",
                fieldPath[(cycleIndex - 1)...].map(\.node))
            return
        }
        guard visitedFields.insert(coordinate).inserted else { return }
        fieldPath.append((coordinate, literal?.valueLocation))
        fieldPathIndex[coordinate] = fieldPath.count
        if let literal {
            detectLiteralCycle(fieldType, literal, &context)
        } else if let value = field.defaultValue {
            detectValueCycle(fieldType, value, &context)
        }
        fieldPath.removeLast()
        fieldPathIndex[coordinate] = nil
    }
}
