/// Coercion of enum values. A schema built from SDL represents an enum value at run time by
/// its name, as a string; a resolver may also return a Swift enum whose raw value is the name.
extension GraphQLEnumType {
    /// Output coercion: the name of the value a resolver returned.
    public func serialize(_ value: any Sendable) throws -> GraphQLValue {
        let name: String? =
            switch value {
            case let value as String: value
            case let value as GraphQLValue: value.stringValue
            case let value as any RawRepresentable<String>: value.rawValue
            default: nil
            }
        if let name, values[name] != nil { return .string(name) }
        throw GraphQLError(message: "Enum \"\(self.name)\" cannot represent value: \(inspect(value))")
    }

    /// Input coercion from a variable's JSON value: a string naming one of the values.
    public func parseValue(_ value: GraphQLValue, hideSuggestions: Bool = false) throws -> GraphQLValue {
        guard case .string(let name) = value else {
            let shown = inspect(value)
            throw GraphQLError(
                message: "Enum \"\(self.name)\" cannot represent non-string value: \(shown)."
                    + suggestions(for: shown, hideSuggestions))
        }
        guard values[name] != nil else {
            throw GraphQLError(
                message: "Value \"\(name)\" does not exist in \"\(self.name)\" enum."
                    + suggestions(for: name, hideSuggestions))
        }
        return value
    }

    /// Input coercion from a literal (variables already replaced): an enum literal naming one
    /// of the values.
    public func parseLiteral(_ literal: Value, hideSuggestions: Bool = false) throws -> GraphQLValue {
        let shown = print(literal)
        guard case .enum(let value) = literal else {
            throw GraphQLError(
                message: "Enum \"\(name)\" cannot represent non-enum value: \(shown)."
                    + suggestions(for: shown, hideSuggestions))
        }
        guard values[value.value] != nil else {
            throw GraphQLError(
                message: "Value \"\(shown)\" does not exist in \"\(name)\" enum."
                    + suggestions(for: shown, hideSuggestions))
        }
        return .string(value.value)
    }

    private func suggestions(for input: String, _ hide: Bool) -> String {
        hide ? "" : didYouMean(suggestionList(input, values.names), subMessage: "the enum value")
    }
}
