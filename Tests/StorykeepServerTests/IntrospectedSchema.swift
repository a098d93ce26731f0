import GraphQL
import Testing

/// A tenant's schema as introspection tells it, from which the fuzz pass and the input tests
/// (`IntrospectedSchema+Inputs.swift`) generate their requests: every root field, every argument,
/// every input object field, so that a field added later is tried without a change here.
struct IntrospectedSchema {
    /// A type as an argument or field declares it: `[ID!]!`.
    indirect enum TypeRef: Equatable {
        case named(String)
        case list(TypeRef)
        case nonNull(TypeRef)

        /// As SDL writes it, for a variable's declaration.
        var sdl: String {
            switch self {
            case .named(let name): name
            case .list(let of): "[\(of.sdl)]"
            case .nonNull(let of): of.sdl + "!"
            }
        }

        /// The named type under the lists and non-nulls.
        var named: String {
            switch self {
            case .named(let name): name
            case .list(let of), .nonNull(let of): of.named
            }
        }

        var isNonNull: Bool { if case .nonNull = self { true } else { false } }

        /// The type without its outer non-null.
        var nullable: TypeRef { if case .nonNull(let of) = self { of } else { self } }
    }

    /// An argument or an input object's field.
    struct InputValue {
        var name: String
        var type: TypeRef
        var hasDefault: Bool

        /// Whether a request must give it: non-null, without a default.
        var isRequired: Bool { type.isNonNull && !hasDefault }
    }

    struct Field {
        var name: String
        var arguments: [InputValue]
        var type: TypeRef
    }

    enum Kind: String {
        case scalar = "SCALAR", object = "OBJECT", interface = "INTERFACE", union = "UNION"
        case enumeration = "ENUM", inputObject = "INPUT_OBJECT"
    }

    struct NamedType {
        var name: String
        var kind: Kind
        var fields: [Field]
        var inputFields: [InputValue]
        var enumValues: [String]
    }

    var types: [String: NamedType]
    var queryType: String
    var mutationType: String?

    /// What introspection is asked for: names, kinds, fields with their arguments, input fields
    /// and enum values, with types four wrappers deep (`[[X!]!]!` at most).
    static let introspectionQuery = """
        { __schema { queryType { name } mutationType { name }
            types { name kind enumValues { name }
              fields { name args { name defaultValue type { ...T } } type { ...T } }
              inputFields { name defaultValue type { ...T } } } } }
        fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }
        """

    init(introspection response: GraphQLValue) throws {
        let schema = try #require(response["data"]?["__schema"], "introspection failed: \(response.json)")
        queryType = try #require(schema["queryType"]?["name"]?.stringValue)
        mutationType = schema["mutationType"]?["name"]?.stringValue
        var types: [String: NamedType] = [:]
        for type in schema["types"]?.listValue ?? [] {
            let name = try #require(type["name"]?.stringValue)
            let kind = try #require(type["kind"]?.stringValue.flatMap(Kind.init(rawValue:)), "kind of \(name)")
            types[name] = NamedType(
                name: name, kind: kind,
                fields: try (type["fields"]?.listValue ?? []).map { field in
                    Field(
                        name: try #require(field["name"]?.stringValue),
                        arguments: try (field["args"]?.listValue ?? []).map(Self.inputValue),
                        type: try Self.typeRef(try #require(field["type"])))
                },
                inputFields: try (type["inputFields"]?.listValue ?? []).map(Self.inputValue),
                enumValues: (type["enumValues"]?.listValue ?? []).compactMap { $0["name"]?.stringValue })
        }
        self.types = types
    }

    private static func inputValue(_ json: GraphQLValue) throws -> InputValue {
        InputValue(
            name: try #require(json["name"]?.stringValue), type: try typeRef(try #require(json["type"])),
            hasDefault: !(json["defaultValue"]?.isNull ?? true))
    }

    private static func typeRef(_ json: GraphQLValue) throws -> TypeRef {
        switch json["kind"]?.stringValue {
        case "NON_NULL": .nonNull(try typeRef(try #require(json["ofType"])))
        case "LIST": .list(try typeRef(try #require(json["ofType"])))
        default: .named(try #require(json["name"]?.stringValue))
        }
    }

    /// The root fields to fuzz, queries then mutations, each with its operation keyword.
    var rootFields: [(operation: String, field: Field)] {
        let queries = (types[queryType]?.fields ?? []).filter { !$0.name.hasPrefix("__") }.map { ("query", $0) }
        let mutations = mutationType.flatMap { types[$0]?.fields }?.map { ("mutation", $0) } ?? []
        return queries + mutations
    }

    /// A selection set for a value of `type`: its scalar and enum fields without required
    /// arguments, two object levels down, so that the fields' own resolvers run too; empty for
    /// a scalar or an enum.
    func selection(for type: TypeRef, depth: Int = 2) -> String {
        guard let named = types[type.named], [.object, .interface, .union].contains(named.kind) else { return "" }
        var parts = ["__typename"]
        for field in named.fields where !field.arguments.contains(where: \.isRequired) {
            guard let kind = types[field.type.named]?.kind else { continue }
            switch kind {
            case .scalar, .enumeration: parts.append(field.name)
            case .object, .interface, .union: if depth > 0 { parts.append(field.name + " " + selection(for: field.type, depth: depth - 1)) }
            case .inputObject: break
            }
        }
        return "{ " + parts.joined(separator: " ") + " }"
    }
}
