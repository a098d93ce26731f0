import GraphQL

/// The rule every string a request hands the domain follows: it is text PostgreSQL can hold.
///
/// PostgreSQL's `text` cannot contain U+0000, and libpq sends parameters NUL-terminated, so a NUL
/// would cut a value short (`"kept\u{0}dropped"` stored as `"kept"`, a login name matching a
/// shorter one) or fail the statement. The composition (``TenantSchemas``) checks the coerced
/// arguments of every field before its resolver runs, whatever the request carried them in
/// (variables or literals; a JSON body, a GET query string or a multipart `operations` part),
/// and answers BAD_USER_INPUT naming the argument. The GraphQL engine's own `String` and `ID`
/// coercion stays the specification's; `Postgres` refuses a NUL too, as a last defence.
///
/// A module may admit NULs in an argument that must never be refused (a safety alert's message,
/// ``ModuleRegistry/admitNUL(inArgument:of:)``); its resolver takes them out.
enum InputText {
    /// Throws BAD_USER_INPUT naming the first string in `arguments` that holds U+0000, by its
    /// path: `input.text`, `input.moodIcons.2.label`. The arguments named in `admitted` are let
    /// through as they are.
    static func check(_ arguments: GraphQLObject, admittingNUL admitted: Set<String> = []) throws(GraphQLError) {
        for (name, value) in arguments.entries where !admitted.contains(name) {
            if let path = pathToNUL(in: value, at: name) {
                throw GraphQLError.badUserInput(
                    field: path, "\(path): text cannot contain the NUL character (U+0000).")
            }
        }
    }

    /// The path of the first string within `value` that holds U+0000, if any.
    private static func pathToNUL(in value: GraphQLValue, at path: String) -> String? {
        switch value {
        case .string(let text):
            return text.utf8.contains(0) ? path : nil
        case .list(let items):
            for (index, item) in items.enumerated() {
                if let found = pathToNUL(in: item, at: "\(path).\(index)") { return found }
            }
            return nil
        case .object(let object):
            for (key, item) in object.entries {
                if let found = pathToNUL(in: item, at: "\(path).\(key)") { return found }
            }
            return nil
        case .null, .bool, .int, .float:
            return nil
        }
    }
}
