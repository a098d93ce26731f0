/// Where a fuzzed value goes: one root field, and the path from one of its arguments down through
/// input object fields and list elements to the value replaced.
struct FuzzTarget {
    enum Step {
        case field(IntrospectedSchema.InputValue)
        case element
    }

    var operation: String
    var field: IntrospectedSchema.Field
    var argument: IntrospectedSchema.InputValue
    var path: [Step]
    /// The type of the value replaced.
    var type: IntrospectedSchema.TypeRef

    /// `createEntry(input.tagIds[])`.
    var label: String {
        var text = argument.name
        for step in path {
            switch step {
            case .field(let field): text += "." + field.name
            case .element: text += "[]"
            }
        }
        return "\(field.name)(\(text))"
    }

    /// Every place a value can go in `schema`'s root fields: each argument, and within it each
    /// input object field and list element, down to the scalars (an input type met again on
    /// its own path is not entered twice).
    static func all(in schema: IntrospectedSchema) -> [FuzzTarget] {
        var targets: [FuzzTarget] = []
        for (operation, field) in schema.rootFields {
            for argument in field.arguments {
                func walk(_ path: [Step], _ type: IntrospectedSchema.TypeRef, _ entered: Set<String>) {
                    targets.append(FuzzTarget(operation: operation, field: field, argument: argument, path: path, type: type))
                    switch type.nullable {
                    case .list(let element):
                        walk(path + [.element], element, entered)
                    case .named(let name):
                        guard let input = schema.types[name], input.kind == .inputObject, !entered.contains(name) else { return }
                        for inner in input.inputFields {
                            walk(path + [.field(inner)], inner.type, entered.union([name]))
                        }
                    case .nonNull:
                        break
                    }
                }
                walk([], argument.type, [])
            }
        }
        return targets
    }
}

/// What a valid value for an input is, so that the other arguments of a request let the fuzzed
/// one through: `name` is the argument's or input field's, `field` the root field's. A required
/// input always gets one; an optional one nil when it is better left out.
typealias FuzzPlausible = (_ name: String, _ type: IntrospectedSchema.TypeRef, _ field: String, _ required: Bool) async throws -> FuzzValue?

/// Writes a request's JSON body by hand, byte by byte.
enum FuzzRequest {
    /// A call of `target`'s field with `value` in place, and valid values for the other arguments
    /// and input fields; as variables (`$a0`, ...) or as literals in the document.
    static func body(
        _ target: FuzzTarget, value: FuzzValue, asVariables: Bool, schema: IntrospectedSchema, plausible: FuzzPlausible
    ) async throws -> [UInt8] {
        var arguments: [(IntrospectedSchema.InputValue, FuzzValue)] = []
        for argument in target.field.arguments {
            if argument.name == target.argument.name {
                let placed = try await place(value, along: target.path[...], in: argument.type, field: target.field.name, schema, plausible)
                arguments.append((argument, placed))
            } else if let other = try await plausible(argument.name, argument.type, target.field.name, argument.isRequired) {
                arguments.append((argument, other))
            }
        }
        return call(target.operation, target.field, arguments, asVariables: asVariables, schema: schema)
    }

    /// A call of `field` with valid values for its arguments, as variables.
    static func valid(_ operation: String, _ field: IntrospectedSchema.Field, schema: IntrospectedSchema, plausible: FuzzPlausible) async throws -> [UInt8] {
        var arguments: [(IntrospectedSchema.InputValue, FuzzValue)] = []
        for argument in field.arguments {
            if let value = try await plausible(argument.name, argument.type, field.name, argument.isRequired) {
                arguments.append((argument, value))
            }
        }
        return call(operation, field, arguments, asVariables: true, schema: schema)
    }

    /// A call of `field` with `arguments`, as variables or as literals.
    private static func call(
        _ operation: String, _ field: IntrospectedSchema.Field, _ arguments: [(IntrospectedSchema.InputValue, FuzzValue)], asVariables: Bool,
        schema: IntrospectedSchema
    ) -> [UInt8] {
        var document = Array(operation.utf8) + Array(" Fuzz".utf8)
        var variables: [(String, FuzzValue)] = []
        var passed: [[UInt8]] = []
        for (index, (argument, value)) in arguments.enumerated() {
            if asVariables {
                variables.append(("a\(index)", value))
                passed.append(Array("\(argument.name): $a\(index)".utf8))
            } else {
                passed.append(Array("\(argument.name): ".utf8) + value.literal)
            }
        }
        if asVariables && !arguments.isEmpty {
            document += Array("(".utf8)
            document += Array(arguments.enumerated().map { "$a\($0.offset): \($0.element.0.type.sdl)" }.joined(separator: ", ").utf8)
            document += Array(")".utf8)
        }
        document += Array(" { \(field.name)".utf8)
        if !passed.isEmpty { document += Array("(".utf8) + passed.joined(separator: Array(", ".utf8)) + Array(")".utf8) }
        document += Array(" \(schema.selection(for: field.type)) }".utf8)
        return json(document: document, variables: FuzzValue.object(variables).json)
    }

    /// `{"query": document, "variables": variables}`.
    private static func json(document: [UInt8], variables: [UInt8]) -> [UInt8] {
        Array(#"{"query":""#.utf8) + FuzzValue.escapeString(document) + Array(#"","variables":"#.utf8) + variables + Array("}".utf8)
    }

    /// `value` at `path` below a value of `type`: the input objects on the way with valid values
    /// for their other fields (those `plausible` gives), the lists on the way holding the one
    /// element.
    private static func place(
        _ value: FuzzValue, along path: ArraySlice<FuzzTarget.Step>, in type: IntrospectedSchema.TypeRef, field: String,
        _ schema: IntrospectedSchema, _ plausible: FuzzPlausible
    ) async throws -> FuzzValue {
        guard let step = path.first else { return value }
        switch (step, type.nullable) {
        case (.element, .list(let element)):
            return .list([try await place(value, along: path.dropFirst(), in: element, field: field, schema, plausible)])
        case (.field(let inner), .named(let name)):
            var entries: [(String, FuzzValue)] = []
            for other in schema.types[name]?.inputFields ?? [] {
                if other.name == inner.name {
                    let placed = try await place(value, along: path.dropFirst(), in: other.type, field: field, schema, plausible)
                    entries.append((other.name, placed))
                } else if let valid = try await plausible(other.name, other.type, field, other.isRequired) {
                    entries.append((other.name, valid))
                }
            }
            return .object(entries)
        default:
            preconditionFailure("a path that does not follow its type")
        }
    }
}
