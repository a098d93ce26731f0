import Synchronization

/// A bounded, thread-safe cache of parsed and validated documents for one schema, with their
/// compiled plans, so that a repeated operation skips parsing, validation and planning.
///
/// Entries are found by the document's text through a hash table: the text's hash picks the
/// bucket and the text itself is compared, so two documents can never be confused, as they
/// could be under a bare digest. Documents that fail to parse or validate are kept too, with
/// their errors. When full, the least recently used entry is dropped.
public final class DocumentCache: Sendable {
    /// A cached outcome: a document ready to execute, or the request errors it gave.
    enum Entry: Sendable {
        case valid(PreparedDocument)
        case invalid([GraphQLError])
    }

    private struct Node {
        var key: String
        var entry: Entry
        var newer: Int?
        var older: Int?
    }

    /// An LRU list threaded through `nodes` by index, `newest` first.
    private struct State {
        var index: [String: Int] = [:]
        var nodes: [Node] = []
        var newest: Int?
        var oldest: Int?
        var hits = 0
        var misses = 0

        mutating func unlink(_ position: Int) {
            let node = nodes[position]
            if let newer = node.newer { nodes[newer].older = node.older } else { newest = node.older }
            if let older = node.older { nodes[older].newer = node.newer } else { oldest = node.newer }
        }

        mutating func pushNewest(_ position: Int) {
            nodes[position].newer = nil
            nodes[position].older = newest
            if let newest { nodes[newest].newer = position }
            newest = position
            if oldest == nil { oldest = position }
        }
    }

    /// The most documents kept.
    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = 1_000) {
        precondition(capacity > 0, "a cache holds at least one document")
        self.capacity = capacity
    }

    /// The number of documents cached.
    public var count: Int { state.withLock { $0.index.count } }

    /// Lookups answered from the cache, and those that were not.
    public var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

    func entry(for text: String) -> Entry? {
        state.withLock { state in
            guard let position = state.index[text] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            if state.newest != position {
                state.unlink(position)
                state.pushNewest(position)
            }
            return state.nodes[position].entry
        }
    }

    func insert(_ entry: Entry, for text: String) {
        state.withLock { state in
            if let position = state.index[text] {
                state.nodes[position].entry = entry
                return
            }
            let position: Int
            if state.index.count < capacity {
                position = state.nodes.count
                state.nodes.append(Node(key: text, entry: entry))
            } else {
                // Reuse the least recently used node.
                position = state.oldest!
                state.unlink(position)
                state.index[state.nodes[position].key] = nil
                state.nodes[position] = Node(key: text, entry: entry)
            }
            state.index[text] = position
            state.pushNewest(position)
        }
    }
}
