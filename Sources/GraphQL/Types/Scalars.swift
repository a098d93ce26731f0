/// The five built-in scalars, with graphql-js's coercion rules and error messages.
///
/// Output coercion (`serialize`) is lenient as in graphql-js: an Int field may resolve to a
/// numeric string or a boolean, a String field to a number. Input coercion is strict: a
/// variable or literal must already have the scalar's own shape (an ID also takes an integer).

/// The largest value of GraphQL's 32-bit `Int`.
public let graphQLMaxInt = 2_147_483_647
/// The smallest value of GraphQL's 32-bit `Int`.
public let graphQLMinInt = -2_147_483_648

public let GraphQLInt = GraphQLScalarType(
    name: "Int",
    description: "The `Int` scalar type represents non-fractional signed whole numeric values. "
        + "Int can represent values between -(2^31) and 2^31 - 1.",
    serialize: { value in
        switch OutputScalar(value) {
        case .bool(let bool): return .int(bool ? 1 : 0)
        case .int(let int): return try checkedInt(int, shown: inspect(value))
        case .double(let double): return try checkedInt(double, shown: inspect(value))
        case .string(let string):
            if let number = jsNumber(string) { return try checkedInt(number, shown: inspect(value)) }
            throw GraphQLError(message: "Int cannot represent non-integer value: \(inspect(value))")
        case .other: throw GraphQLError(message: "Int cannot represent non-integer value: \(inspect(value))")
        }
    },
    parseValue: { value in
        switch value {
        case .int(let int): return try checkedInt(int, shown: inspect(value))
        case .float(let double): return try checkedInt(double, shown: inspect(value))
        default: throw GraphQLError(message: "Int cannot represent non-integer value: \(inspect(value))")
        }
    },
    parseLiteral: { literal in
        guard case .int(let int) = literal else {
            throw GraphQLError(message: "Int cannot represent non-integer value: \(print(literal))")
        }
        guard let number = Int(int.value), number >= graphQLMinInt, number <= graphQLMaxInt else {
            throw GraphQLError(
                message: "Int cannot represent non 32-bit signed integer value: \(print(literal))")
        }
        return .int(number)
    }
)

public let GraphQLFloat = GraphQLScalarType(
    name: "Float",
    description: "The `Float` scalar type represents signed double-precision fractional values as "
        + "specified by [IEEE 754](https://en.wikipedia.org/wiki/IEEE_floating_point).",
    serialize: { value in
        switch OutputScalar(value) {
        case .bool(let bool): return .float(bool ? 1 : 0)
        case .int(let int): return .float(Double(int))
        case .double(let double) where double.isFinite: return .float(double)
        case .string(let string):
            if let number = jsNumber(string) { return .float(number) }
        default: break
        }
        throw GraphQLError(message: "Float cannot represent non numeric value: \(inspect(value))")
    },
    parseValue: { value in
        switch value {
        case .int(let int): return .float(Double(int))
        case .float(let double) where double.isFinite: return .float(double)
        default: throw GraphQLError(message: "Float cannot represent non numeric value: \(inspect(value))")
        }
    },
    parseLiteral: { literal in
        switch literal {
        case .int(let int): return .float(Double(int.value) ?? .nan)
        case .float(let float): return .float(Double(float.value) ?? .nan)
        default: throw GraphQLError(message: "Float cannot represent non numeric value: \(print(literal))")
        }
    }
)

public let GraphQLString = GraphQLScalarType(
    name: "String",
    description: "The `String` scalar type represents textual data, represented as UTF-8 character "
        + "sequences. The String type is most often used by GraphQL to represent free-form human-readable text.",
    serialize: { value in
        switch OutputScalar(value) {
        case .string(let string): return .string(string)
        case .bool(let bool): return .string(bool ? "true" : "false")
        case .int(let int): return .string(String(int))
        case .double(let double) where double.isFinite: return .string(jsNumberString(double))
        default: throw GraphQLError(message: "String cannot represent value: \(inspect(value))")
        }
    },
    parseValue: { value in
        guard case .string = value else {
            throw GraphQLError(message: "String cannot represent a non string value: \(inspect(value))")
        }
        return value
    },
    parseLiteral: { literal in
        guard case .string(let string) = literal else {
            throw GraphQLError(message: "String cannot represent a non string value: \(print(literal))")
        }
        return .string(string.value)
    }
)

public let GraphQLBoolean = GraphQLScalarType(
    name: "Boolean",
    description: "The `Boolean` scalar type represents `true` or `false`.",
    serialize: { value in
        switch OutputScalar(value) {
        case .bool(let bool): return .bool(bool)
        case .int(let int): return .bool(int != 0)
        case .double(let double) where double.isFinite: return .bool(double != 0)
        default: throw GraphQLError(message: "Boolean cannot represent a non boolean value: \(inspect(value))")
        }
    },
    parseValue: { value in
        guard case .bool = value else {
            throw GraphQLError(message: "Boolean cannot represent a non boolean value: \(inspect(value))")
        }
        return value
    },
    parseLiteral: { literal in
        guard case .boolean(let boolean) = literal else {
            throw GraphQLError(
                message: "Boolean cannot represent a non boolean value: \(print(literal))")
        }
        return .bool(boolean.value)
    }
)

