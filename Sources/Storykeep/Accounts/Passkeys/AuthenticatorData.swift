/// What an authenticator signs (WebAuthn §6.1): the relying party's id hash, flags, a signature
/// counter and, when registering, the new credential.
package struct AuthenticatorData: Sendable {
    /// The flags byte's bits that matter here.
    package struct Flags: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        package static let userPresent = Flags(rawValue: 0x01)
        package static let userVerified = Flags(rawValue: 0x04)
        package static let attestedCredentialData = Flags(rawValue: 0x40)
        package static let extensionData = Flags(rawValue: 0x80)
    }

    /// The credential a registration creates.
    package struct AttestedCredential: Sendable {
        package var credentialID: [UInt8]
        /// The COSE key as the authenticator wrote it (kept as such).
        package var publicKeyCOSE: [UInt8]
        package var publicKey: PasskeyPublicKey
    }

    /// The bytes as they came: the signature is over them.
    package var raw: [UInt8]
    package var rpIDHash: [UInt8]
    package var flags: Flags
    /// 0 from an authenticator that keeps no counter.
    package var signCount: UInt32
    package var attestedCredential: AttestedCredential?

    /// The longest credential id WebAuthn allows.
    static let maxCredentialIDBytes = 1023

    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package var reason: String
        package var description: String { "authenticator data: \(reason)" }
    }

    /// Reads `bytes` strictly: the attested credential data exactly when its flag says so, the
    /// extensions (a CBOR map) exactly when theirs does, and nothing after.
    package init(_ bytes: [UInt8]) throws(Invalid) {
        guard bytes.count >= 37 else { throw Invalid(reason: "shorter than 37 bytes") }
        raw = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else { throw Invalid(reason: "attested credential data cut short") }
            // The authenticator's model (AAGUID, 16 bytes) is not judged: no attestation is asked for.
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard (1...Self.maxCredentialIDBytes).contains(length), bytes.count >= offset + length else {
                throw Invalid(reason: "a credential id of \(length) bytes")
            }
            let credentialID = Array(bytes[offset..<offset + length])
            offset += length
            let (cose, end): (CBOR, Int)
            do { (cose, end) = try CBORDecoder.decodePrefix(bytes, at: offset) } catch { throw Invalid(reason: "its public key: \(error)") }
            let key: PasskeyPublicKey
            do { key = try PasskeyPublicKey(cose: cose) } catch { throw Invalid(reason: "\(error)") }
            attestedCredential = AttestedCredential(
                credentialID: credentialID, publicKeyCOSE: Array(bytes[offset..<end]), publicKey: key)
            offset = end
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            let (extensions, end): (CBOR, Int)
            do { (extensions, end) = try CBORDecoder.decodePrefix(bytes, at: offset) } catch { throw Invalid(reason: "its extensions: \(error)") }
            guard extensions.keys != nil else { throw Invalid(reason: "extensions that are no map") }
            offset = end
        }
        guard offset == bytes.count else { throw Invalid(reason: "\(bytes.count - offset) bytes after its end") }
    }
}
