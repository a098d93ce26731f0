import Foundation
import StorykeepCore

/// The options a browser's `navigator.credentials.create()` and `.get()` take, as the JSON that
/// `PublicKeyCredential.parseCreationOptionsFromJSON` and `parseRequestOptionsFromJSON` read
/// (WebAuthn Level 3): binary values in base64url.
enum PasskeyOptions {
    /// How long a challenge lives: five minutes, the time a person takes to find their phone.
    static let challengeLifetime: TimeInterval = 300

    /// 32 random bytes.
    static func newChallenge() throws -> [UInt8] { try Crypto.randomBytes(32) }

    struct Credential: Encodable {
        var type = "public-key"
        var id: String
    }

    /// `PublicKeyCredentialCreationOptionsJSON`: user verification required, a discoverable
    /// credential preferred (so that the login can go without a username), no attestation asked
    /// for, ES256 then RS256.
    static func creation(
        challenge: [UInt8], relyingParty: RelyingParty, userHandle: [UInt8], userName: String, displayName: String, exclude: [[UInt8]]
    ) -> String {
        struct Options: Encodable {
            struct Party: Encodable { var id: String, name: String }
            struct User: Encodable { var id: String, name: String, displayName: String }
            struct Parameter: Encodable { var type = "public-key", alg: Int }
            struct Selection: Encodable {
                var residentKey = "preferred", requireResidentKey = false, userVerification = "required"
            }
            var challenge: String
            var rp: Party
            var user: User
            var pubKeyCredParams = COSEAlgorithm.allCases.map { Parameter(alg: $0.rawValue) }
            var timeout = Int(PasskeyOptions.challengeLifetime * 1000)
            var excludeCredentials: [Credential]
            var authenticatorSelection = Selection()
            var attestation = "none"
        }
        return json(
            Options(
                challenge: Crypto.base64URL(challenge), rp: .init(id: relyingParty.id, name: relyingParty.name),
                user: .init(id: Crypto.base64URL(userHandle), name: userName, displayName: displayName),
                excludeCredentials: exclude.map { Credential(id: Crypto.base64URL($0)) }))
    }

    /// `PublicKeyCredentialRequestOptionsJSON`: user verification required; `allow` empty for a
    /// discoverable credential (the phone offers the passkeys it has for the relying party).
    static func request(challenge: [UInt8], relyingParty: RelyingParty, allow: [[UInt8]]) -> String {
        struct Options: Encodable {
            var challenge: String
            var rpId: String
            var timeout = Int(PasskeyOptions.challengeLifetime * 1000)
            var userVerification = "required"
            var allowCredentials: [Credential]
        }
        return json(
            Options(challenge: Crypto.base64URL(challenge), rpId: relyingParty.id, allowCredentials: allow.map { Credential(id: Crypto.base64URL($0)) }))
    }

    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Plain structs of strings, numbers and booleans: encoding cannot fail.
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }
}
