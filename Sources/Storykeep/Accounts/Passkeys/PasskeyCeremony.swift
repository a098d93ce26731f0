import Foundation
import StorykeepCore

/// The relying party a tenant is to passkeys: its id (a host name the authenticator scopes
/// credentials to), its name as shown by the phone, and the web origins its apps run on.
package struct RelyingParty: Sendable, Equatable {
    package var id: String
    package var name: String
    package var origins: Set<String>

    /// The tenant's: its first host (`hosts`), or `localhost` for a tenant without one (development:
    /// browsers allow passkeys on localhost); its display name; and of its `cors.origins` and
    /// `https://<host>` for each of its hosts, those a browser lets use that id (the id itself or
    /// a subdomain of it).
    package init(tenant: Tenant) {
        id = tenant.file.hosts.first ?? "localhost"
        name = tenant.file.displayName
        let candidates = tenant.file.cors.origins + tenant.file.hosts.map { "https://\($0)" }
        origins = Set(candidates.filter { [id] origin in
            guard let host = URLComponents(string: origin)?.host else { return false }
            return host == id || host.hasSuffix("." + id)
        })
    }

    package init(id: String, name: String, origins: Set<String>) {
        self.id = id
        self.name = name
        self.origins = origins
    }
}

/// Why a passkey ceremony was refused: for the server's log and tests, never for a login's
/// answer (which says nothing of which part failed).
package struct PasskeyRefusal: Error, Equatable, CustomStringConvertible {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}

/// `clientDataJSON` (WebAuthn §5.8.1): what the browser says it asked the authenticator.
package struct ClientData: Sendable {
    package var type: String
    package var challenge: [UInt8]
    package var origin: String
    /// SHA-256 of the JSON as sent: the authenticator signed it.
    package var hash: [UInt8]

    private struct Fields: Decodable {
        var type: String
        var challenge: String
        var origin: String
        var crossOrigin: Bool?
    }

    /// Reads and checks the JSON's shape; throws a ``PasskeyRefusal`` (untyped: Swift 6.3 crashes
    /// compiling a typed-throws call caught in an initializer).
    package init(json bytes: [UInt8]) throws {
        guard bytes.count <= 4096, let fields = try? JSONDecoder().decode(Fields.self, from: Data(bytes)) else {
            throw PasskeyRefusal("clientDataJSON is not the JSON of client data")
        }
        guard let challenge = Crypto.bytes(base64URL: fields.challenge), !challenge.isEmpty else {
            throw PasskeyRefusal("clientDataJSON's challenge is not base64url")
        }
        guard fields.crossOrigin != true else { throw PasskeyRefusal("the ceremony ran in a frame of another origin") }
        (type, self.challenge, origin, hash) = (fields.type, challenge, fields.origin, Crypto.sha256(bytes))
    }

    /// Refuses another type than `type`, or an origin that is not the relying party's.
    func check(type expected: String, relyingParty: RelyingParty) throws(PasskeyRefusal) {
        guard type == expected else { throw PasskeyRefusal("clientDataJSON's type is \(type), not \(expected)") }
        guard relyingParty.origins.contains(origin) else { throw PasskeyRefusal("the origin \(origin) is not one of the tenant's") }
    }
}

