import Foundation

/// `graphql:` in a tenant file: how the agency's GraphQL endpoint takes documents.
public struct GraphQLPolicy: TenantFileValue {
    public static let tenantFileKey = "graphql"
    public static let defaultValue = GraphQLPolicy()

    /// `trustedDocumentsOnly` (default false): only the documents registered for the tenant
    /// (`storykeep documents register`) run; any other gets `PERSISTED_QUERY_NOT_ALLOWED`, so
    /// introspection and arbitrary queries from the internet are off while the apps keep working.
    public var trustedDocumentsOnly: Bool

    public init(trustedDocumentsOnly: Bool = false) {
        self.trustedDocumentsOnly = trustedDocumentsOnly
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case trustedDocumentsOnly }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        trustedDocumentsOnly = try c.decode(Bool.self, forKey: .trustedDocumentsOnly, default: false)
    }
}

extension TenantFile {
    /// `graphql`: how the tenant's GraphQL endpoint takes documents.
    public var graphql: GraphQLPolicy {
        get { self[GraphQLPolicy.self] }
        set { self[GraphQLPolicy.self] = newValue }
    }
}

/// The documents registered for a tenant (`tenants.trusted_documents`, written by
/// `storykeep documents register`): the operations its apps were built with, by the id their
/// build gave each (graphql-codegen's client preset: the SHA-256 of the text in hex; Relay: its
/// own ids). A client may send an id instead of the text (`documentId`, or Apollo's
/// `extensions.persistedQuery.sha256Hash`); with `graphql.trustedDocumentsOnly` nothing else runs.
public struct TrustedDocuments: Sendable, Equatable {
    /// Each document's text by its id.
    public let byID: [String: String]
    /// The SHA-256 (lowercase hex) of each document's text: what a document sent as text is
    /// known by.
    private let textHashes: Set<String>

    public init(_ byID: [String: String] = [:]) {
        self.byID = byID
        textHashes = Set(byID.values.map(Self.sha256Hex))
    }

    public var isEmpty: Bool { byID.isEmpty }

    /// The text of the document `id` (`sha256:<hex>`, as the GraphQL-over-HTTP proposal writes
    /// ids, or the bare id).
    public func document(id: String) -> String? {
        byID[id] ?? (id.hasPrefix("sha256:") ? byID[String(id.dropFirst("sha256:".count))] : nil)
    }

    /// Whether `text` is, byte for byte, one of the registered documents.
    public func contains(text: String) -> Bool {
        textHashes.contains(Self.sha256Hex(text))
    }

    /// The SHA-256 of `text`'s UTF-8 bytes in lowercase hex: the id graphql-codegen gives it.
    public static func sha256Hex(_ text: String) -> String {
        Crypto.hex(Crypto.sha256(Array(text.utf8)))
    }
}
