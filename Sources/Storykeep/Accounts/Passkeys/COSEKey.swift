import CCrypto

/// The signature algorithms a passkey may use here (COSE numbers, RFC 9053): what
/// `beginPasskeyRegistration` offers, in this order of preference.
package enum COSEAlgorithm: Int, Sendable, CaseIterable {
    /// ECDSA on P-256 with SHA-256: phones, laptops, security keys.
    case es256 = -7
    /// RSASSA-PKCS1-v1_5 with SHA-256: Windows Hello on some machines.
    case rs256 = -257
}

/// A credential's public key, from its COSE form (RFC 9052 §7) into a libcrypto `EVP_PKEY`, which
/// checks signatures with it. Strict: an EC2 key is P-256 with 32-byte coordinates on the curve
/// and ES256; an RSA key has at least 2048 bits and RS256; no other label is accepted.
package final class PasskeyPublicKey: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is never changed after init, and libcrypto allows concurrent
    // verifications with one key.
    private let key: OpaquePointer
    package let algorithm: COSEAlgorithm

    /// The least size of an RSA modulus accepted (NIST SP 800-131A).
    static let minRSABits: Int32 = 2048

    /// Why a COSE key is refused.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package var reason: String
        package var description: String { "COSE key: \(reason)" }
    }

    /// The key of the COSE map `cose` (decoded CBOR).
    package init(cose: CBOR) throws(Invalid) {
        guard let keys = cose.keys else { throw Invalid(reason: "not a map") }
        let spki: [UInt8]
        switch (cose[1]?.int, cose[3]?.int) {
        case (2, COSEAlgorithm.es256.rawValue):
            // kty EC2, alg ES256, crv P-256 (1), x (-2), y (-3).
            guard Set(keys) == [1, 3, -1, -2, -3] else { throw Invalid(reason: "an EC2 key with other labels than 1, 3, -1, -2, -3") }
            guard cose[-1]?.int == 1 else { throw Invalid(reason: "an EC2 key on another curve than P-256") }
            guard let x = cose[-2]?.bytes, let y = cose[-3]?.bytes, x.count == 32, y.count == 32 else {
                throw Invalid(reason: "an EC2 key whose coordinates are not 32 bytes each")
            }
            spki = DER.ecP256SubjectPublicKeyInfo(x: x, y: y)
            algorithm = .es256
        case (3, COSEAlgorithm.rs256.rawValue):
            // kty RSA, alg RS256, n (-1), e (-2).
            guard Set(keys) == [1, 3, -1, -2] else { throw Invalid(reason: "an RSA key with other labels than 1, 3, -1, -2") }
            guard let n = cose[-1]?.bytes, let e = cose[-2]?.bytes, !n.isEmpty, !e.isEmpty, e.count <= 8, n.count <= 1024 else {
                throw Invalid(reason: "an RSA key without a modulus and exponent of sensible sizes")
            }
            spki = DER.rsaSubjectPublicKeyInfo(modulus: n, exponent: e)
            algorithm = .rs256
        default:
            throw Invalid(reason: "neither an EC2 key for ES256 (-7) nor an RSA key for RS256 (-257)")
        }
        guard let key = Self.parse(subjectPublicKeyInfo: spki) else { throw Invalid(reason: "libcrypto refused the key (a point off the curve?)") }
        if algorithm == .rs256, EVP_PKEY_get_bits(key) < Self.minRSABits {
            EVP_PKEY_free(key)
            throw Invalid(reason: "an RSA key shorter than \(Self.minRSABits) bits")
        }
        self.key = key
    }

    /// A key already in libcrypto's hands (an attestation certificate's); takes ownership.
    private init(key: OpaquePointer, algorithm: COSEAlgorithm) {
        self.key = key
        self.algorithm = algorithm
    }

    deinit { EVP_PKEY_free(key) }

    /// The public key of the DER X.509 certificate `der` (a packed attestation's `x5c` leaf),
    /// to check signatures of `algorithm` with; nil when libcrypto cannot read it or its key is
    /// not of that algorithm's kind.
    package static func ofCertificate(_ der: [UInt8], algorithm: COSEAlgorithm) -> PasskeyPublicKey? {
        let certificate: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let certificate else { return nil }
        defer { X509_free(certificate) }
        guard let key = X509_get_pubkey(certificate) else { return nil }
        let expected = algorithm == .es256 ? EVP_PKEY_EC : EVP_PKEY_RSA
        guard EVP_PKEY_get_base_id(key) == expected else {
            EVP_PKEY_free(key)
            return nil
        }
        return PasskeyPublicKey(key: key, algorithm: algorithm)
    }

    /// Whether `signature` is this key's over `message`, by its algorithm (SHA-256 and ECDSA with
    /// a DER signature, or PKCS#1 v1.5), through libcrypto's `EVP_DigestVerify`.
    package func verify(signature: [UInt8], over message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return signature.withUnsafeBufferPointer { signature in
            message.withUnsafeBufferPointer { message in
                EVP_DigestVerify(context, signature.baseAddress, signature.count, message.baseAddress, message.count) == 1
            }
        }
    }

    private static func parse(subjectPublicKeyInfo der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let key = d2i_PUBKEY(nil, &cursor, buffer.count)
            // The whole of it, or nothing.
            guard let key, cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                if let key { EVP_PKEY_free(key) }
                return nil
            }
            return key
        }
    }
}

/// The few DER structures a COSE key becomes for libcrypto: a SubjectPublicKeyInfo (RFC 5280).
enum DER {
    /// SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING { 04 ‖ x ‖ y } }.
    static func ecP256SubjectPublicKeyInfo(x: [UInt8], y: [UInt8]) -> [UInt8] {
        let algorithm = sequence(objectIdentifier([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]) + objectIdentifier([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]))
        return sequence(algorithm + bitString([0x04] + x + y))
    }

    /// SEQUENCE { SEQUENCE { rsaEncryption, NULL }, BIT STRING { SEQUENCE { INTEGER n, INTEGER e } } }.
    static func rsaSubjectPublicKeyInfo(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
        let algorithm = sequence(objectIdentifier([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]) + [0x05, 0x00])
        return sequence(algorithm + bitString(sequence(unsignedInteger(modulus) + unsignedInteger(exponent))))
    }

    private static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8] =
            switch count {
            case ..<0x80: [UInt8(count)]
            case ..<0x100: [0x81, UInt8(count)]
            default: [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
            }
        return [tag] + length + content
    }

    private static func sequence(_ content: [UInt8]) -> [UInt8] { element(0x30, content) }
    private static func objectIdentifier(_ encoded: [UInt8]) -> [UInt8] { element(0x06, encoded) }
    private static func bitString(_ bytes: [UInt8]) -> [UInt8] { element(0x03, [0x00] + bytes) }

    /// A non-negative INTEGER from big-endian bytes: leading zeros dropped, one put back when the
    /// high bit is set.
    private static func unsignedInteger(_ bytes: [UInt8]) -> [UInt8] {
        var digits = Array(bytes.drop { $0 == 0 })
        if digits.isEmpty || digits[0] & 0x80 != 0 { digits.insert(0, at: 0) }
        return element(0x02, digits)
    }
}
