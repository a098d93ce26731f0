/// Resolving and completing values (graphql-js's `executeFields`, `executeField` and
/// `completeValue`), synchronously: each completed value is appended to the execution's
/// response tape (`ResponseTape`). A resolver that cannot answer at once gives a `Deferred`,
/// whose position becomes a hole filled in by a later round (Rounds.swift).
///
/// JSON values (`GraphQLValue`) take their own path (`completeJSON`), with no boxing or casts:
/// a default resolver over a JSON parent costs a key comparison and the completion of the value.
extension ExecutionContext {
    func executeFields(_ plan: SelectionPlan, _ parent: Parent) throws {
        if case .json(let object) = parent { return try executeFields(plan, json: object) }
        tape.append(.object(plan.keys))
        for field in plan.fields {
            path.append(PathEntry(field: field))
            defer { path.removeLast() }
            try executeField(field, parent)
        }
    }

    /// `executeFields` over a JSON parent: the default resolver's fields are read and completed
    /// here, without going through the general `executeField`.
    private func executeFields(_ plan: SelectionPlan, json object: GraphQLObject) throws {
        tape.append(.object(plan.keys))
        let fields = plan.fields
        for index in fields.indices {
            // The plan holds its fields: borrowing one costs no reference counting.
            try Unmanaged.passUnretained(fields[index])._withUnsafeGuaranteedRef { field in
                try executeField(field, json: object)
            }
        }
    }

    @inline(__always)
    private func executeField(_ field: FieldPlan, json object: GraphQLObject) throws {
        path.append(PathEntry(field: field))
        defer { path.removeLast() }
        guard field.readsParent else { return try executeField(field, .json(object)) }
        let savedNullable = nullable
        if field.isNullable { nullable = nullablePosition() }
        defer { nullable = savedNullable }
        let start = tape.count
        do {
            let value = try field.read(object)
            let completion = field.completion
            if completion.passesThrough(value) { return tape.append(.value((consume value)!)) }
            try completeJSON(completion, value, field)
        } catch {
            try handleFieldError(error, nullable: field.isNullable, field, valueStart: start)
        }
    }

    func executeField(_ field: FieldPlan, _ parent: Parent) throws {
        let savedNullable = nullable
        if field.isNullable { nullable = nullablePosition() }
        defer { nullable = savedNullable }
        let start = tape.count
        do {
            switch field.resolver {
            case .read:
                switch parent {
                case .json(let object): try completeJSON(field.completion, try field.read(object), field)
                case .value(let source): try complete(field.completion, try readField(source, field), field)
                }
            case .typename:
                tape.append(.value(.string(field.parentType.name)))
            case .sync(let resolve):
                let arguments = try arguments(of: field)
                let info = ResolveInfo(field: field, execution: self, path: path.components)
                try complete(field.completion, try resolve(parent.boxed, arguments, contextValue, info), field)
            case .async(let resolve):
                let arguments = try arguments(of: field)
                let info = ResolveInfo(field: field, execution: self, path: path.components)
                let source = parent.boxed
                let context = contextValue
                let work = Deferred { try await resolve(source, arguments, context, info) }
                try complete(field.completion, work, field)
            }
        } catch {
            try handleFieldError(error, nullable: field.isNullable, field, valueStart: start)
        }
    }

    func arguments(of field: FieldPlan) throws -> GraphQLObject {
        switch field.arguments {
        case .constant(let arguments): return arguments
        case .failed(let error): throw error
        case .variable:
            return try getArgumentValues(
                field.definition.arguments, field.nodes[0], variables: variables.byName, source: source)
        }
    }

    /// The default resolver over a value that is not a JSON object.
    func readField(_ source: any Sendable, _ field: FieldPlan) throws -> (any Sendable)? {
        switch shape(of: source) {
        case .json:
            guard case .object(let object) = source as! GraphQLValue else { return nil }
            return try field.read(object)
        case .object: return try field.read(source as! GraphQLObject)
        case .readable: return (source as! any GraphQLFieldReadable).value(forField: field.fieldName)
        case .dictionary: return (source as! [String: any Sendable])[field.fieldName].flatMap(unwrapOptional)
        case .deferred, .other: return nil
        case .byValue: return try readFieldByValue(source, field)
        }
    }

    /// ``readField(_:_:)`` for a value whose type does not decide (``ValueShape/byValue``).
    private func readFieldByValue(_ source: any Sendable, _ field: FieldPlan) throws -> (any Sendable)? {
        switch source {
        case let value as GraphQLValue:
            guard case .object(let object) = value else { return nil }
            return try field.read(object)
        case let object as GraphQLObject: return try field.read(object)
        case let readable as any GraphQLFieldReadable: return readable.value(forField: field.fieldName)
        case let dictionary as [String: any Sendable]: return dictionary[field.fieldName].flatMap(unwrapOptional)
        default: return nil
        }
    }

