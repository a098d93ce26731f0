import CCrypto

/// A key for HMAC-SHA-256 (RFC 2104) made ready once: the SHA-256 states after its inner and
/// outer pads. Each MAC is then two short hashes of its own, with no allocation and no lookup of
/// the algorithm, which libcrypto's one-shot `HMAC` does on every call (a journal page signs a
/// cursor per entry).
///
/// A class, so that the values holding one (every ``Tenant``) copy a reference and not two C
/// structs; its states are never changed after `init`, so it is safe to share.
package final class HMACKey: @unchecked Sendable {
    // SHA256_CTX holds only integers: copying it copies the state.
    private let inner: SHA256_CTX
    private let outer: SHA256_CTX

    private static let blockBytes = 64

    package init(_ key: [UInt8]) {
        var block = key.count > Self.blockBytes ? Crypto.sha256(key) : key
        block += [UInt8](repeating: 0, count: Self.blockBytes - block.count)
        inner = Self.state(absorbing: block.map { $0 ^ 0x36 })
        outer = Self.state(absorbing: block.map { $0 ^ 0x5c })
    }

    private static func state(absorbing pad: [UInt8]) -> SHA256_CTX {
        var context = SHA256_CTX()
        SHA256_Init(&context)
        pad.withUnsafeBytes { _ = SHA256_Update(&context, $0.baseAddress, $0.count) }
        return context
    }

    /// The HMAC-SHA-256 of `bytes`: SHA-256(outer pad ‖ SHA-256(inner pad ‖ bytes)).
    package func mac(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var context = inner
        bytes.withUnsafeBytes { _ = SHA256_Update(&context, $0.baseAddress, $0.count) }
        digest.withUnsafeMutableBufferPointer { digest in
            _ = SHA256_Final(digest.baseAddress, &context)
            context = outer
            _ = SHA256_Update(&context, digest.baseAddress, digest.count)
            _ = SHA256_Final(digest.baseAddress, &context)
        }
        return digest
    }
}
