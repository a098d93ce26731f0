import Foundation
import StorykeepCore
import StorykeepJournals

/// Signed links to the files of exported entries: `export/media/<id>?client=…&expires=…&signature=…`,
/// which work without a token until they expire (the tenant file's `export.mediaLinkMinutes`), so
/// that a case management system can hand them to its document store.
///
/// The signature is an HMAC-SHA-256, under a key of the tenant's own (derived from its cursor
/// key, `CursorKey.derived(for:)`), of the tenant, the file, the client and the expiry: a link
/// changed in any part, or taken to another agency, is refused. The file is read as the client it
/// was made for, so it must still be exportable when the link is followed.
struct MediaLinks: SignedFileLinks {
    /// Under each tenant's root.
    static let path = "export/media"
    private static let purpose = "storykeep export media links v1"

    /// The link to the file `id` for `client`, valid until `expires`, relative to the request's
    /// tenant root as `links` builds it.
    static func url(file id: UUID, client: ServiceClient, tenant: Tenant, expires: Date, links: any ResourceLinks) -> String {
        let seconds = Int64(expires.timeIntervalSince1970.rounded(.up))
        let signature = sign(file: id, client: client.clientID, expires: seconds, tenant: tenant)
        return links.url("\(path)/\(id.lowercased)?client=\(client.clientID.lowercased)&expires=\(seconds)&signature=\(signature)")
    }

    func context(forFile id: UUID, query: [String: String], tenant: Tenant, now: Date) -> AccountContext? {
        guard let client = query["client"].flatMap(UUID.init(uuidString:)), let expires = query["expires"].flatMap({ Int64($0) }),
            let signature = query["signature"], Double(expires) > now.timeIntervalSince1970
        else { return nil }
        let expected = Self.sign(file: id, client: client, expires: expires, tenant: tenant)
        guard Crypto.constantTimeEquals(Array(signature.utf8), Array(expected.utf8)) else { return nil }
        return .client(tenantID: tenant.id, clientID: client)
    }

    private static func sign(file: UUID, client: UUID, expires: Int64, tenant: Tenant) -> String {
        let payload = "\(tenant.id.lowercased)|\(file.lowercased)|\(client.lowercased)|\(expires)"
        return Crypto.hex(Crypto.hmacSHA256(key: tenant.cursorKey.derived(for: purpose), Array(payload.utf8)))
    }
}
