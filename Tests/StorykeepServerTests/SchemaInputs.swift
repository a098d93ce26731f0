import Foundation
import GraphQL
import Testing

/// The arguments of a served schema's root fields, read by introspection over HTTP, so that a
/// test covers every argument the schema has, those added after it was written included.
struct SchemaInputs {
    /// A type as introspection describes it.
    indirect enum TypeRef: Equatable {
        case named(String, kind: String)
        case list(TypeRef)
        case nonNull(TypeRef)

        init(_ value: GraphQLValue?) throws {
            let value = try #require(value)
            switch value["kind"]?.stringValue {
            case "NON_NULL": self = .nonNull(try TypeRef(value["ofType"]))
            case "LIST": self = .list(try TypeRef(value["ofType"]))
            default: self = .named(try #require(value["name"]?.stringValue), kind: try #require(value["kind"]?.stringValue))
            }
        }

        /// As written in a document: `[MoodIconInput!]`.
        var text: String {
            switch self {
            case .named(let name, _): name
            case .list(let item): "[\(item.text)]"
            case .nonNull(let inner): "\(inner.text)!"
            }
        }

        var named: (name: String, kind: String) {
            switch self {
            case .named(let name, let kind): (name, kind)
            case .list(let inner), .nonNull(let inner): inner.named
            }
        }

        var isNonNull: Bool { if case .nonNull = self { true } else { false } }
    }

    struct Input {
        var name: String
        var type: TypeRef
        var hasDefault: Bool
        /// Required: non-null without a default.
        var isRequired: Bool { type.isNonNull && !hasDefault }
    }

    struct Field {
        var operation: OperationType
        var name: String
        var arguments: [Input]
        var type: TypeRef
    }

    var fields: [Field]
    var inputObjects: [String: [Input]]
    var enums: [String: [String]]

    /// The introspection query this reads.
    static let query = """
        query {
          __schema {
            queryType { fields { ...Field } }
            mutationType { fields { ...Field } }
            types { name kind inputFields { ...Input } enumValues { name } }
          }
        }
        fragment Field on __Field { name args { ...Input } type { ...Type } }
        fragment Input on __InputValue { name defaultValue type { ...Type } }
        fragment Type on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }
        """

    /// From the response to ``query``.
    init(introspection response: GraphQLValue) throws {
        let schema = try #require(response["data"]?["__schema"], "\(response.json)")
        func inputs(_ list: GraphQLValue?) throws -> [Input] {
            try (list?.listValue ?? []).map { input in
                Input(
                    name: try #require(input["name"]?.stringValue), type: try TypeRef(input["type"]),
                    hasDefault: input["defaultValue"] != .null)
            }
        }
        var fields: [Field] = []
        for (operation, root) in [(OperationType.query, "queryType"), (.mutation, "mutationType")] {
            for field in schema[root]?["fields"]?.listValue ?? [] {
                fields.append(
                    Field(
                        operation: operation, name: try #require(field["name"]?.stringValue),
                        arguments: try inputs(field["args"]), type: try TypeRef(field["type"])))
            }
        }
        self.fields = fields
        var inputObjects: [String: [Input]] = [:]
        var enums: [String: [String]] = [:]
        for type in schema["types"]?.listValue ?? [] {
            let name = try #require(type["name"]?.stringValue)
            switch type["kind"]?.stringValue {
            case "INPUT_OBJECT": inputObjects[name] = try inputs(type["inputFields"])
            case "ENUM": enums[name] = type["enumValues"]?.listValue?.compactMap { $0["name"]?.stringValue } ?? []
            default: break
            }
        }
        self.inputObjects = inputObjects
        self.enums = enums
    }

    /// Every path from an argument of `field` to a leaf of one of the scalar types `leaves`
    /// (`input.moodIcons.0.label`; a list's item is `0`), through input objects and lists.
    func paths(of field: Field, to leaves: Set<String>) -> [String] {
        func walk(_ type: TypeRef, _ path: String, _ seen: Set<String>) -> [String] {
            switch type {
            case .nonNull(let inner): return walk(inner, path, seen)
            case .list(let item): return walk(item, path + ".0", seen)
            case .named(let name, kind: "INPUT_OBJECT"):
                guard !seen.contains(name) else { return [] }
                return (inputObjects[name] ?? []).flatMap { walk($0.type, path + "." + $0.name, seen.union([name])) }
            case .named(let name, _): return leaves.contains(name) ? [path] : []
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
            case .named(let name, kind: "INPUT_OBJECT"):
                var object = GraphQLObject()
                for input in inputObjects[name] ?? [] where input.isRequired || input.name == rest.first {
                    object[input.name] = sample(input.type, input.name == rest.first ? rest.dropFirst() : [])
                }
                return .object(object)
            case .named(let name, kind: "ENUM"):
                return .string(enums[name]?.first ?? "")
            case .named(let name, _):
                return scalars[name] ?? .string("x")
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

    /// `field` called with `arguments` as variables: the document, selecting `__typename` of an
    /// object result.
    func document(_ field: Field, variables arguments: GraphQLObject) -> String {
        let types = Dictionary(uniqueKeysWithValues: field.arguments.map { ($0.name, $0.type) })
        let definitions = arguments.keys.map { "$\($0): \(types[$0]!.text)" }.joined(separator: ", ")
        let passed = arguments.keys.map { "\($0): $\($0)" }.joined(separator: ", ")
        return "\(field.operation.rawValue)\(definitions.isEmpty ? "" : "(\(definitions))") "
            + "{ \(field.name)\(passed.isEmpty ? "" : "(\(passed))")\(selection(field)) }"
    }

    /// `field` called with `arguments` written into the document as literals.
    func document(_ field: Field, literals arguments: GraphQLObject) -> String {
        let types = Dictionary(uniqueKeysWithValues: field.arguments.map { ($0.name, $0.type) })
        let passed = arguments.entries.map { "\($0): \(literal($1, types[$0]!))" }.joined(separator: ", ")
        return "\(field.operation.rawValue) { \(field.name)\(passed.isEmpty ? "" : "(\(passed))")\(selection(field)) }"
    }

    private func selection(_ field: Field) -> String {
        switch field.type.named.kind {
        case "OBJECT", "INTERFACE", "UNION": " { __typename }"
        default: ""
        }
    }

    /// `value` as a GraphQL literal of `type` (enum values bare, strings with JSON's escapes,
    /// which GraphQL's string syntax shares).
    private func literal(_ value: GraphQLValue, _ type: TypeRef) -> String {
        switch (value, type) {
        case (_, .nonNull(let inner)): return literal(value, inner)
        case (.list(let items), .list(let item)): return "[" + items.map { literal($0, item) }.joined(separator: ", ") + "]"
        case (.object(let object), .named(let name, _)):
            let fields = Dictionary(uniqueKeysWithValues: (inputObjects[name] ?? []).map { ($0.name, $0.type) })
            return "{" + object.entries.map { "\($0): \(literal($1, fields[$0]!))" }.joined(separator: ", ") + "}"
        case (.string(let text), .named(_, kind: "ENUM")): return text
        default: return value.json
        }
    }
}
