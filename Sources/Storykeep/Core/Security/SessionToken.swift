/// A login session's bearer token: 256 bits from libcrypto's CSPRNG, sent by clients as
/// `Authorization: Bearer <text>`.
///
/// The server keeps only ``storageHash``, the token's SHA-256: a copy of the `sessions` table (a
/// backup, a leaked dump) then holds nothing that logs anyone in. A plain hash suffices, unlike
/// for passwords: with 256 random bits there is nothing to guess. The token itself exists only
/// in the response to a login and in the client.
///
/// Deliberately not `Equatable`: tokens are found by their hash, and compared, if ever, with
/// ``matches(storageHash:)`` in constant time. `description` never prints the token.
public struct SessionToken: Sendable, CustomStringConvertible {
    /// Random bytes in a token: 32, 256 bits.
    public static let byteCount = 32
    /// Characters of the token's text: 32 bytes in unpadded base64 take 43.
    public static let textLength = 43

    /// The token as given to the client: URL-safe base64 without padding.
    public let text: String

    /// A new token from `RAND_bytes`.
    public static func generate() throws -> SessionToken {
        SessionToken(uncheckedText: Crypto.base64URL(try Crypto.randomBytes(byteCount)))
    }

    /// The token a client presented, or nil when `text` cannot be one (wrong length or a
    /// character outside URL-safe base64): such a request is unauthenticated without a lookup.
    public init?(presented text: some StringProtocol) {
        guard text.utf8.count == Self.textLength, text.utf8.allSatisfy(Self.isBase64URL) else { return nil }
        self.text = String(text)
    }

    private init(uncheckedText: String) {
        self.text = uncheckedText
    }

    /// What `sessions.token_hash` stores and is searched by: SHA-256 of the token's text.
    public var storageHash: [UInt8] { Crypto.sha256(text.utf8) }

    /// Whether `storageHash` is this token's, compared in constant time.
    public func matches(storageHash stored: [UInt8]) -> Bool {
        Crypto.constantTimeEquals(storageHash, stored)
    }

    public var description: String { "SessionToken(redacted)" }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}

/// What a request presented to say who it is (its `Authorization` header, read by the server's
/// middleware): the domain sees this, never a header.
public enum Credential: Sendable {
    /// Nothing: an anonymous request.
    case none
    /// A bearer token of the right shape (whether it is a live session is for the database to say).
    case bearer(SessionToken)
    /// Something that can be no session token (another scheme, a malformed token): fields that
    /// need a person answer UNAUTHENTICATED, saying the session has ended.
    case invalid
}
