/// Prints an AST in the canonical form of graphql-core 3.3's `print_ast` (graphql-js 17's
/// `print`): two-space indentation, one selection or field per line, and argument lists, lists
/// and objects wrapped onto several lines when they would pass 80 characters.
/// `print(parse(print(x))) == print(x)` for any document `x`.
public func print(_ document: Document) -> String {
    Printer.document(document)
}

/// Prints a value literal, e.g. `{ a: [1, 2] }`.
public func print(_ value: Value) -> String {
    Printer.value(value)
}

/// Prints a type reference, e.g. `[String!]!`.
public func print(_ type: TypeReference) -> String {
    Printer.type(type)
}

/// The printing rules, one function per node kind, built from graphql-js's `join`, `wrap`,
/// `block` and `indent`. Widths are counted in code points, as graphql-core counts them (graphql-js
/// counts UTF-16 code units: the two differ only for characters outside the Basic Multilingual Plane).
enum Printer {
    static let maxLineLength = 80

    // MARK: - Document and executable definitions

    /// One exception to graphql-core's form: a query in the `{ … }` short form right after a
    /// definition that ends without a body of its own (`enum E`, `type T @d`, `extend schema @d`)
    /// keeps its `query` keyword, which graphql-core drops; without it the printed text would
    /// give that definition the query's selections as its body (`enum E { a }`), or not parse.
    static func document(_ node: Document) -> String {
        join(
            node.definitions.indices.map { index in
                let printed = definition(node.definitions[index])
                guard index > 0, endsWhereABodyCouldFollow(node.definitions[index - 1]), printed.hasPrefix("{") else { return printed }
                return "query " + printed
            }, "\n\n")
    }

    /// Whether a `{` after `node` would be read as `node`'s own body: an object, interface, input
    /// or enum type (or its extension) without fields or values, a schema extension without
    /// operation types.
    static func endsWhereABodyCouldFollow(_ node: Definition) -> Bool {
        let type: TypeDefinition
        switch node {
        case .type(let definition): type = definition
        case .typeExtension(let extension_): type = extension_.definition
        case .schemaExtension(let schema): return schema.operationTypes.isEmpty
        case .operation, .fragment, .schema, .directive: return false
        }
        switch type {
        case .object(let object): return object.fields.isEmpty
        case .interface(let interface): return interface.fields.isEmpty
        case .enum(let enumeration): return enumeration.values.isEmpty
        case .inputObject(let input): return input.fields.isEmpty
        case .scalar, .union: return false
        }
    }

    static func definition(_ node: Definition) -> String {
        switch node {
        case .operation(let operation): operationDefinition(operation)
        case .fragment(let fragment): fragmentDefinition(fragment)
        case .schema(let schema): schemaDefinition(schema)
        case .type(let type): typeDefinition(type, extending: false)
        case .directive(let directive): directiveDefinition(directive)
        case .schemaExtension(let schema):
            join(["extend schema", directives(schema.directives), block(schema.operationTypes.map(operationType))], " ")
        case .typeExtension(let type): typeDefinition(type.definition, extending: true)
        }
    }

    static func operationDefinition(_ node: OperationDefinition) -> String {
        let variables = node.variableDefinitions.map(variableDefinition)
        let variableList =
            hasMultilineItems(variables)
            ? wrap("(\n", join(variables, "\n"), "\n)") : wrap("(", join(variables, ", "), ")")
        let operation = node.operation.rawValue
        let prefix = join([
            description(node.description),
            join([operation, join([node.name?.value ?? "", variableList]), directives(node.directives)], " "),
        ])
        // An anonymous query without variables or directives takes the `{ … }` short form.
        let head = node.operation == .query && prefix == operation ? "" : prefix + " "
        return head + selectionSet(node.selectionSet)
    }

    static func variableDefinition(_ node: VariableDefinition) -> String {
        description(node.description) + "$" + node.variable.name.value + ": " + type(node.type)
            + wrap(" = ", node.defaultValue.map(value) ?? "") + wrap(" ", directives(node.directives))
    }

    static func selectionSet(_ node: SelectionSet) -> String {
        node.selections.isEmpty ? "{}" : block(node.selections.map(selection))
    }

