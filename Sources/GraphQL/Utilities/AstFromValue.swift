/// graphql-js's `astFromValue`: a runtime value of an input type written as a literal, for
/// printing defaults that were given as values rather than SDL (introspection's
/// `includeDeprecated: Boolean! = false`, a default set in Swift). Nil when the value does not
/// fit the type.
public func astFromValue(_ value: GraphQLValue, _ type: GraphQLType) -> Value? {
    switch type {
    case .nonNull(let inner):
        return value.isNull ? nil : astFromValue(value, inner)
    case _ where value.isNull:
        return .null(NullValue())
    case .list(let item):
        guard case .list(let items) = value else { return astFromValue(value, item) }
        return .list(ListValue(items.compactMap { astFromValue($0, item) }))
    case .named(let named):
        switch named {
        case .inputObject(let input):
            guard case .object(let object) = value else { return nil }
            let fields = input.fields.compactMap { field -> ObjectField? in
                guard let fieldValue = object[field.name], let literal = astFromValue(fieldValue, field.type) else {
                    return nil
                }
                return ObjectField(name: Name(field.name), value: literal)
            }
            return .object(ObjectValue(fields))
        case .enum(let enumType):
            guard let serialized = try? enumType.serialize(value), let name = serialized.stringValue else { return nil }
            return .enum(EnumValue(name))
        case .scalar(let scalar):
            guard let serialized = try? scalar.serialize(value) else { return nil }
            switch serialized {
            case .bool(let bool): return .boolean(BooleanValue(bool))
            case .int(let int): return .int(IntValue(String(int)))
            case .float(let double):
                let text = jsNumberString(double)
                return isIntegerString(text) ? .int(IntValue(text)) : .float(FloatValue(text))
            case .string(let string):
                // An ID of digits is written as an Int literal.
                if scalar.name == "ID" && isIntegerString(string) { return .int(IntValue(string)) }
                return .string(StringValue(string))
            default:
                return untypedLiteral(serialized)
            }
        case .object, .interface, .union:
            return nil
        }
    }
}

/// `-?(?:0|[1-9][0-9]*)`
private func isIntegerString(_ text: String) -> Bool {
    var digits = Substring(text)
    if digits.first == "-" { digits = digits.dropFirst() }
    guard let first = digits.first, first.isASCII, first.isNumber else { return false }
    if first == "0" { return digits.count == 1 }
    return digits.allSatisfy { $0.isASCII && $0.isNumber }
}
