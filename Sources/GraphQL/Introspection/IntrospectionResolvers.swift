/// The resolvers of the introspection types: each reads the schema's own definitions,
/// synchronously. The values passed between them are the definitions themselves:
/// `GraphQLSchema` for `__Schema`, `GraphQLType` for `__Type`, `GraphQLField` for `__Field`,
/// `GraphQLArgument` for `__InputValue`, `GraphQLEnumValue` for `__EnumValue` and
/// `GraphQLDirective` for `__Directive`.

func attachIntrospectionResolvers() {
    resolve(schemaObjectType, [
        "description": { schema, _ in (schema as! GraphQLSchema).description },
        "types": { schema, _ in (schema as! GraphQLSchema).typeMap.map { GraphQLType.named($0) } },
        "queryType": { schema, _ in (schema as! GraphQLSchema).queryType.map { GraphQLType.named(.object($0)) } },
        "mutationType": { schema, _ in (schema as! GraphQLSchema).mutationType.map { GraphQLType.named(.object($0)) } },
        "subscriptionType": { schema, _ in
            (schema as! GraphQLSchema).subscriptionType.map { GraphQLType.named(.object($0)) }
        },
        "directives": { schema, arguments in
            (schema as! GraphQLSchema).directives.filter { includes(arguments, $0.deprecationReason) }
        },
    ])
    resolve(typeObjectType, [
        "kind": { type, _ in (type as! GraphQLType).kind.rawValue },
        "name": { type, _ in
            if case .named(let named) = type as! GraphQLType { named.name } else { nil }
        },
        "description": { type, _ in
            if case .named(let named) = type as! GraphQLType { named.description } else { nil }
        },
        "specifiedByURL": { type, _ in
            if case .named(.scalar(let scalar)) = type as! GraphQLType { scalar.specifiedByURL } else { nil }
        },
        "fields": { type, arguments in
            guard case .named(let named) = type as! GraphQLType, let fields = named.fields else { return nil }
            return fields.filter { includes(arguments, $0.deprecationReason) }
        },
        "interfaces": { type, _ in
            switch type as! GraphQLType {
            case .named(.object(let object)): object.interfaces.map { GraphQLType.named(.interface($0)) }
            case .named(.interface(let interface)): interface.interfaces.map { GraphQLType.named(.interface($0)) }
            default: nil
            }
        },
        "enumValues": { type, arguments in
            guard case .named(.enum(let enumType)) = type as! GraphQLType else { return nil }
            return enumType.values.filter { includes(arguments, $0.deprecationReason) }
        },
        "inputFields": { type, arguments in
            guard case .named(.inputObject(let input)) = type as! GraphQLType else { return nil }
            return input.fields.filter { includes(arguments, $0.deprecationReason) }
        },
        "ofType": { type, _ in
            switch type as! GraphQLType {
            case .list(let inner), .nonNull(let inner): inner
            case .named: nil
            }
        },
        "isOneOf": { type, _ in
            if case .named(.inputObject(let input)) = type as! GraphQLType { input.isOneOf } else { nil }
        },
    ])
    // possibleTypes needs the schema: from the resolve info.
    typeObjectType.fields["possibleTypes"]!.resolve = .sync { type, _, _, info in
        guard case .named(let named) = type as! GraphQLType, named.isAbstract else { return nil }
        return info.schema.possibleTypes(of: named).map { GraphQLType.named(.object($0)) }
    }
    resolve(fieldObjectType, [
        "name": { field, _ in (field as! GraphQLField).name },
        "description": { field, _ in (field as! GraphQLField).description },
        "args": { field, arguments in
            (field as! GraphQLField).arguments.filter { includes(arguments, $0.deprecationReason) }
        },
        "type": { field, _ in (field as! GraphQLField).type },
        "isDeprecated": { field, _ in (field as! GraphQLField).deprecationReason != nil },
        "deprecationReason": { field, _ in (field as! GraphQLField).deprecationReason },
    ])
    resolve(inputValueObjectType, [
        "name": { value, _ in (value as! GraphQLArgument).name },
        "description": { value, _ in (value as! GraphQLArgument).description },
        "type": { value, _ in (value as! GraphQLArgument).type },
        "defaultValue": { value, _ in (value as! GraphQLArgument).defaultValueLiteral.map(print) },
        "isDeprecated": { value, _ in (value as! GraphQLArgument).deprecationReason != nil },
        "deprecationReason": { value, _ in (value as! GraphQLArgument).deprecationReason },
    ])
    resolve(enumValueObjectType, [
        "name": { value, _ in (value as! GraphQLEnumValue).name },
        "description": { value, _ in (value as! GraphQLEnumValue).description },
        "isDeprecated": { value, _ in (value as! GraphQLEnumValue).deprecationReason != nil },
        "deprecationReason": { value, _ in (value as! GraphQLEnumValue).deprecationReason },
    ])
    resolve(directiveObjectType, [
        "name": { directive, _ in (directive as! GraphQLDirective).name },
        "description": { directive, _ in (directive as! GraphQLDirective).description },
        "isRepeatable": { directive, _ in (directive as! GraphQLDirective).isRepeatable },
        "locations": { directive, _ in (directive as! GraphQLDirective).locations.map(\.rawValue) },
        "args": { directive, arguments in
            (directive as! GraphQLDirective).arguments.filter { includes(arguments, $0.deprecationReason) }
        },
        "isDeprecated": { directive, _ in (directive as! GraphQLDirective).deprecationReason != nil },
        "deprecationReason": { directive, _ in (directive as! GraphQLDirective).deprecationReason },
    ])
}

private func resolve(
    _ type: GraphQLObjectType,
    _ resolvers: [String: @Sendable (_ source: any Sendable, _ arguments: GraphQLObject) -> (any Sendable)?]
) {
    for (name, body) in resolvers {
        type.fields[name]!.resolve = .sync { source, arguments, _, _ in body(source, arguments) }
    }
}

/// Whether an element with this deprecation shows, given the `includeDeprecated` argument.
private func includes(_ arguments: GraphQLObject, _ deprecationReason: String?) -> Bool {
    deprecationReason == nil || arguments["includeDeprecated"] == .bool(true)
}

extension GraphQLType {
    /// What `__Type.kind` says of this type.
    public var kind: TypeKind {
        switch self {
        case .list: .list
        case .nonNull: .nonNull
        case .named(.scalar): .scalar
        case .named(.object): .object
        case .named(.interface): .interface
        case .named(.union): .union
        case .named(.enum): .enum
        case .named(.inputObject): .inputObject
        }
    }
}
