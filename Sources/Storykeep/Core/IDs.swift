public import Foundation
public import GraphQL

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
