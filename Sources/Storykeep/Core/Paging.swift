import GraphQL

/// One page of a list: the items, each with its position in the list's order (what the cursor
/// that resumes after it holds), and whether more follow.
public struct Page<Item: Sendable, Position: CursorPosition>: Sendable {
    public var items: [(item: Item, position: Position)]
    public var hasNextPage: Bool

    public init(items: [(item: Item, position: Position)], hasNextPage: Bool) {
        self.items = items
        self.hasNextPage = hasNextPage
    }

    /// The position of the last item, to pass as `after` for the next page.
    public var endPosition: Position? { items.last?.position }

    /// The page as a Relay connection (`edges { cursor node }`, `pageInfo`): each item's node made
    /// by `node` (any value its GraphQL type reads fields from), its position a cursor by
    /// `cursors`; `edge` adds fields to an edge beside `cursor` and `node`.
    public func connection(
        cursors: Cursors, node: (Item) -> any Sendable, edge: (Item) -> [String: any Sendable] = { _ in [:] }
    ) -> [String: any Sendable] {
        let edges = items.map { item, position in (item, cursors.cursor(position)) }
        return [
            "edges": edges.map { item, cursor -> any Sendable in
                var object: [String: any Sendable] = ["cursor": cursor, "node": node(item)]
                object.merge(edge(item)) { $1 }
                return object
            },
            "pageInfo": GraphQLValue.object([
                "hasNextPage": .bool(hasNextPage),
                "endCursor": edges.last.map { .string($0.1) } ?? .null,
            ]),
        ]
    }
}

/// How many items a module's list or page holds (its argument `first`): 0 to ``max``.
public enum PageSize {
    /// The most items one list or page holds.
    public static let max = 100

    /// Throws BAD_USER_INPUT on `first` unless `first` is 0 to ``max``.
    public static func check(_ first: Int) throws {
        guard (0...max).contains(first) else {
            throw GraphQLError.badUserInput(field: "first", "first: must be 0 to \(max).")
        }
    }
}

extension ResolverContext {
    /// The signed cursors of this tenant's lists.
    public var cursors: Cursors { Cursors(tenant: tenant) }
}
