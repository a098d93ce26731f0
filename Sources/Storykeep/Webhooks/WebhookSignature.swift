import Foundation
import StorykeepCore

/// The Standard Webhooks signature (https://www.standardwebhooks.com): `webhook-signature:
/// v1,<base64 of the HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the secret's
/// bytes.
public struct WebhookSignature: Sendable {
    /// The key's bytes.
    let key: [UInt8]

    /// The key of `secret` as Standard Webhooks write it, `whsec_` and the key in base64; any
    /// other text is a key of its own UTF-8 bytes. Nil for an empty secret or a `whsec_` one
    /// whose rest is not base64.
    public init?(secret: String) {
        if secret.hasPrefix("whsec_") {
            guard let bytes = Data(base64Encoded: String(secret.dropFirst("whsec_".count))), !bytes.isEmpty else { return nil }
            key = Array(bytes)
        } else {
            guard !secret.isEmpty else { return nil }
            key = Array(secret.utf8)
        }
    }

    /// The `webhook-signature` header of a message.
    public func header(id: String, timestamp: Int, body: String) -> String {
        "v1," + Data(Crypto.hmacSHA256(key: key, Array("\(id).\(timestamp).\(body)".utf8))).base64EncodedString()
    }
}
