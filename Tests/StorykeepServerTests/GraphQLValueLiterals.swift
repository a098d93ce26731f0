import GraphQL

// GraphQL values written as JSON is written, in the social module's tests: `["text": "hi",
// "first": 2, "private": true, "ids": ["a", "b"]]` for variables and for expected answers.
extension GraphQLValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension GraphQLValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension GraphQLValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension GraphQLValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: GraphQLValue...) { self = .list(elements) }
}

extension GraphQLValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, GraphQLValue)...) {
        var object = GraphQLObject()
        for (key, value) in elements { object.append(key, value) }
        self = .object(object)
    }
}
