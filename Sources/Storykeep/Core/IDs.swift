public import Foundation
public import GraphQL

extension UUID {
    /// The canonical lowercase form: how ids appear in the API. Written byte by byte: Foundation's
    /// `uuidString` formats through `sprintf` and is then lowercased, two strings for every id of
    /// every response.
    public var lowercased: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var end = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[end] = UInt8(ascii: "-")
                        end += 1
                    }
                    Crypto.writeHex(byte, into: text, at: end)
                    end += 2
                }
                return end
            }
        }
    }
}

extension GraphQLObject {
    /// The argument `name` as an id. An `ID` that is no UUID names nothing, so it is NOT_FOUND
    /// like any other id that is not the person's to see.
    public func id(_ name: String) throws -> UUID {
        guard let text = self[name]?.stringValue, let id = UUID(uuidString: text) else { throw GraphQLError.notFound() }
        return id
    }

    /// The list argument or input field `name` as ids, refused as a whole (BAD_USER_INPUT naming
    /// `field`) if one is no UUID; empty when absent.
    public func ids(_ name: String, field: String) throws -> [UUID] {
        try (self[name]?.listValue ?? []).map { item in
            guard let text = item.stringValue, let id = UUID(uuidString: text) else {
                throw GraphQLError.badUserInput(field: field, "\(item.stringValue ?? "?") is not an id.")
            }
            return id
        }
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    public func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
