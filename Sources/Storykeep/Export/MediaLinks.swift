import Foundation
import StorykeepCore
import StorykeepJournals

/// Signed links to the files of exported entries: `export/media/<id>?client=…&expires=…&signature=…`,
/// which work without a token until they expire (the tenant file's `export.mediaLinkMinutes`), so
/// that a case management system can hand them to its document store.
///
/// The signature (``SignedLink``) covers the tenant, the file, the client and the expiry: a link
/// changed in any part, or taken to another agency, is refused. The file is read as the client it
/// was made for, so it must still be exportable when the link is followed.
struct MediaLinks: SignedFileLinks {
    /// Under each tenant's root.
    static let path = "export/media"
    private static let signing = SignedLink(purpose: "storykeep export media links v1")

    /// The link to the file `id` for `client`, valid until `expires`, relative to the request's
    /// tenant root as `links` builds it.
    static func url(file id: UUID, client: ServiceClient, tenant: Tenant, expires: Date, links: any ResourceLinks) -> String {
        let query = signing.query(file: id, parts: ["client": client.clientID.lowercased], expires: expires, tenant: tenant)
        return links.url("\(path)/\(id.lowercased)?\(query)")
    }

    func context(forFile id: UUID, query: [String: String], tenant: Tenant, now: Date) -> AccountContext? {
        guard let client = query["client"].flatMap(UUID.init(uuidString:)),
            Self.signing.verifies(file: id, query: query, parts: ["client"], tenant: tenant, now: now)
        else { return nil }
        return .client(tenantID: tenant.id, clientID: client)
    }
}
