#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An IP network, `10.0.0.0/8` or `fd00::/8` (a bare address is its own /32 or /128): what
/// `http.trustedProxies` lists. IPv4 addresses written as IPv6 (`::ffff:10.0.0.1`) match IPv4 networks.
public struct CIDR: Sendable, Equatable, CustomStringConvertible {
    /// The network's address, 4 or 16 bytes.
    let bytes: [UInt8]
    let prefixLength: Int
    public let description: String

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress.bytes(String(parts[0])) else { return nil }
        let maxLength = address.count * 8
        let length = parts.count == 2 ? Int(parts[1]) : maxLength
        guard let length, (0...maxLength).contains(length) else { return nil }
        (bytes, prefixLength, description) = (address, length, text)
    }

    /// True when `address` (text, as a socket or a proxy header gives it) is in the network.
    public func contains(_ address: String) -> Bool {
        guard var other = IPAddress.bytes(address) else { return false }
        if other.count == 16, bytes.count == 4, other.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] {
            other = Array(other.suffix(4))
        }
        guard other.count == bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(bytes, other) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xff : ~(0xff >> UInt8(remaining))
            guard mine & mask == theirs & mask else { return false }
            remaining -= 8
        }
        return true
    }
}

/// IP addresses as text.
public enum IPAddress {
    /// The 4 bytes of an IPv4 address or the 16 of an IPv6 one (brackets allowed), nil for
    /// anything else.
    public static func bytes(_ text: String) -> [UInt8]? {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, String(text), &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
