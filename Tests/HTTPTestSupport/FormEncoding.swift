/// A query string of `parameters`, each name and value percent-encoded as URLSearchParams does:
/// `a=1&b=x+y`.
public func formQuery(_ parameters: [(String, String)]) -> String {
    parameters.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
}

/// Percent-encodes for a query string the way URLSearchParams does (space as `+`).
public func formEncode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "*"):
            out.unicodeScalars.append(Unicode.Scalar(byte))
        case UInt8(ascii: " "): out += "+"
        default: out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }
    }
    return out
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
