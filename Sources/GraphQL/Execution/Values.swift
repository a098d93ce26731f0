/// Coercion of an operation's variables and of fields' arguments (graphql-js 17's
/// `execution/values`), with its messages.

/// The coerced variables of an operation: in definition order for `ResolveInfo`, and by name
/// for coercing literals. A nullable variable that was not given (and has no default) is absent,
/// which differs from `null`.
struct VariableValues: Sendable {
    var ordered = GraphQLObject()
    var byName: [String: GraphQLValue] = [:]

    mutating func set(_ name: String, _ value: GraphQLValue) {
        ordered.append(name, value)
        byName[name] = value
    }
}

/// The most coercion errors reported before giving up (graphql-js's `maxErrors`).
let maxVariableCoercionErrors = 50

/// Coerces the raw `inputs` to the operation's variable definitions; the errors are request
/// errors (the response then has no `data`).
func getVariableValues(
    schema: GraphQLSchema, definitions: [VariableDefinition], inputs: GraphQLObject, source: Source?
) -> Result<VariableValues, RequestErrors> {
    var values = VariableValues()
    var errors: [GraphQLError] = []
    func report(_ message: String, _ node: Location?) -> Bool {
        if errors.count >= maxVariableCoercionErrors {
            errors.append(
                GraphQLError(message: "Too many errors processing variables, error limit reached. Execution aborted."))
            return false
        }
        errors.append(GraphQLError(message: message, source: source, nodes: [node]))
        return true
    }
    definitionLoop: for definition in definitions {
        let name = definition.variable.name.value
        guard let type = typeFromAST(schema, definition.type), type.isInputType else {
            let message =
                "Variable \"$\(name)\" expected value of type \"\(definition.type.text)\" which cannot be used as an input type."
            if report(message, definition.type.location) { continue } else { break }
        }
        let input = inputs[name]
        if input == nil {
            if let defaultValue = definition.defaultValue {
                if let coerced = coerceInputLiteral(defaultValue, type) { values.set(name, coerced) }
                continue
            }
            if !type.isNonNull { continue }
        }
        if let coerced = coerceInputValue(input, type) {
            values.set(name, coerced)
            continue
        }
        var keepGoing = true
        validateInputValue(input, type, hideSuggestions: !schema.suggestionsEnabled) { error in
            guard keepGoing else { return }
            keepGoing = report(
                "Variable \"$\(name)\" has invalid value\(printPathList(error.path)): \(error.message)",
                definition.loc)
        }
        if !keepGoing { break definitionLoop }
    }
    return errors.isEmpty ? .success(values) : .failure(RequestErrors(errors: errors))
}

/// Errors that stop a request before execution.
struct RequestErrors: Error {
    var errors: [GraphQLError]
}

/// Coerces the arguments of a field (or directive) node to their definitions: graphql-js's
/// `getArgumentValues`. Validation has made these errors rare; they remain as runtime checks.
func getArgumentValues(
    _ definitions: FieldMap<GraphQLArgument>, _ node: Field, variables: [String: GraphQLValue], source: Source?
) throws(GraphQLError) -> GraphQLObject {
    var coerced = GraphQLObject()
    guard !definitions.isEmpty else { return coerced }
    for definition in definitions {
        let name = definition.name
        let isRequired = definition.type.isNonNull && definition.defaultValue == nil
        let argument = node.arguments.first { $0.name.value == name }
        guard let argument else {
            if isRequired {
                throw GraphQLError(
                    message: "Argument \"\(name)\" of required type \"\(definition.type.name)\" was not provided.",
                    source: source, nodes: [node.loc])
            }
            if let defaultValue = definition.defaultValue { coerced.append(name, defaultValue) }
            continue
        }
        // A variable that was not given counts as an argument not given, unless required.
        if case .variable(let variable) = argument.value, variables[variable.name.value] == nil, !isRequired {
            if let defaultValue = definition.defaultValue { coerced.append(name, defaultValue) }
            continue
        }
        guard let value = coerceInputLiteral(argument.value, definition.type, variables: variables) else {
            // The first reason, as graphql-js throws it.
            var first: InputValueError?
            validateInputLiteral(argument.value, definition.type, variables: variables) { error in
                if first == nil { first = error }
            }
            let reason = first.map { "\(printPathList($0.path)): \($0.message)" } ?? "."
            throw GraphQLError(
                message: "Argument \"\(name)\" has invalid value\(reason)", source: source,
                nodes: [first?.node ?? argument.loc])
        }
        coerced.append(name, value)
    }
    return coerced
}

/// graphql-js's `printPathList`: ` at .field[0]`, or nothing for the value itself.
func printPathList(_ path: [PathComponent]) -> String {
    guard !path.isEmpty else { return "" }
    return " at "
        + path.map {
            switch $0 {
            case .key(let key): ".\(key)"
            case .index(let index): "[\(index)]"
            }
        }.joined()
}

extension TypeReference {
    /// The type as written: `[Entry!]!`.
    fileprivate var text: String {
        switch self {
        case .named(let named): named.name.value
        case .list(let list): "[\(list.type.text)]"
        case .nonNull(let nonNull): "\(nonNull.type.text)!"
        }
    }

    fileprivate var location: Location? {
        switch self {
        case .named(let named): named.loc
        case .list(let list): list.loc
        case .nonNull(let nonNull): nonNull.loc
        }
    }
}