    static func selection(_ node: Selection) -> String {
        switch node {
        case .field(let field):
            let prefix = wrap("", field.alias?.value ?? "", ": ") + field.name.value
            return wrappedLineAndArguments(prefix, field.arguments.map(argument))
                + wrap(" ", directives(field.directives)) + wrap(" ", field.selectionSet.map(selectionSet) ?? "")
        case .fragmentSpread(let spread):
            return "..." + spread.name.value + wrap(" ", directives(spread.directives))
        case .inlineFragment(let fragment):
            return join(
                [
                    "...", wrap("on ", fragment.typeCondition?.name.value ?? ""), directives(fragment.directives),
                    selectionSet(fragment.selectionSet),
                ], " ")
        }
    }

    static func fragmentDefinition(_ node: FragmentDefinition) -> String {
        description(node.description) + "fragment " + node.name.value + " on " + node.typeCondition.name.value + " "
            + wrap("", directives(node.directives), " ") + selectionSet(node.selectionSet)
    }

    static func argument(_ node: Argument) -> String {
        node.name.value + ": " + value(node.value)
    }

    /// `prefix(arguments)`, with one argument per line when they would not fit on one.
    static func wrappedLineAndArguments(_ prefix: String, _ arguments: [String]) -> String {
        if arguments.isEmpty { return prefix }
        if prefix.unicodeScalars.count + join(arguments, ", ").unicodeScalars.count + 2 > maxLineLength {
            return prefix + wrap("(\n", indent(join(arguments, "\n")), "\n)")
        }
        return prefix + wrap("(", join(arguments, ", "), ")")
    }

    static func directives(_ nodes: [Directive]) -> String {
        join(nodes.map(directive), " ")
    }

    static func directive(_ node: Directive) -> String {
        "@" + node.name.value + wrap("(", join(node.arguments.map(argument), ", "), ")")
    }

    // MARK: - Values and types

    static func value(_ node: Value) -> String {
        switch node {
        case .variable(let variable): "$" + variable.name.value
        case .int(let int): int.value
        case .float(let float): float.value
        case .string(let string): stringValue(string)
        case .boolean(let boolean): boolean.value ? "true" : "false"
        case .null: "null"
        case .enum(let value): value.value
        case .list(let list): listValue(list)
        case .object(let object): objectValue(object)
        }
    }

    static func listValue(_ node: ListValue) -> String {
        let values = node.values.map(value)
        if 2 + join(values, ", ").unicodeScalars.count > maxLineLength {
            return wrap("[\n", indent(join(values, "\n")), "\n]")
        }
        return "[" + join(values, ", ") + "]"
    }

    static func objectValue(_ node: ObjectValue) -> String {
        let fields = node.fields.map { field in field.name.value + ": " + value(field.value) }
        if 4 + join(fields, ", ").unicodeScalars.count > maxLineLength {
            return block(fields)
        }
        return "{ " + join(fields, ", ") + " }"
    }

    static func stringValue(_ node: StringValue) -> String {
        node.block ? BlockString.print(node.value) : printString(node.value)
    }

    static func type(_ node: TypeReference) -> String {
        switch node {
        case .named(let named): named.name.value
        case .list(let list): "[" + type(list.type) + "]"
        case .nonNull(let nonNull): type(nonNull.type) + "!"
        }
    }

    // MARK: - Type system

    static func description(_ node: StringValue?) -> String {
        wrap("", node.map(stringValue) ?? "", "\n")
    }

    static func schemaDefinition(_ node: SchemaDefinition) -> String {
        description(node.description)
            + join(["schema", directives(node.directives), block(node.operationTypes.map(operationType))], " ")
    }

    static func operationType(_ node: OperationTypeDefinition) -> String {
        node.operation.rawValue + ": " + node.type.name.value
    }

