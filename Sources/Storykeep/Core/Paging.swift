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
    /// `cursors`; `edge` adds fields to an edge beside `cursor` and `node`. A cursor is signed
    /// only when a client reads it (``ConnectionEdge``).
    public func connection(
        cursors: Cursors, node: (Item) -> any Sendable, edge: (Item) -> [String: GraphQLValue] = { _ in [:] }
    ) -> [String: any Sendable] {
        [
            "edges": items.map { item, position in
                ConnectionEdge(position: position, cursors: cursors, node: node(item), fields: edge(item))
            },
            "pageInfo": ConnectionPageInfo(hasNextPage: hasNextPage, endPosition: endPosition, cursors: cursors),
        ]
    }
}

/// One edge of a ``Page/connection(cursors:node:edge:)``. Its cursor is an HMAC, made when the
/// `cursor` field is read: a journal page that asks for its nodes alone signs none.
struct ConnectionEdge<Position: CursorPosition>: GraphQLFieldReadable {
    let position: Position
    let cursors: Cursors
    let node: any Sendable
    /// The fields the list adds to its edges.
    let fields: [String: GraphQLValue]

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "cursor": cursors.cursor(position)
        case "node": node
        default: fields[name]
        }
    }
}

/// A connection's `pageInfo`, whose `endCursor` is likewise signed when read.
struct ConnectionPageInfo<Position: CursorPosition>: GraphQLFieldReadable {
    let hasNextPage: Bool
    let endPosition: Position?
    let cursors: Cursors

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "hasNextPage": GraphQLValue.bool(hasNextPage)
        case "endCursor": endPosition.map { GraphQLValue.string(cursors.cursor($0)) } ?? GraphQLValue.null
        default: nil
        }
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
