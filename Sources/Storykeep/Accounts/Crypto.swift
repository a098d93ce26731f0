import CCrypto
import Foundation

/// The few primitives of OpenSSL's libcrypto that accounts need: its CSPRNG, SHA-256 and a
/// constant-time comparison.
enum Crypto {
    /// libcrypto's random generator could not produce bytes (it was never seeded); nothing that
    /// needs a secret may go on.
    struct RandomnessUnavailable: Error, CustomStringConvertible {
        var description: String { "RAND_bytes failed: the system's random source is unavailable" }
    }

    /// `count` bytes from `RAND_bytes`, libcrypto's CSPRNG (seeded from the operating system).
    static func randomBytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard status == 1 else { throw RandomnessUnavailable() }
        return bytes
    }

    /// The SHA-256 digest of `bytes`, through the EVP interface.
    static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var length: UInt32 = 0
        let status = input.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { digest in
                EVP_Digest(input.baseAddress, input.count, digest.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only when it cannot allocate its context: no digest to return then.
        precondition(status == 1 && length == SHA256_DIGEST_LENGTH, "EVP_Digest(SHA-256) failed")
        return digest
    }

    /// Whether `a` and `b` hold the same bytes, in time that depends only on their length
    /// (`CRYPTO_memcmp`), so comparing a secret leaks nothing of where it first differs. A length
    /// difference answers at once: lengths are not secret here.
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }

    /// `bytes` in base64's URL- and filename-safe alphabet (RFC 4648 §5), without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
