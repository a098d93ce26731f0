public import Foundation

/// A link that works without a token until it expires: its query carries the expiry and an
/// HMAC-SHA-256, under a key of the tenant's own (derived from its cursor key for `purpose`), of
/// the tenant, the file and whatever else the link is for (the export's client, say). A link
/// changed in any part, taken to another agency, or followed after it expired is refused.
///
/// Used by the export's media links and the privacy module's data exports: each gives its own
/// `purpose`, so that a signature of one is never one of the other.
public struct SignedLink: Sendable {
    /// What the key is derived for: `storykeep export media links v1`.
    public var purpose: String

    public init(purpose: String) {
        self.purpose = purpose
    }

    /// The signature of the file `id` for `parts`, expiring at `expires` (seconds since 1970).
    public func signature(file id: UUID, parts: [String], expires: Int64, tenant: Tenant) -> String {
        let payload = ([tenant.id.lowercased, id.lowercased] + parts + [String(expires)]).joined(separator: "|")
        return Crypto.hex(Crypto.hmacSHA256(key: tenant.cursorKey.derived(for: purpose), Array(payload.utf8)))
    }

    /// The query of a link to the file `id` for `parts` (each a name and its value, signed in
    /// order), valid until `expires`: `client=…&expires=…&signature=…`.
    public func query(file id: UUID, parts: KeyValuePairs<String, String>, expires: Date, tenant: Tenant) -> String {
        let seconds = Int64(expires.timeIntervalSince1970.rounded(.up))
        let signature = signature(file: id, parts: parts.map(\.value), expires: seconds, tenant: tenant)
        return (parts.map { "\($0.key)=\($0.value)" } + ["expires=\(seconds)", "signature=\(signature)"]).joined(separator: "&")
    }

    /// Whether `query` signs the file `id` for `parts` of `tenant` (each part the value of its
    /// name in `query`), and has not expired at `now`.
    public func verifies(file id: UUID, query: [String: String], parts names: [String], tenant: Tenant, now: Date) -> Bool {
        let parts = names.compactMap { query[$0] }
        guard parts.count == names.count, let expires = query["expires"].flatMap({ Int64($0) }), let signature = query["signature"],
            Double(expires) > now.timeIntervalSince1970
        else { return false }
        let expected = self.signature(file: id, parts: parts, expires: expires, tenant: tenant)
        return Crypto.constantTimeEquals(Array(signature.utf8), Array(expected.utf8))
    }
}
