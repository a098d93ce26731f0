/// graphql-js's `inspect`: how a value is shown inside an error message.
///
/// Strings are shown as JSON strings (`"abc"`), numbers as JavaScript prints them (`1`, `1.5`,
/// `1e+21`), objects as `{ a: 1 }` and lists as `[1, 2]`. Nesting deeper than two levels is cut
/// to `[Object]`/`[Array]`, and lists longer than ten items end in `... N more items`.
public func inspect(_ value: GraphQLValue) -> String {
    inspect(value, depth: 0)
}

/// `inspect` for any value a resolver may return: runtime values, Swift numbers, strings,
/// booleans, `nil`, arrays and string-keyed dictionaries; anything else by its description.
public func inspect(_ value: (any Sendable)?) -> String {
    guard let value else { return "null" }
    if let runtime = GraphQLValue(swiftValue: value) { return inspect(runtime) }
    return String(describing: value)
}

private let maxArrayLength = 10
private let maxRecursiveDepth = 2

private func inspect(_ value: GraphQLValue, depth: Int) -> String {
    switch value {
    case .null: return "null"
    case .bool(let bool): return bool ? "true" : "false"
    case .int(let int): return String(int)
    case .float(let double): return jsNumberString(double)
    case .string(let string): return jsonString(string)
    case .list(let items):
        if items.isEmpty { return "[]" }
        if depth >= maxRecursiveDepth { return "[Array]" }
        var parts = items.prefix(maxArrayLength).map { inspect($0, depth: depth + 1) }
        let remaining = items.count - maxArrayLength
        if remaining == 1 {
            parts.append("... 1 more item")
        } else if remaining > 1 {
            parts.append("... \(remaining) more items")
        }
        return "[" + parts.joined(separator: ", ") + "]"
    case .object(let object):
        if object.isEmpty { return "{}" }
        if depth >= maxRecursiveDepth { return "[Object]" }
        let parts = object.entries.map { key, value in key + ": " + inspect(value, depth: depth + 1) }
        return "{ " + parts.joined(separator: ", ") + " }"
    }
}

extension GraphQLValue {
    /// The runtime value of a plain Swift value: `GraphQLValue` itself, `Bool`, integers,
    /// floating-point numbers, `String`, arrays of these and `[String: ...]` dictionaries
    /// (keys sorted, since a dictionary has no order); nil for anything else.
    public init?(swiftValue value: any Sendable) {
        switch value {
        case let value as GraphQLValue: self = value
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .int(value)
        case let value as Double: self = .float(value)
        case let value as String: self = .string(value)
        case let value as any BinaryInteger:
            guard let int = Int(exactly: value) else { return nil }
            self = .int(int)
        case let value as any BinaryFloatingPoint: self = .float(Double(value))
        case let value as Substring: self = .string(String(value))
        case let value as [any Sendable]:
            var items: [GraphQLValue] = []
            items.reserveCapacity(value.count)
            for item in value {
                guard let converted = GraphQLValue(swiftValue: item) else { return nil }
                items.append(converted)
            }
            self = .list(items)
        case let value as [String: any Sendable]:
            var object = GraphQLObject()
            for key in value.keys.sorted() {
                guard let converted = GraphQLValue(swiftValue: value[key]!) else { return nil }
                object.append(key, converted)
            }
            self = .object(object)
        default: return nil
        }
    }
}

/// A string as a JSON string literal, as JavaScript's `JSON.stringify` writes it.
public func jsonString(_ string: String) -> String {
    GraphQLValue.string(string).json
}

/// A number as JavaScript's `String(number)` writes it: the shortest digits that read back as
/// the same double, plain between 1e-7 and 1e21 (`100`, `0.000001`, `1.5`), in exponent form
/// outside (`1e+21`, `1e-7`), and `NaN`, `Infinity`, `-Infinity`.
public func jsNumberString(_ number: Double) -> String {
    if number.isNaN { return "NaN" }
    if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
    return GraphQLValue.float(number).json
}
