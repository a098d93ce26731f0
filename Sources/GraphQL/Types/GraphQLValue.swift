/// A value as GraphQL sees it at run time: coerced variables and arguments, input object values,
/// and the serialized leaves and objects of a response. It is JSON with integers kept apart from
/// floats, and objects that keep their keys in order.
public enum GraphQLValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case float(Double)
    case string(String)
    case list([GraphQLValue])
    case object(GraphQLObject)
}

/// An object whose keys keep the order they were written in, as a GraphQL response requires.
/// Lookups are linear: objects in GraphQL are small, and order matters more than hashing.
public struct GraphQLObject: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    public private(set) var keys: [String]
    public private(set) var values: [GraphQLValue]

    public init() {
        keys = []
        values = []
    }

    /// An object from keys known to be distinct and their values, in order: the executor
    /// builds every object of a selection set from one shared array of response keys.
    public init(uniqueKeys keys: [String], values: [GraphQLValue]) {
        precondition(keys.count == values.count, "one value per key")
        self.keys = keys
        self.values = values
    }

    public init(dictionaryLiteral elements: (String, GraphQLValue)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Reads a key; setting appends a new key or replaces an existing one in place;
    /// setting `nil` removes it.
    public subscript(key: String) -> GraphQLValue? {
        get {
            guard let index = keys.firstIndex(of: key) else { return nil }
            return values[index]
        }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue { values[index] = newValue } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Appends without looking for an existing key: for builders that know keys are unique.
    public mutating func append(_ key: String, _ value: GraphQLValue) {
        keys.append(key)
        values.append(value)
    }

    public var entries: Zip2Sequence<[String], [GraphQLValue]> { zip(keys, values) }

    /// This object followed by the keys of `other` it does not have (its own values win).
    public func adding(_ other: GraphQLObject) -> GraphQLObject {
        var object = self
        for (key, value) in other.entries where object[key] == nil { object.append(key, value) }
        return object
    }
}

extension GraphQLValue {
    public var isNull: Bool { if case .null = self { true } else { false } }

    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var intValue: Int? { if case .int(let value) = self { value } else { nil } }
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var listValue: [GraphQLValue]? { if case .list(let value) = self { value } else { nil } }
    public var objectValue: GraphQLObject? { if case .object(let value) = self { value } else { nil } }

    /// A float, or an int widened to one.
    public var doubleValue: Double? {
        switch self {
        case .float(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }

    public subscript(key: String) -> GraphQLValue? { objectValue?[key] }
}
