import GraphQL

/// The arguments of a served schema's root fields, for a test that covers every argument the
/// schema has, those added after it was written included: the paths to its leaves, arguments
/// with a value at one of them, and documents that call the field with those arguments.
extension IntrospectedSchema {
    /// Every path from an argument of `field` to a leaf of one of the scalar types `leaves`
    /// (`input.moodIcons.0.label`; a list's item is `0`), through input objects and lists.
    func paths(of field: Field, to leaves: Set<String>) -> [String] {
        func walk(_ type: TypeRef, _ path: String, _ seen: Set<String>) -> [String] {
            switch type {
            case .nonNull(let inner): return walk(inner, path, seen)
            case .list(let item): return walk(item, path + ".0", seen)
            case .named(let name):
                if let input = types[name], input.kind == .inputObject {
                    guard !seen.contains(name) else { return [] }
                    return input.inputFields.flatMap { walk($0.type, path + "." + $0.name, seen.union([name])) }
                }
                return leaves.contains(name) ? [path] : []
            }
        }
        return field.arguments.flatMap { walk($0.type, $0.name, []) }
    }

    /// Arguments for `field`: the required ones with plain valid-looking values (`scalars` by
    /// type name; an enum's first value; input objects with their required fields), and `value`
    /// at `path` (with whatever leads to it).
    func arguments(for field: Field, scalars: [String: GraphQLValue], setting value: GraphQLValue, at path: String) -> GraphQLObject {
        let keys = path.split(separator: ".").map(String.init)
        func sample(_ type: TypeRef, _ rest: ArraySlice<String>) -> GraphQLValue {
            switch type {
            case .nonNull(let inner): return sample(inner, rest)
            case .list(let item): return .list([sample(item, rest.dropFirst())])
            case .named(let name):
                switch types[name]?.kind {
                case .inputObject:
                    var object = GraphQLObject()
                    for input in types[name]?.inputFields ?? [] where input.isRequired || input.name == rest.first {
                        object[input.name] = sample(input.type, input.name == rest.first ? rest.dropFirst() : [])
                    }
                    return .object(object)
                case .enumeration: return .string(types[name]?.enumValues.first ?? "")
                default: return scalars[name] ?? .string("x")
                }
            }
        }
        var arguments = GraphQLObject()
        for argument in field.arguments where argument.isRequired || argument.name == keys.first {
            arguments[argument.name] = sample(argument.type, argument.name == keys.first ? keys.dropFirst() : [])
        }
        return Self.setting(value, at: keys[...], in: .object(arguments)).objectValue ?? [:]
    }

    private static func setting(_ value: GraphQLValue, at path: ArraySlice<String>, in container: GraphQLValue) -> GraphQLValue {
        guard let key = path.first else { return value }
        switch container {
        case .object(var object):
            object[key] = setting(value, at: path.dropFirst(), in: object[key] ?? .null)
            return .object(object)
        case .list(var items):
            let index = Int(key) ?? 0
            items[index] = setting(value, at: path.dropFirst(), in: items[index])
            return .list(items)
        default:
            return value
        }
    }

    /// `field` under `operation` (`query`, `mutation`) called with `arguments` as variables: the
    /// document, selecting `__typename` of an object result.
    func document(_ operation: String, _ field: Field, variables arguments: GraphQLObject) -> String {
        let types = Dictionary(uniqueKeysWithValues: field.arguments.map { ($0.name, $0.type) })
        let definitions = arguments.keys.map { "$\($0): \(types[$0]!.sdl)" }.joined(separator: ", ")
        let passed = arguments.keys.map { "\($0): $\($0)" }.joined(separator: ", ")
        return "\(operation)\(definitions.isEmpty ? "" : "(\(definitions))") "
            + "{ \(field.name)\(passed.isEmpty ? "" : "(\(passed))")\(typenameSelection(field)) }"
    }

    /// `field` under `operation` called with `arguments` written into the document as literals.
    func document(_ operation: String, _ field: Field, literals arguments: GraphQLObject) -> String {
        let types = Dictionary(uniqueKeysWithValues: field.arguments.map { ($0.name, $0.type) })
        let passed = arguments.entries.map { "\($0): \(literal($1, types[$0]!))" }.joined(separator: ", ")
        return "\(operation) { \(field.name)\(passed.isEmpty ? "" : "(\(passed))")\(typenameSelection(field)) }"
    }

    private func typenameSelection(_ field: Field) -> String {
        switch types[field.type.named]?.kind {
        case .object, .interface, .union: " { __typename }"
        default: ""
        }
    }

    /// `value` as a GraphQL literal of `type` (enum values bare, strings with JSON's escapes,
    /// which GraphQL's string syntax shares).
    private func literal(_ value: GraphQLValue, _ type: TypeRef) -> String {
        switch (value, type) {
        case (_, .nonNull(let inner)): return literal(value, inner)
        case (.list(let items), .list(let item)): return "[" + items.map { literal($0, item) }.joined(separator: ", ") + "]"
        case (.object(let object), .named(let name)):
            let fields = Dictionary(uniqueKeysWithValues: (types[name]?.inputFields ?? []).map { ($0.name, $0.type) })
            return "{" + object.entries.map { "\($0): \(literal($1, fields[$0]!))" }.joined(separator: ", ") + "}"
        case (.string(let text), .named(let name)) where types[name]?.kind == .enumeration: return text
        default: return value.json
        }
    }
}