public let GraphQLID = GraphQLScalarType(
    name: "ID",
    description: "The `ID` scalar type represents a unique identifier, often used to refetch an object or "
        + "as key for a cache. The ID type appears in a JSON response as a String; however, it is not "
        + "intended to be human-readable. When expected as an input type, any string (such as `\"4\"`) "
        + "or integer (such as `4`) input value will be accepted as an ID.",
    serialize: { value in
        switch OutputScalar(value) {
        case .string(let string): return .string(string)
        case .int(let int): return .string(String(int))
        case .double(let double) where double.isFinite && double.rounded() == double:
            return .string(jsNumberString(double))
        default: throw GraphQLError(message: "ID cannot represent value: \(inspect(value))")
        }
    },
    parseValue: { value in
        switch value {
        case .string: return value
        case .int(let int): return .string(String(int))
        case .float(let double) where double.isFinite && double.rounded() == double:
            return .string(jsNumberString(double))
        default: throw GraphQLError(message: "ID cannot represent value: \(inspect(value))")
        }
    },
    parseLiteral: { literal in
        switch literal {
        case .string(let string): return .string(string.value)
        case .int(let int): return .string(int.value)
        default:
            throw GraphQLError(
                message: "ID cannot represent a non-string and non-integer value: \(print(literal))")
        }
    }
)

/// The built-in scalars, in graphql-js's order.
public let specifiedScalarTypes: [GraphQLScalarType] = [
    GraphQLString, GraphQLInt, GraphQLFloat, GraphQLBoolean, GraphQLID,
]

/// Whether `type` is one of the five built-in scalars (by name, as graphql-js checks).
public func isSpecifiedScalarType(_ type: GraphQLNamedType) -> Bool {
    guard case .scalar(let scalar) = type else { return false }
    return isSpecifiedScalarName(scalar.name)
}

func isSpecifiedScalarName(_ name: String) -> Bool {
    switch name {
    case "String", "Int", "Float", "Boolean", "ID": true
    default: false
    }
}

// MARK: - Helpers

/// A resolver's value seen as one of the shapes the built-in scalars serialize from.
private enum OutputScalar {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case other

    /// The commonest kinds come first: each failing cast costs a search of the runtime's tables.
    init(_ value: any Sendable) {
        switch value {
        case let value as String: self = .string(value)
        case let value as Int: self = .int(value)
        case let value as Bool: self = .bool(value)
        case let value as GraphQLValue:
            switch value {
            case .bool(let bool): self = .bool(bool)
            case .int(let int): self = .int(int)
            case .float(let double): self = .double(double)
            case .string(let string): self = .string(string)
            default: self = .other
            }
        case let value as Double: self = .double(value)
        case let value as Substring: self = .string(String(value))
        case let value as any BinaryInteger:
            if let int = Int(exactly: value) { self = .int(int) } else { self = .double(Double(value)) }
        case let value as any BinaryFloatingPoint: self = .double(Double(value))
        default: self = .other
        }
    }
}

private func checkedInt(_ int: Int, shown: @autoclosure () -> String) throws -> GraphQLValue {
    guard int >= graphQLMinInt, int <= graphQLMaxInt else {
        throw GraphQLError(message: "Int cannot represent non 32-bit signed integer value: \(shown())")
    }
    return .int(int)
}

private func checkedInt(_ double: Double, shown: @autoclosure () -> String) throws -> GraphQLValue {
    guard double.isFinite, double.rounded() == double else {
        throw GraphQLError(message: "Int cannot represent non-integer value: \(shown())")
    }
    guard double >= Double(graphQLMinInt), double <= Double(graphQLMaxInt) else {
        throw GraphQLError(message: "Int cannot represent non 32-bit signed integer value: \(shown())")
    }
    return .int(Int(double))
}

/// JavaScript's `Number(string)` for the strings a numeric field may resolve to: decimal
/// numbers with surrounding white space; nil for the empty string and non-numbers.
private func jsNumber(_ string: String) -> Double? {
    let trimmed = string.trimmingJSWhitespace()
    guard !trimmed.isEmpty else { return nil }
    if let int = Int(trimmed) { return Double(int) }
    guard trimmed.utf8.allSatisfy({ byte in
        (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x65 || byte == 0x45 || byte == 0x2B || byte == 0x2D
    }), let double = Double(trimmed), double.isFinite else { return nil }
    return double
}

extension String {
    fileprivate func trimmingJSWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !isSpace($0) })!
        return self[start...end]
    }
}
