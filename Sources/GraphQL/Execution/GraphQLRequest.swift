/// One GraphQL request as a client sends it (the GraphQL-over-HTTP request parameters).
public struct GraphQLRequest: Sendable, Hashable {
    /// The document's text.
    public var query: String
    /// Which operation of the document to run; required when it has more than one.
    public var operationName: String?
    /// The raw (not yet coerced) variable values; nil when the client sent none.
    public var variables: GraphQLObject?
    /// The request's extensions, e.g. Apollo's `persistedQuery`; not used by the engine.
    public var extensions: GraphQLObject?

    public init(
        query: String, operationName: String? = nil, variables: GraphQLObject? = nil,
        extensions: GraphQLObject? = nil
    ) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.extensions = extensions
    }
}
