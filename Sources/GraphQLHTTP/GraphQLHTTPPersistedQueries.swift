import CCrypto
import GraphQL
import Hummingbird
import Synchronization

/// Apollo's automatic persisted queries (APQ): a client sends
/// `extensions.persistedQuery = {version: 1, sha256Hash}` with no `query`; when the server
/// knows the hash it runs the stored document, else it answers `PersistedQueryNotFound`
/// (`extensions.code = "PERSISTED_QUERY_NOT_FOUND"`) and the client sends hash and query
/// together, which the server checks (the hash must be the query's SHA-256, in lowercase hex)
/// and stores. Hash-only requests are small enough for GET, so CDNs can cache them.
///
/// Whether a hash is known must tell a requester nothing about what others sent, so:
/// - Documents are kept per *scope*, an opaque string the executor gives for each request
///   (``GraphQLHTTPExecutor/persistedQueryScope(for:context:)``; a tenant's, for example): a hash
///   stored in one scope is unknown in every other, and is answered exactly as a hash nobody sent.
/// - Only documents that carry no values of their own are stored (``GraphQLHTTPDocumentValues``):
///   every value comes from `variables`, as APQ clients send them. Such a document is the client
///   program's text, not its user's: a search term, a password or a name is never kept, so a
///   hash cannot test whether someone sent one. A document with literals runs when sent with
///   its hash, but is not stored: its hash alone stays `PersistedQueryNotFound`.
/// - A document is stored only once the engine has run it, so it parsed and validated.
///
/// The store is bounded in entries and in bytes of query text, over all scopes. It keeps two
/// generations: lookups and stores go to the young one, a hit in the old one is promoted, and
/// when the young one fills up the old one is dropped, so the queries in use stay and the rest
/// age out, at O(1) a request.
final class GraphQLHTTPPersistedQueries: Sendable {
    /// A document's place in the store: its scope and its hash.
    fileprivate struct Key: Hashable {
        var scope: String
        var hash: String
    }

    private struct Generation {
        var queries: [Key: String] = [:]
        var bytes = 0
    }

    private struct State {
        var young = Generation()
        var old = Generation()
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let maxBytes: Int

    init(capacity: Int, maxBytes: Int) {
        self.capacity = capacity
        self.maxBytes = maxBytes
    }

    var isEnabled: Bool { capacity > 0 }

    /// A request's document, and, for a query sent with its hash, the place to keep it at.
    struct Resolved {
        var query: String
        fileprivate var registration: Key?

        /// A document that is not to be stored.
        init(query: String) {
            self.query = query
        }

        fileprivate init(query: String, registration: Key) {
            self.query = query
            self.registration = registration
        }
    }

    /// The document to run for `parameters`, after the persisted-query protocol: the query as
    /// sent when there is no `persistedQuery` extension, the one stored in `scope` for a known
    /// hash. Throws the protocol's errors, and 400 when there is neither query nor hash.
    func resolve(_ parameters: GraphQLHTTPParameters, scope: String) throws(GraphQLHTTPPersistedQueryError) -> Resolved {
        guard let persisted = parameters.extensions["persistedQuery"], persisted != .null else {
            guard let query = parameters.query else { throw .missingQuery }
            return Resolved(query: query)
        }
        guard isEnabled else { throw .notSupported }
        guard case .object(let fields) = persisted, let version = fields["version"] else {
            throw .malformed("The `persistedQuery` extension must be an object with `version` and `sha256Hash`.")
        }
        guard version == .int(1) else { throw .malformed("Unsupported persisted query version") }
        guard case .string(let hash) = fields["sha256Hash"] ?? .null else {
            throw .malformed("The `persistedQuery` extension must have a string `sha256Hash`.")
        }
        let key = Key(scope: scope, hash: hash)
        guard let query = parameters.query else {
            guard let stored = lookUp(key) else { throw .notFound }
            return Resolved(query: stored)
        }
        guard Self.sha256Hex(query) == hash else { throw .malformed("provided sha does not match query") }
        return Resolved(query: query, registration: key)
    }

    /// Stores a document that was sent with its hash, once the engine has run it (so it parsed
    /// and validated), unless it carries values of its own (``GraphQLHTTPDocumentValues``).
    func keep(_ resolved: Resolved) {
        guard let key = resolved.registration, !GraphQLHTTPDocumentValues.carriesValues(resolved.query) else { return }
        state.withLock { state in
            if state.young.queries[key] == nil { insert(resolved.query, key: key, into: &state) }
        }
    }

    private func lookUp(_ key: Key) -> String? {
        state.withLock { state in
            if let query = state.young.queries[key] { return query }
            guard let query = state.old.queries[key] else { return nil }
            insert(query, key: key, into: &state)
            return query
        }
    }

    private func insert(_ query: String, key: Key, into state: inout State) {
        let size = query.utf8.count
        guard size <= maxBytes / 2 else { return }
        if state.young.queries.count >= (capacity + 1) / 2 || state.young.bytes + size > maxBytes / 2 {
            state.old = state.young
            state.young = Generation()
        }
        state.young.queries[key] = query
        state.young.bytes += size
    }

    /// The SHA-256 of the query's UTF-8 bytes, in lowercase hex.
    static func sha256Hex(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var text = text
        text.withUTF8 { bytes in
            _ = SHA256(bytes.baseAddress, bytes.count, &digest)
        }
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digest.count * 2)
        for byte in digest {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Why a request's document could not be found.
enum GraphQLHTTPPersistedQueryError: Error, Equatable {
    /// Neither a query nor a persisted-query hash: not a well-formed request (400).
    case missingQuery
    /// A hash the store does not know (yet): a GraphQL request error the client answers by
    /// sending the query with the hash.
    case notFound
    /// Persisted queries are turned off.
    case notSupported
    /// A malformed extension, an unsupported version or a hash that does not match (400).
    case malformed(String)

    /// The GraphQL error for the protocol's answers (Apollo's messages and codes).
    var graphQLError: GraphQLValue? {
        switch self {
        case .notFound:
            .object([
                "message": .string("PersistedQueryNotFound"),
                "extensions": .object(["code": .string("PERSISTED_QUERY_NOT_FOUND")]),
            ])
        case .notSupported:
            .object([
                "message": .string("PersistedQueryNotSupported"),
                "extensions": .object(["code": .string("PERSISTED_QUERY_NOT_SUPPORTED")]),
            ])
        case .missingQuery, .malformed: nil
        }
    }

    /// The failure for requests that are not well formed.
    var failure: GraphQLHTTPFailure? {
        switch self {
        case .missingQuery: .badRequest("Must provide a query string (or a persisted query hash).")
        case .malformed(let message): .badRequest(message)
        case .notFound, .notSupported: nil
        }
    }
}
