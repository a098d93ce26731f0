/// Input validation with diagnostics, as graphql-js 17's `validateInputValue` and
/// `validateInputLiteral`: every reason a value does not fit its type, with the path inside the
/// value. Coercion (CoerceInputValue.swift) succeeds exactly when these report nothing.

/// One reason an input value does not fit its type.
public struct InputValueError: Hashable, Sendable {
    public var message: String
    /// The literal the error is about (for literals only; JSON values have no location).
    public var node: Location?
    /// Where in the value: object keys and list indices.
    public var path: [PathComponent]

    public init(message: String, node: Location? = nil, path: [PathComponent] = []) {
        self.message = message
        self.node = node
        self.path = path
    }
}

/// Reports to `onError` every reason a JSON value (nil: not given) does not fit `type`, in
/// graphql-js's order. With `hideSuggestions` (a schema with suggestions off), no message names
/// a field or value.
public func validateInputValue(
    _ value: GraphQLValue?, _ type: GraphQLType, hideSuggestions: Bool = false,
    onError: (InputValueError) -> Void
) {
    var validator = ValueValidator(hideSuggestions: hideSuggestions)
    validator.validate(value, type)
    validator.errors.forEach(onError)
}

/// Reports to `onError` every reason a literal does not fit `type`. With `variables` nil the
/// literal is checked statically (a variable fits anything); otherwise variables are read from
/// it (their coerced values; a missing name means not given).
public func validateInputLiteral(
    _ literal: Value, _ type: GraphQLType, variables: [String: GraphQLValue]? = nil,
    hideSuggestions: Bool = false, onError: (InputValueError) -> Void
) {
    var validator = LiteralValidator(variables: variables, hideSuggestions: hideSuggestions)
    validator.validate(literal, type)
    validator.errors.forEach(onError)
}

func oneOfMessage(_ type: GraphQLInputObjectType) -> String {
    "Within OneOf Input Object type \"\(type.name)\", exactly one field must be specified, "
        + "and the value for that field must be non-null."
}

private struct ValueValidator {
    let hideSuggestions: Bool
    var errors: [InputValueError] = []
    var path: [PathComponent] = []

    mutating func report(_ message: String) {
        errors.append(InputValueError(message: message, path: path))
    }

    mutating func validate(_ value: GraphQLValue?, _ type: GraphQLType) {
        switch type {
        case .nonNull(let inner):
            guard let value else {
                return report("Expected a value of non-null type \"\(type.name)\" to be provided.")
            }
            if value.isNull { return report("Expected value of non-null type \"\(type.name)\" not to be null.") }
            validate(value, inner)
        case .list(let item):
            guard let value, !value.isNull else { return }
            guard case .list(let items) = value else { return validate(value, item) }
            for (index, element) in items.enumerated() {
                path.append(.index(index))
                validate(element, item)
                path.removeLast()
            }
        case .named(let named):
            guard let value, !value.isNull else { return }
            switch named {
            case .inputObject(let input): validateObject(value, input)
            case .scalar(let scalar): validateLeaf(value, type, Result { try scalar.parseValue(value) })
            case .enum(let enumType):
                let hide = hideSuggestions
                validateLeaf(value, type, Result { try enumType.parseValue(value, hideSuggestions: hide) })
            case .object, .interface, .union: break
            }
        }
    }

    private mutating func validateObject(_ value: GraphQLValue, _ type: GraphQLInputObjectType) {
        guard case .object(let object) = value else {
            return report("Expected value of type \"\(type.name)\" to be an object, found: \(inspect(value)).")
        }
        for field in type.fields {
            if let fieldValue = object[field.name] {
                path.append(.key(field.name))
                validate(fieldValue, field.type)
                path.removeLast()
            } else if field.isRequired {
                report(
                    "Expected value of type \"\(type.name)\" to include required field \"\(field.name)\", "
                        + "found: \(inspect(value)).")
            }
        }
        var known: [String] = []
        for name in object.keys {
            if type.fields[name] == nil {
                let suggestion = hideSuggestions ? "" : didYouMean(suggestionList(name, type.fields.names))
                report(
                    "Expected value of type \"\(type.name)\" not to include unknown field \"\(name)\""
                        + (suggestion.isEmpty ? ", found" : ".\(suggestion) Found") + ": \(inspect(value)).")
            } else {
                known.append(name)
            }
        }
        if type.isOneOf {
            if known.count != 1 { report(oneOfMessage(type)) }
            if let first = known.first, object[first] == .null {
                path.append(.key(first))
                report(oneOfMessage(type))
                path.removeLast()
            }
        }
    }

    private mutating func validateLeaf(_ value: GraphQLValue, _ type: GraphQLType, _ result: Result<GraphQLValue, any Error>) {
        do {
            _ = try result.get()
        } catch let error as GraphQLError {
            report(error.message)
        } catch {
            report("Expected value of type \"\(type.name)\", but encountered error \"\(error)\"; found: \(inspect(value)).")
        }
    }
}

private struct LiteralValidator {
    let variables: [String: GraphQLValue]?
    let hideSuggestions: Bool
    var errors: [InputValueError] = []
    var path: [PathComponent] = []