    // MARK: - Completion of any value

    func complete(_ completion: Completion, _ value: (any Sendable)?, _ field: FieldPlan) throws {
        guard let value else { return try completeJSON(completion, nil, field) }
        let shape = shape(of: value)
        switch shape {
        case .json: return try completeJSON(completion, value as! GraphQLValue, field)
        case .deferred: return try wait(for: value as! Deferred, completion, field)
        case .byValue:
            if let json = value as? GraphQLValue { return try completeJSON(completion, json, field) }
            if let deferred = value as? Deferred { return try wait(for: deferred, completion, field) }
        case .object, .dictionary, .readable, .other:
            break
        }
        switch completion.kind {
        case .string, .id, .int, .float, .boolean, .scalar:
            let scalar = completion.scalar!
            try appendLeaf(try scalar.serialize(value), scalar.name, value)
        case .enumeration:
            let enumType = completion.enumType!
            try appendLeaf(try enumType.serialize(value), enumType.name, value)
        case .list:
            let item = completion.item!
            guard let items = listItems(value) else { throw iterableError(field) }
            try completeList(item, items.count, field) { try complete(item, items[$0], field) }
        case .object:
            let plan = completion.plan!
            if shape == .object { return try completeObject(plan, .json(value as! GraphQLObject), value, field) }
            if shape == .byValue, let object = value as? GraphQLObject { return try completeObject(plan, .json(object), value, field) }
            try completeObject(plan, .value(value), value, field)
        case .abstract:
            let abstract = completion.abstract!
            let plan = abstract.plan(for: try runtimeType(abstract, value, field))
            try completeObject(plan, Parent(value), value, field)
        }
    }

    /// The items of a list value: an array, or any other sequence but a string or dictionary
    /// (as graphql-js takes any iterable object); optionals inside are unwrapped.
    private func listItems(_ value: any Sendable) -> [(any Sendable)?]? {
        switch value {
        case is String, is [String: any Sendable]: return nil
        case let sequence as any Sequence:
            return sequence.map {
                let item = sendable($0)
                return shape(of: item) == .byValue ? unwrapOptional(item) : item
            }
        default: return nil
        }
    }

    // MARK: - Completion of JSON values

    func completeJSON(_ completion: Completion, _ value: consuming GraphQLValue?, _ field: FieldPlan) throws {
        guard let value, !value.isNull else {
            if completion.isNullable { return tape.append(.value(.null)) }
            throw nonNullError(field)
        }
        switch completion.kind {
        case .string, .id:
            if case .string = value { return tape.append(.value(value)) }
        case .int:
            if case .int(let int) = value, int >= graphQLMinInt && int <= graphQLMaxInt {
                return tape.append(.value(value))
            }
        case .float:
            if case .float(let double) = value, double.isFinite { return tape.append(.value(value)) }
        case .boolean:
            if case .bool = value { return tape.append(.value(value)) }
        case .scalar:
            break
        case .enumeration:
            if case .string(let name) = value, completion.enumNames.contains(name) { return tape.append(.value(value)) }
            let enumType = completion.enumType!
            return try appendLeaf(try enumType.serialize(value), enumType.name, value)
        case .list:
            guard case .list(let items) = value else { throw iterableError(field) }
            let item = completion.item!
            return try completeList(item, items.count, field) { try completeJSON(item, items[$0], field) }
        case .object:
            let plan = completion.plan!
            if plan.type.isTypeOf == nil, case .object(let object) = value {
                return try executeFields(plan, json: object)
            }
            return try completeObject(plan, Parent(json: value), value, field)
        case .abstract:
            let abstract = completion.abstract!
            let plan = abstract.plan(for: try runtimeType(abstract, value, field))
            return try completeObject(plan, Parent(json: value), value, field)
        }
        // A scalar's own coercion: custom scalars, and built-in ones given another kind of value.
        let scalar = completion.scalar!
        try appendLeaf(try scalar.serialize(value), scalar.name, value)
    }

    // MARK: - Lists, objects, leaves

