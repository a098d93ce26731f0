/// The `data` of a response as the executor writes it: a flat sequence of tokens in response
/// order, rather than a tree of objects and lists. Completing a value appends to one array
/// (no allocation per object), an error in a nullable position truncates the array back to
/// where that position began, and the JSON writer walks it front to back. `value` builds the
/// tree (`GraphQLValue`) for callers that want one.
///
/// A field waiting for a round (`Deferred`) is a `hole`: its value is completed later into a
/// tape of its own (`fills`). An error of a later round that nulls a position completed
/// earlier marks that position's first token (`nulled`); readers of the tape give null there
/// and skip the value.
struct ResponseTape: Sendable {
    enum Token: Sendable {
        /// A whole value: a leaf, or a custom scalar's serialised object or list.
        case value(GraphQLValue)
        /// An object: followed by one value per key.
        case object([String])
        /// A list: followed by this many values.
        case list(Int)
        /// A value completed in a later round: `fills[n]`.
        case hole(Int)
    }

    /// Where a value begins: a token of the main tape (`tape` 0) or of a fill (`tape` n + 1).
    struct Mark: Hashable, Sendable {
        var tape: Int
        var offset: Int
    }

    var tokens: [Token]
    var fills: [[Token]] = []
    var nulled: Set<Mark> = []

    init(tokens: [Token], fills: [[Token]] = [], nulled: Set<Mark> = []) {
        self.tokens = tokens
        self.fills = fills
        self.nulled = nulled
    }

    /// Whether the value at `mark` reads as null (an error of a later round nulled it).
    @inline(__always)
    func isNulled(_ mark: Mark) -> Bool { !nulled.isEmpty && nulled.contains(mark) }

    /// The offset just past the value that begins at `offset` in `tokens`.
    static func end(of tokens: [Token], from offset: Int) -> Int {
        var offset = offset
        var remaining = 1
        while remaining > 0 {
            remaining -= 1
            switch tokens[offset] {
            case .value, .hole: break
            case .object(let keys): remaining += keys.count
            case .list(let count): remaining += count
            }
            offset += 1
        }
        return offset
    }

    /// The data as a tree.
    var value: GraphQLValue {
        var offset = 0
        return value(tape: 0, tokens, &offset)
    }

    private func value(tape: Int, _ tokens: [Token], _ offset: inout Int) -> GraphQLValue {
        if isNulled(Mark(tape: tape, offset: offset)) {
            offset = Self.end(of: tokens, from: offset)
            return .null
        }
        let token = tokens[offset]
        offset += 1
        switch token {
        case .value(let value):
            return value
        case .object(let keys):
            var values: [GraphQLValue] = []
            values.reserveCapacity(keys.count)
            for _ in keys.indices { values.append(value(tape: tape, tokens, &offset)) }
            return .object(GraphQLObject(uniqueKeys: keys, values: values))
        case .list(let count):
            var items: [GraphQLValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(value(tape: tape, tokens, &offset)) }
            return .list(items)
        case .hole(let fill):
            var start = 0
            return value(tape: fill + 1, fills[fill], &start)
        }
    }
}