/// The checks of registration and login (WebAuthn §7.1 and §7.2) that need no database: the
/// stores (``Passkeys``) find the challenge and the credential, then ask these.
package enum PasskeyCeremony {
    /// What a registration gives, to be stored.
    package struct Registered: Sendable {
        package var credentialID: [UInt8]
        package var publicKeyCOSE: [UInt8]
        package var algorithm: COSEAlgorithm
        package var signCount: UInt32
    }

    /// Checks the authenticator data of either ceremony: the relying party's id hash, user
    /// present and user verified (always required: a passkey stands in for the password).
    static func check(_ data: AuthenticatorData, relyingParty: RelyingParty) throws(PasskeyRefusal) {
        guard Crypto.constantTimeEquals(data.rpIDHash, Crypto.sha256(relyingParty.id.utf8)) else {
            throw PasskeyRefusal("the authenticator data is for another relying party id")
        }
        guard data.flags.contains(.userPresent) else { throw PasskeyRefusal("the user was not present") }
        guard data.flags.contains(.userVerified) else { throw PasskeyRefusal("the user was not verified") }
    }

    /// Verifies a registration's `clientData` (already matched to its challenge) and
    /// `attestationObject`: `none`, or `packed` self attestation (signed by the new key itself) or
    /// with a certificate (`x5c`), whose signature is checked with the certificate's key; the
    /// certificate's chain is not judged, since no vendor's root is trusted here (the options ask
    /// for no attestation).
    package static func verifyRegistration(
        clientData: ClientData, attestationObject: [UInt8], relyingParty: RelyingParty
    ) throws(PasskeyRefusal) -> Registered {
        try clientData.check(type: "webauthn.create", relyingParty: relyingParty)
        let object: CBOR
        do { object = try CBORDecoder.decode(attestationObject) } catch { throw PasskeyRefusal("attestationObject: \(error)") }
        guard let keys = object.keys, Set(keys) == ["fmt", "attStmt", "authData"], let format = object["fmt"]?.text,
            let statement = object["attStmt"], statement.keys != nil, let authData = object["authData"]?.bytes
        else { throw PasskeyRefusal("attestationObject is not a map of fmt, attStmt and authData") }
        let data: AuthenticatorData
        do { data = try AuthenticatorData(authData) } catch { throw PasskeyRefusal("\(error)") }
        try check(data, relyingParty: relyingParty)
        guard let credential = data.attestedCredential else { throw PasskeyRefusal("the authenticator data holds no new credential") }

        switch format {
        case "none":
            guard statement.keys?.isEmpty == true else { throw PasskeyRefusal("a `none` attestation with a statement") }
        case "packed":
            try verifyPacked(statement, signed: authData + clientData.hash, credentialKey: credential.publicKey)
        default:
            throw PasskeyRefusal("the attestation format \(format), which is not `none` or `packed`")
        }
        return Registered(
            credentialID: credential.credentialID, publicKeyCOSE: credential.publicKeyCOSE, algorithm: credential.publicKey.algorithm,
            signCount: data.signCount)
    }

    /// A `packed` statement (WebAuthn §8.2): `alg` and `sig`, and `x5c` with a certificate.
    private static func verifyPacked(_ statement: CBOR, signed: [UInt8], credentialKey: PasskeyPublicKey) throws(PasskeyRefusal) {
        guard let alg = statement["alg"]?.int, let algorithm = COSEAlgorithm(rawValue: alg), let signature = statement["sig"]?.bytes else {
            throw PasskeyRefusal("a `packed` statement without a known alg and a sig")
        }
        let key: PasskeyPublicKey
        switch Set(statement.keys ?? []) {
        case ["alg", "sig"]:
            guard algorithm == credentialKey.algorithm else { throw PasskeyRefusal("a self attestation by another algorithm than the key's") }
            key = credentialKey
        case ["alg", "sig", "x5c"]:
            guard let chain = statement["x5c"]?.array, let leaf = chain.first?.bytes, chain.allSatisfy({ $0.bytes != nil }),
                let certificateKey = PasskeyPublicKey.ofCertificate(leaf, algorithm: algorithm)
            else { throw PasskeyRefusal("a `packed` statement whose x5c is no certificate of its alg") }
            key = certificateKey
        default:
            throw PasskeyRefusal("a `packed` statement with other keys than alg, sig and x5c")
        }
        guard key.verify(signature: signature, over: signed) else { throw PasskeyRefusal("the attestation signature does not verify") }
    }

    /// What a login's assertion showed of the credential's counter.
    package enum Counter: Sendable, Equatable {
        /// Store this count (0: the authenticator keeps none).
        case next(UInt32)
        /// A counter that did not grow: another copy of the credential was used (a cloned
        /// authenticator).
        case cloned
    }

    /// Verifies a login's `clientData` (already matched to its challenge), `authenticatorData`
    /// and `signature` with the credential's stored key, and judges the counter against the
    /// stored one.
    package static func verifyAssertion(
        clientData: ClientData, authenticatorData bytes: [UInt8], signature: [UInt8], publicKeyCOSE: [UInt8], storedCount: UInt32,
        relyingParty: RelyingParty
    ) throws(PasskeyRefusal) -> Counter {
        try clientData.check(type: "webauthn.get", relyingParty: relyingParty)
        let data: AuthenticatorData
        do { data = try AuthenticatorData(bytes) } catch { throw PasskeyRefusal("\(error)") }
        guard data.attestedCredential == nil else { throw PasskeyRefusal("an assertion with attested credential data") }
        try check(data, relyingParty: relyingParty)
        let key: PasskeyPublicKey
        do { key = try PasskeyPublicKey(cose: try CBORDecoder.decode(publicKeyCOSE)) } catch { throw PasskeyRefusal("the stored key: \(error)") }
        guard key.verify(signature: signature, over: bytes + clientData.hash) else { throw PasskeyRefusal("the signature does not verify") }
        if data.signCount == 0 && storedCount == 0 { return .next(0) }
        return data.signCount > storedCount ? .next(data.signCount) : .cloned
    }
}
