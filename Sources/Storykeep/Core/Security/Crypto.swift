import CCrypto
import Foundation

/// The few primitives of OpenSSL's libcrypto that accounts and cursors need: its CSPRNG,
/// SHA-256, HMAC-SHA-256 and a constant-time comparison; and base64url.
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

    /// The HMAC-SHA-256 (RFC 2104) of `bytes` under `key`. A key that signs many messages is
    /// better made ready once (``HMACKey``).
    package static func hmacSHA256(key: [UInt8], _ bytes: [UInt8]) -> [UInt8] {
        HMACKey(key).mac(bytes)
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
    /// one pass straight into the string (cursors are written for every item of a page).
    package static func base64URL(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        return String(unsafeUninitializedCapacity: (bytes.count * 4 + 2) / 3) { out in
            var (index, written) = (0, 0)
            while index < bytes.count {
                let count = min(3, bytes.count - index)
                var group = UInt32(bytes[index]) << 16
                if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
                if count > 2 { group |= UInt32(bytes[index + 2]) }
                for digit in 0...count {
                    out[written] = base64URLAlphabet[Int((group >> (18 - 6 * UInt32(digit))) & 0x3F)]
                    written += 1
                }
                index += 3
            }
            return written
        }
    }

    private static let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The bytes of `text` in base64's URL- and filename-safe alphabet without padding, as
    /// ``base64URL(_:)`` writes them; nil for any other character or an impossible length.
    package static func bytes(base64URL text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var group: UInt32 = 0
        var digits = 0
        for byte in text.utf8 {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            default: return nil
            }
            group = group << 6 | UInt32(value)
            digits += 1
            if digits == 4 {
                out += [UInt8(truncatingIfNeeded: group >> 16), UInt8(truncatingIfNeeded: group >> 8), UInt8(truncatingIfNeeded: group)]
                group = 0
                digits = 0
            }
        }
        // 2 or 3 digits left: 1 or 2 bytes, in their high bits. The bits below them must be zero,
        // so that each byte string has exactly one text (a changed last digit is a changed text).
        if digits > 0 {
            guard group & (digits == 2 ? 0xF : 0x3) == 0 else { return nil }
            group <<= 6 * UInt32(4 - digits)
            out.append(UInt8(truncatingIfNeeded: group >> 16))
            if digits == 3 { out.append(UInt8(truncatingIfNeeded: group >> 8)) }
        }
        return out
    }

    /// `bytes` in lowercase hexadecimal, two digits a byte.
    package static func hex(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() { writeHex(byte, into: buffer, at: 2 * index) }
            return bytes.count * 2
        }
    }

    /// Writes `byte` as two lowercase hexadecimal digits at `index` of `buffer`.
    package static func writeHex(_ byte: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        buffer[index] = hexDigits[Int(byte >> 4)]
        buffer[index + 1] = hexDigits[Int(byte & 0xF)]
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