    mutating func report(_ message: String, _ node: Location?, path: [PathComponent]? = nil) {
        errors.append(InputValueError(message: message, node: node, path: path ?? self.path))
    }

    mutating func validate(_ literal: Value, _ type: GraphQLType) {
        if case .variable(let variable) = literal {
            // Checked statically, a variable may hold anything: its usage is validated elsewhere.
            guard let variables, case .nonNull = type else { return }
            let name = variable.name.value
            if let value = variables[name] {
                if value.isNull {
                    report(
                        "Expected variable \"$\(name)\" provided to non-null type \"\(type.name)\" not to be null.",
                        variable.loc)
                }
            } else {
                report(
                    "Expected variable \"$\(name)\" provided to type \"\(type.name)\" to provide a runtime value.",
                    variable.loc)
            }
            return
        }
        switch type {
        case .nonNull(let inner):
            if case .null(let null) = literal {
                return report("Expected value of non-null type \"\(type.name)\" not to be null.", null.loc)
            }
            validate(literal, inner)
        case .list(let item):
            if case .null = literal { return }
            guard case .list(let list) = literal else { return validate(literal, item) }
            for (index, element) in list.values.enumerated() {
                path.append(.index(index))
                validate(element, item)
                path.removeLast()
            }
        case .named(let named):
            if case .null = literal { return }
            switch named {
            case .inputObject(let input): validateObject(literal, input)
            case .scalar(let scalar):
                let constant = replaceVariables(literal, variables)
                validateLeaf(literal, type, Result { try scalar.parseLiteral(constant) })
            case .enum(let enumType):
                let constant = replaceVariables(literal, variables), hide = hideSuggestions
                validateLeaf(literal, type, Result { try enumType.parseLiteral(constant, hideSuggestions: hide) })
            case .object, .interface, .union: break
            }
        }
    }

    private mutating func validateObject(_ literal: Value, _ type: GraphQLInputObjectType) {
        guard case .object(let object) = literal else {
            return report(
                "Expected value of type \"\(type.name)\" to be an object, found: \(print(literal)).",
                literal.valueLocation)
        }
        // The last field of a name counts, as in graphql-js (`keyMap`) and graphql-core.
        var nodes: [String: ObjectField] = [:]
        for field in object.fields { nodes[field.name.value] = field }
        for field in type.fields {
            guard let node = nodes[field.name] else {
                if field.isRequired {
                    report(
                        "Expected value of type \"\(type.name)\" to include required field \"\(field.name)\", "
                            + "found: \(print(literal)).",
                        object.loc)
                }
                continue
            }
            if case .variable(let variable) = node.value, let variables {
                let name = variable.name.value
                let value = variables[name]
                if type.isOneOf {
                    let prefix = "Expected variable \"$\(name)\" provided to field \"\(field.name)\" for OneOf "
                        + "Input Object type \"\(type.name)\""
                    if value == nil {
                        report(prefix + " to provide a runtime value.", object.loc)
                    } else if value == .null {
                        report(prefix + " not to be null.", object.loc)
                    }
                } else if value == nil && !field.isRequired {
                    continue
                }
            }
            path.append(.key(field.name))
            validate(node.value, field.type)
            path.removeLast()
        }
        var known: [ObjectField] = []
        for field in object.fields {
            let name = field.name.value
            if type.fields[name] == nil {
                let suggestion = hideSuggestions ? "" : didYouMean(suggestionList(name, type.fields.names))
                report(
                    "Expected value of type \"\(type.name)\" not to include unknown field \"\(name)\""
                        + (suggestion.isEmpty ? ", found" : ".\(suggestion) Found") + ": \(print(literal)).",
                    field.loc)
            } else {
                known.append(field)
            }
        }
        if type.isOneOf {
            guard known.count == 1 else { return report(oneOfMessage(type), object.loc) }
            if case .null = known[0].value {
                report(oneOfMessage(type), object.loc, path: path + [.key(known[0].name.value)])
            }
        }
    }

    private mutating func validateLeaf(_ literal: Value, _ type: GraphQLType, _ result: Result<GraphQLValue, any Error>) {
        do {
            _ = try result.get()
        } catch let error as GraphQLError {
            // graphql-js hands the scalar a copy of a list or object literal, without location.
            switch literal {
            case .list, .object: report(error.message, nil)
            default: report(error.message, literal.valueLocation)
            }
        } catch {
            report(
                "Expected value of type \"\(type.name)\", but encountered error \"\(error)\"; "
                    + "found: \(print(literal)).",
                literal.valueLocation)
        }
    }
}

extension GraphQLArgument {
    /// Non-null without a default: a value must be given.
    public var isRequired: Bool { type.isNonNull && defaultValue == nil }
}

extension Value {
    var valueLocation: Location? {
        switch self {
        case .variable(let node): node.loc
        case .int(let node): node.loc
        case .float(let node): node.loc
        case .string(let node): node.loc
        case .boolean(let node): node.loc
        case .null(let node): node.loc
        case .enum(let node): node.loc
        case .list(let node): node.loc
        case .object(let node): node.loc
        }
    }
}
