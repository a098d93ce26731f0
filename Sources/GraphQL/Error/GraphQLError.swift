/// An error in a GraphQL request: a syntax error, a validation error or a field error.
///
/// It carries what the GraphQL response's `errors` entries show: the `message`, the `locations`
/// in the document it refers to, and for a field error the `path` of the response field.
/// Syntax errors have messages that start with "Syntax Error: ", as in graphql-js.
public struct GraphQLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// Where in the document the error is, in the order of the nodes it refers to.
    public var locations: [SourceLocation]
    /// The response path of the field that failed: keys of objects and indices of lists.
    public var path: [PathComponent]
    /// Anything an implementor adds to the error's entry in the response (e.g. a `code`).
    public var extensions: GraphQLObject?

    public init(message: String, locations: [SourceLocation] = [], path: [PathComponent] = []) {
        self.message = message
        self.locations = locations
        self.path = path
    }

    /// An error about AST nodes parsed from `source`: each location is that of the node's
    /// first byte. Nodes without a location (built by hand or parsed with `noLocation`) are
    /// skipped.
    public init(message: String, source: Source?, nodes: [Location?], path: [PathComponent] = []) {
        self.message = message
        if let source {
            self.locations = nodes.compactMap { $0.map { source.location(of: $0.start) } }
        } else {
            self.locations = []
        }
        self.path = path
    }

    /// A syntax error at byte `offset` of `source`; the message is "Syntax Error: " + `description`.
    public static func syntaxError(_ description: String, source: Source, offset: Int) -> GraphQLError {
        GraphQLError(message: "Syntax Error: " + description, locations: [source.location(of: offset)])
    }

    public var description: String {
        guard let first = locations.first else { return message }
        return "\(message) (\(first.line):\(first.column))"
    }
}

/// One step of a response path: an object key or a list index.
public enum PathComponent: Hashable, Sendable, Encodable, CustomStringConvertible {
    case key(String)
    case index(Int)

    /// Encodes as a JSON string or number, as in a GraphQL response's `path`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .key(let key): try container.encode(key)
        case .index(let index): try container.encode(index)
        }
    }

    public var description: String {
        switch self {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }
}

extension PathComponent: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .key(value) }
    public init(integerLiteral value: Int) { self = .index(value) }
}
