public import GraphQL

/// One page of a connection: the items, each with the opaque cursor that resumes after it, and
/// whether more follow.
public struct Page<Item: Sendable>: Sendable {
    public var items: [(item: Item, cursor: String)]
    public var hasNextPage: Bool

    public init(items: [(item: Item, cursor: String)], hasNextPage: Bool) {
        self.items = items
        self.hasNextPage = hasNextPage
    }

    /// The cursor of the last item, to pass as `after` for the next page.
    public var endCursor: String? { items.last?.cursor }

    /// The page as a Relay connection (`edges { cursor node }`, `pageInfo`), each item's node
    /// made by `node` (any value its GraphQL type reads fields from); `edge` adds fields to an
    /// edge beside `cursor` and `node`.
    public func connection(
        node: (Item) -> any Sendable, edge: (Item) -> [String: any Sendable] = { _ in [:] }
    ) -> [String: any Sendable] {
        [
            "edges": items.map { item, cursor -> any Sendable in
                var object: [String: any Sendable] = ["cursor": cursor, "node": node(item)]
                object.merge(edge(item)) { $1 }
                return object
            },
            "pageInfo": GraphQLValue.object([
                "hasNextPage": .bool(hasNextPage),
                "endCursor": endCursor.map(GraphQLValue.string) ?? .null,
            ]),
        ]
    }
}