    /// A type definition, or with `extending` its extension (`extend type …`, no description).
    static func typeDefinition(_ node: TypeDefinition, extending: Bool) -> String {
        let keyword: String
        let head: String
        let parts: [String]
        switch node {
        case .scalar(let scalar):
            keyword = "scalar"
            head = description(scalar.description)
            parts = [scalar.name.value, directives(scalar.directives)]
        case .object(let object):
            keyword = "type"
            head = description(object.description)
            parts = [
                object.name.value, implements(object.interfaces), directives(object.directives),
                block(object.fields.map(fieldDefinition)),
            ]
        case .interface(let interface):
            keyword = "interface"
            head = description(interface.description)
            parts = [
                interface.name.value, implements(interface.interfaces), directives(interface.directives),
                block(interface.fields.map(fieldDefinition)),
            ]
        case .union(let union):
            keyword = "union"
            head = description(union.description)
            parts = [
                union.name.value, directives(union.directives),
                wrap("= ", join(union.types.map(\.name.value), " | ")),
            ]
        case .enum(let enumType):
            keyword = "enum"
            head = description(enumType.description)
            parts = [enumType.name.value, directives(enumType.directives), block(enumType.values.map(enumValue))]
        case .inputObject(let input):
            keyword = "input"
            head = description(input.description)
            parts = [input.name.value, directives(input.directives), block(input.fields.map(inputValue))]
        }
        return extending ? join(["extend " + keyword] + parts, " ") : head + join([keyword] + parts, " ")
    }

    static func implements(_ interfaces: [NamedType]) -> String {
        wrap("implements ", join(interfaces.map(\.name.value), " & "))
    }

    static func fieldDefinition(_ node: FieldDefinition) -> String {
        description(node.description) + node.name.value + argumentDefinitions(node.arguments) + ": "
            + type(node.type) + wrap(" ", directives(node.directives))
    }

    static func inputValue(_ node: InputValueDefinition) -> String {
        description(node.description) + node.name.value + ": " + type(node.type)
            + wrap(" = ", node.defaultValue.map(value) ?? "") + wrap(" ", directives(node.directives))
    }

    /// `(a: A, b: B)`, or one per line when any of them takes several lines.
    static func argumentDefinitions(_ nodes: [InputValueDefinition]) -> String {
        let arguments = nodes.map(inputValue)
        return hasMultilineItems(arguments)
            ? wrap("(\n", indent(join(arguments, "\n")), "\n)") : wrap("(", join(arguments, ", "), ")")
    }

    static func enumValue(_ node: EnumValueDefinition) -> String {
        description(node.description) + join([node.name.value, directives(node.directives)], " ")
    }

    static func directiveDefinition(_ node: DirectiveDefinition) -> String {
        description(node.description) + "directive @" + node.name.value + argumentDefinitions(node.arguments)
            + wrap(" ", directives(node.directives)) + (node.repeatable ? " repeatable" : "") + " on "
            + join(node.locations.map(\.value), " | ")
    }

    // MARK: - Helpers

    /// The non-empty items, separated by `separator`.
    static func join(_ items: [String], _ separator: String = "") -> String {
        var result = ""
        for item in items where !item.isEmpty {
            if !result.isEmpty { result += separator }
            result += item
        }
        return result
    }

    /// `start + text + end`, or nothing when `text` is empty.
    static func wrap(_ start: String, _ text: String, _ end: String = "") -> String {
        text.isEmpty ? "" : start + text + end
    }

    /// Each item on its own line inside an indented `{ }` block; nothing when there are none.
    static func block(_ items: [String]) -> String {
        wrap("{\n", indent(join(items, "\n")), "\n}")
    }

    /// Two spaces before every line (line feeds only, as graphql-js).
    static func indent(_ text: String) -> String {
        if text.isEmpty { return text }
        var bytes: [UInt8] = [0x20, 0x20]
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == 0x0A { bytes.append(contentsOf: [0x20, 0x20]) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hasMultilineItems(_ items: [String]) -> Bool {
        items.contains { $0.utf8.contains(0x0A) }
    }

    /// A string literal: `"` and `\` escaped, control characters as graphql-js's `printString`
    /// escapes them.
    static func printString(_ value: String) -> String {
        var bytes: [UInt8] = [0x22]
        bytes.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x22: bytes.append(contentsOf: #"\""#.utf8)
            case 0x5C: bytes.append(contentsOf: #"\\"#.utf8)
            case 0x00...0x1F, 0x7F...0x9F:
                bytes.append(contentsOf: Lexer.unicodeNotation(scalar.value).replacing("U+", with: "\\u").utf8)
            default: bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }
}
