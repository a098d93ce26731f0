/// A value literal as graphql-js's `print` writes it on one line, for error messages.
/// (Stands in until the language printer lands.)
func printForError(_ value: Value) -> String {
    switch value {
    case .variable(let variable): return "$" + variable.name.value
    case .int(let int): return int.value
    case .float(let float): return float.value
    case .string(let string): return jsonString(string.value)
    case .boolean(let boolean): return boolean.value ? "true" : "false"
    case .null: return "null"
    case .enum(let value): return value.value
    case .list(let list): return "[" + list.values.map(printForError).joined(separator: ", ") + "]"
    case .object(let object):
        return "{ " + object.fields.map { $0.name.value + ": " + printForError($0.value) }.joined(separator: ", ") + " }"
    }
}
