/// Input coercion without diagnostics, as graphql-js 17's `coerceInputValue` and
/// `coerceInputLiteral`: the coerced value, or nil when the input is not valid for the type.
/// Use `validateInputValue`/`validateInputLiteral` (ValidateInputValue.swift) for the errors.
///
/// A nil input means "not given" (JavaScript's `undefined`), which differs from `.null`.

/// Coerces a JSON value (a variable's value) to `type`.
public func coerceInputValue(_ value: GraphQLValue?, _ type: GraphQLType) -> GraphQLValue? {
    switch type {
    case .nonNull(let inner):
        guard let value, !value.isNull else { return nil }
        return coerceInputValue(value, inner)
    case .list(let item):
        guard let value, !value.isNull else { return .null }
        guard case .list(let values) = value else {
            // A single value stands for a list of one.
            return coerceInputValue(value, item).map { .list([$0]) }
        }
        var coerced: [GraphQLValue] = []
        coerced.reserveCapacity(values.count)
        for value in values {
            guard let item = coerceInputValue(value, item) else { return nil }
            coerced.append(item)
        }
        return .list(coerced)
    case .named(let named):
        guard let value, !value.isNull else { return .null }
        switch named {
        case .inputObject(let input):
            guard case .object(let object) = value else { return nil }
            return coerceInputObject(input, given: object.keys, value: { object[$0] }, coerce: coerceInputValue)
        case .scalar(let scalar): return try? scalar.parseValue(value)
        case .enum(let enumType): return try? enumType.parseValue(value)
        case .object, .interface, .union: return nil
        }
    }
}

/// Coerces a literal of a document to `type`, reading variables from `variables` (their
/// coerced values; a missing name means the variable was not given).
public func coerceInputLiteral(
    _ literal: Value, _ type: GraphQLType, variables: [String: GraphQLValue]? = nil
) -> GraphQLValue? {
    if case .variable(let variable) = literal {
        // Validation has checked that the variable's type fits. A variable without a value is
        // invalid here: callers treat an argument or field given so as not given.
        guard let value = variables?[variable.name.value], !(type.isNonNull && value.isNull) else { return nil }
        return value
    }
    switch type {
    case .nonNull(let inner):
        if case .null = literal { return nil }
        return coerceInputLiteral(literal, inner, variables: variables)
    case .list(let item):
        if case .null = literal { return .null }
        guard case .list(let list) = literal else {
            return coerceInputLiteral(literal, item, variables: variables).map { .list([$0]) }
        }
        var coerced: [GraphQLValue] = []
        coerced.reserveCapacity(list.values.count)
        for node in list.values {
            if let value = coerceInputLiteral(node, item, variables: variables) {
                coerced.append(value)
            } else if case .variable(let variable) = node, !item.isNonNull,
                (variables?[variable.name.value] ?? .null) == .null
            {
                // A missing variable inside a list becomes null.
                coerced.append(.null)
            } else {
                return nil
            }
        }
        return .list(coerced)
    case .named(let named):
        if case .null = literal { return .null }
        switch named {
        case .inputObject(let input):
            guard case .object(let object) = literal else { return nil }
            var nodes: [String: Value] = [:]
            var names: [String] = []
            for field in object.fields where nodes[field.name.value] == nil {
                nodes[field.name.value] = field.value
                names.append(field.name.value)
            }
            // A field given as a variable that has no value counts as not given.
            return coerceInputObject(input, given: names) { name -> Value? in
                guard let node = nodes[name] else { return nil }
                if case .variable(let variable) = node, variables?[variable.name.value] == nil { return nil }
                return node
            } coerce: { node, type in
                coerceInputLiteral(node!, type, variables: variables)
            }
        case .scalar(let scalar):
            return try? scalar.parseLiteral(replaceVariables(literal, variables))
        case .enum(let enumType): return try? enumType.parseLiteral(literal)
        case .object, .interface, .union: return nil
        }
    }
}

/// The shared steps of coercing an input object from JSON or from a literal: every given
/// field is defined, every required field given, defaults filled in, and for `@oneOf` exactly
/// one non-null field.
private func coerceInputObject<Input>(
    _ type: GraphQLInputObjectType, given names: [String], value: (String) -> Input?,
    coerce: (Input?, GraphQLType) -> GraphQLValue?
) -> GraphQLValue? {
    for name in names where type.fields[name] == nil { return nil }
    var result = GraphQLObject()
    for field in type.fields {
        if let input = value(field.name) {
            guard let coerced = coerce(input, field.type) else { return nil }
            result.append(field.name, coerced)
        } else if let defaultValue = field.defaultValue {
            result.append(field.name, defaultValue)
        } else if field.type.isNonNull {
            return nil
        }
    }
    if type.isOneOf {
        guard names.count == 1, result.count == 1, result.values[0] != .null else { return nil }
    }
    return .object(result)
}

/// A literal with each variable replaced by its value written as a literal, for a scalar's
/// `parseLiteral`, which sees constants only. A variable without a value becomes `null`, or is
/// left out of an object.
func replaceVariables(_ literal: Value, _ variables: [String: GraphQLValue]?) -> Value {
    switch literal {
    case .variable(let variable):
        return untypedLiteral(variables?[variable.name.value] ?? .null)
    case .list(let list):
        return .list(ListValue(list.values.map { replaceVariables($0, variables) }, loc: list.loc))
    case .object(let object):
        var fields: [ObjectField] = []
        for field in object.fields {
            if case .variable(let variable) = field.value, variables?[variable.name.value] == nil { continue }
            fields.append(ObjectField(name: field.name, value: replaceVariables(field.value, variables), loc: field.loc))
        }
        return .object(ObjectValue(fields, loc: object.loc))
    default:
        return literal
    }
}

/// A runtime value written as a literal without a type to guide it: strings as strings, numbers
/// as Int or Float literals.
func untypedLiteral(_ value: GraphQLValue) -> Value {
    switch value {
    case .null: .null(NullValue())
    case .bool(let bool): .boolean(BooleanValue(bool))
    case .int(let int): .int(IntValue(String(int)))
    case .float(let double): .float(FloatValue(jsNumberString(double)))
    case .string(let string): .string(StringValue(string))
    case .list(let items): .list(ListValue(items.map(untypedLiteral)))
    case .object(let object):
        .object(ObjectValue(object.entries.map { ObjectField(name: Name($0), value: untypedLiteral($1)) }))
    }
}
