import Foundation
public import HTTPTypes
public import Storykeep

/// Who the client of a request is, by address: the connection's peer, or, when the peer is one
/// of `http.trustedProxies`, the address the proxies say they forwarded for (`Forwarded`'s
/// `for=`, else `X-Forwarded-For`). The list is read from the right, the hop nearest to us,
/// skipping trusted proxies: the first address no trusted proxy owns is the client's, so a
/// client cannot pick its address by sending the header itself.
public enum ClientAddress {
    /// The client's address, or `unknown` when the connection has none (an in-process test).
    public static func resolve(peer: String?, headers: HTTPFields, trustedProxies: [CIDR]) -> String {
        guard let peer else { return "unknown" }
        guard isTrusted(peer, trustedProxies) else { return peer }
        var nearest = peer
        for hop in forwardedFor(headers).reversed() {
            guard IPAddress.bytes(hop) != nil else { return nearest }
            guard isTrusted(hop, trustedProxies) else { return hop }
            nearest = hop
        }
        return nearest
    }

    static func isTrusted(_ address: String, _ proxies: [CIDR]) -> Bool {
        proxies.contains { $0.contains(address) }
    }

    /// The addresses the proxies forwarded for, farthest first, from `Forwarded` (RFC 7239) if
    /// the request has it, else from `X-Forwarded-For`; ports and IPv6 brackets dropped.
    static func forwardedFor(_ headers: HTTPFields) -> [String] {
        let forwarded = headers[values: HTTPField.Name("Forwarded")!]
        if !forwarded.isEmpty {
            return forwarded.flatMap { $0.split(separator: ",") }.compactMap { element in
                element.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                    .first { $0.lowercased().hasPrefix("for=") }
                    .map { node(String($0.dropFirst(4)).trimmingCharacters(in: ["\""])) }
            }
        }
        return headers[values: HTTPField.Name("X-Forwarded-For")!].flatMap { $0.split(separator: ",") }
            .map { node($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// An address without its port: `[2001:db8::1]:4711` → `2001:db8::1`, `192.0.2.1:80` → `192.0.2.1`.
    static func node(_ text: String) -> String {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") { return String(text[text.index(after: text.startIndex)..<close]) }
        let colons = text.filter { $0 == ":" }.count
        return colons == 1 ? String(text.prefix { $0 != ":" }) : text
    }
}
