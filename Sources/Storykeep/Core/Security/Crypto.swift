import CCrypto
import Foundation

/// The few primitives of OpenSSL's libcrypto that accounts need: its CSPRNG, SHA-256 and a
/// constant-time comparison.
package enum Crypto {
    /// libcrypto's random generator could not produce bytes (it was never seeded); nothing that
    /// needs a secret may go on.
    struct RandomnessUnavailable: Error, CustomStringConvertible {
        var description: String { "RAND_bytes failed: the system's random source is unavailable" }
    }

    /// `count` bytes from `RAND_bytes`, libcrypto's CSPRNG (seeded from the operating system).
    package static func randomBytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard status == 1 else { throw RandomnessUnavailable() }
        return bytes
    }

    /// The SHA-256 digest of `bytes`, through the EVP interface.
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
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
    package static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }

    /// `bytes` in base64's URL- and filename-safe alphabet (RFC 4648 §5), without padding, in
    /// one pass (cursors are written for every item of a page).
    package static func base64URL(_ bytes: some Collection<UInt8>) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let bytes = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for digit in 0...count { out.append(alphabet[Int((group >> (18 - 6 * UInt32(digit))) & 0x3F)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `bytes` in lowercase hexadecimal, two digits a byte.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = digits[Int(byte >> 4)]
                buffer[2 * index + 1] = digits[Int(byte & 0xF)]
            }
            return bytes.count * 2
        }
    }
}
