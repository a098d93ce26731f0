import GraphQL
import HummingbirdTesting

// A helper of GraphQLHTTPTests' support (Tests/GraphQLHTTPTests/GraphQLHTTPTestSupport.swift) that
// these tests use too: GraphQLHTTPTests stay free of the domain, so they cannot share
// StorykeepTestSupport.

/// Percent-encodes for a query string the way URLSearchParams does (space as `+`).
func formEncode(_ text: String) -> String {
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
