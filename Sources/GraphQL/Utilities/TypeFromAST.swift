/// The schema's type for a type reference written in a document (`[Entry!]!`), or nil when
/// the named type is not in the schema.
public func typeFromAST(_ schema: GraphQLSchema, _ node: TypeReference) -> GraphQLType? {
    switch node {
    case .named(let named): schema.type(named: named.name.value).map(GraphQLType.named)
    case .list(let list): typeFromAST(schema, list.type).map(GraphQLType.list)
    case .nonNull(let nonNull): typeFromAST(schema, nonNull.type).map(GraphQLType.nonNull)
    }
}