    private func completeList(
        _ item: Completion, _ count: Int, _ field: FieldPlan, _ completeItem: (Int) throws -> Void
    ) throws {
        tape.append(.list(count))
        let itemIsNullable = item.isNullable
        let savedNullable = nullable
        defer { nullable = savedNullable }
        for index in 0..<count {
            path.append(PathEntry(index: index))
            defer { path.removeLast() }
            if itemIsNullable { nullable = nullablePosition() }
            let start = tape.count
            do {
                try completeItem(index)
            } catch {
                try handleFieldError(error, nullable: itemIsNullable, field, valueStart: start)
            }
        }
    }

    private func completeObject(
        _ plan: SelectionPlan, _ parent: Parent, _ value: @autoclosure () -> any Sendable, _ field: FieldPlan
    ) throws {
        if let isTypeOf = plan.type.isTypeOf, !isTypeOf(value()) {
            throw GraphQLError(message: "Expected value of type \"\(plan.type.name)\" but got: \(inspect(value())).")
                .at(field.nodes.map(\.loc), in: source)
        }
        try executeFields(plan, parent)
    }

    private func appendLeaf(_ serialized: GraphQLValue, _ typeName: String, _ value: any Sendable) throws {
        if case .null = serialized {
            throw GraphQLError(
                message: "Expected `\(typeName).serialize(\(inspect(value)))` to return non-nullable value, returned: null")
        }
        tape.append(.value(serialized))
    }

    func nonNullError(_ field: FieldPlan) -> GraphQLError {
        GraphQLError(message: "Cannot return null for non-nullable field \(field.parentType.name).\(field.fieldName).")
    }

    private func iterableError(_ field: FieldPlan) -> GraphQLError {
        GraphQLError(
            message: "Expected Iterable, but did not find one for field \"\(field.parentType.name).\(field.fieldName)\".")
    }

    // MARK: - Abstract types

    /// The object type of a value of an interface or union (graphql-js's `resolveType` or
    /// `defaultTypeResolver`, then `ensureValidRuntimeType`).
    private func runtimeType(_ abstract: AbstractPlan, _ value: any Sendable, _ field: FieldPlan) throws
        -> GraphQLObjectType
    {
        let abstractType = abstract.type
        let resolveType: TypeResolver? =
            switch abstractType {
            case .interface(let interface): interface.resolveType
            case .union(let union): union.resolveType
            default: nil
            }
        let name: String?
        if let resolveType {
            name = try resolveType(value, contextValue, ResolveInfo(field: field, execution: self, path: path.components))
        } else {
            name = defaultTypeName(value, abstractType)
        }
        let typeName = abstractType.name
        let nodes = field.nodes.map(\.loc)
        guard let name else {
            throw GraphQLError(
                message: "Abstract type \"\(typeName)\" must resolve to an Object type at runtime for field "
                    + "\"\(field.parentType.name).\(field.fieldName)\". Either the \"\(typeName)\" type should "
                    + "provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function."
            ).at(nodes, in: source)
        }
        guard let runtimeType = schema.type(named: name) else {
            throw GraphQLError(
                message: "Abstract type \"\(typeName)\" was resolved to a type \"\(name)\" that does not exist inside the schema."
            ).at(nodes, in: source)
        }
        guard case .object(let object) = runtimeType else {
            throw GraphQLError(message: "Abstract type \"\(typeName)\" was resolved to a non-object type \"\(name)\".")
                .at(nodes, in: source)
        }
        guard schema.isSubType(abstractType, runtimeType) else {
            throw GraphQLError(message: "Runtime Object type \"\(name)\" is not a possible type for \"\(typeName)\".")
                .at(nodes, in: source)
        }
        return object
    }

    /// graphql-js's `defaultTypeResolver`: the value's own `__typename` string, else the first
    /// possible type whose `isTypeOf` accepts it.
    private func defaultTypeName(_ value: any Sendable, _ abstractType: GraphQLNamedType) -> String? {
        let typename: (any Sendable)? =
            switch value {
            case let json as GraphQLValue: json["__typename"]
            case let object as GraphQLObject: object["__typename"]
            case let readable as any GraphQLFieldReadable: readable.value(forField: "__typename")
            case let dictionary as [String: any Sendable]: dictionary["__typename"]
            default: nil
            }
        switch typename {
        case let name as String: return name
        case let name as GraphQLValue: if case .string(let name) = name { return name }
        default: break
        }
        return schema.possibleTypes(of: abstractType).first { $0.isTypeOf?(value) == true }?.name
    }
}

/// A parent value the default resolver can read fields from, for Swift types that would rather
/// not give each field a resolver (e.g. a database row keyed by column name).
public protocol GraphQLFieldReadable: Sendable {
    /// The value of the field `name` (a `__typename` string names the concrete type of a value
    /// of an abstract type); nil for null.
    func value(forField name: String) -> (any Sendable)?
}
