import Foundation
import Postgres
import StorykeepCore

/// The download of a finished data export: `privacy/exports/<id>?expires=…&signature=…`, a link
/// signed with the tenant's key (``SignedLink``) that works without a token until the export
/// expires (the link's expiry is the export's), once: the first read of its bytes removes them. Read in the tenant's operator
/// context, which the signature grants for that one export.
struct DataExportDownloads: SignedFileLinks, FileSource {
    /// Under each tenant's root.
    static let path = "privacy/exports"
    private static let signing = SignedLink(purpose: "storykeep privacy data exports v1")

    /// The link to the export `id`, valid until `expires`, as `links` builds it.
    static func url(export id: UUID, tenant: Tenant, expires: Date, links: any ResourceLinks) -> String {
        links.url("\(path)/\(id.lowercased)?" + signing.query(file: id, parts: [:], expires: expires, tenant: tenant))
    }

    func context(forFile id: UUID, query: [String: String], tenant: Tenant, now: Date) -> AccountContext? {
        guard Self.signing.verifies(file: id, query: query, parts: [], tenant: tenant, now: now) else { return nil }
        return .tenantOperator(tenantID: tenant.id)
    }

    func file(id: UUID, in tx: PostgresTransaction) async throws -> FileDescription? {
        guard let row = try await tx.query(DataExportStatements.file, id).first else { return nil }
        return FileDescription(
            id: id, contentType: "application/zip", byteSize: try row.decode(Int.self, at: 0),
            sha256Hex: Crypto.hex(try row.decode([UInt8].self, at: 1)))
    }

    func bytes(id: UUID, offset: Int, length: Int?, in tx: PostgresTransaction) async throws -> [UInt8]? {
        try await tx.query(DataExportStatements.take, id, offset, length).first?.decode([UInt8].self, at: 0)
    }
}
