/// The grammar of the type system language: definitions and extensions.
extension Parser {
    func peekDescription() -> Bool { peek(.string) || peek(.blockString) }

    /// Description : StringValue
    mutating func parseDescription() throws(GraphQLError) -> StringValue? {
        peekDescription() ? try parseStringLiteral() : nil
    }

    /// SchemaDefinition : Description? schema Directives[Const]? { OperationTypeDefinition+ }
    mutating func parseSchemaDefinition() throws(GraphQLError) -> SchemaDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("schema")
        let directives = try parseDirectives(isConst: true)
        let operationTypes = try many(.braceL, .braceR) { parser throws(GraphQLError) in
            try parser.parseOperationTypeDefinition()
        }
        return SchemaDefinition(
            description: description, directives: directives, operationTypes: operationTypes, loc: loc(start))
    }

    /// OperationTypeDefinition : OperationType : NamedType
    mutating func parseOperationTypeDefinition() throws(GraphQLError) -> OperationTypeDefinition {
        let start = token
        let operation = try parseOperationType()
        try expect(.colon)
        let type = try parseNamedType()
        return OperationTypeDefinition(operation: operation, type: type, loc: loc(start))
    }

    /// ScalarTypeDefinition : Description? scalar Name Directives[Const]?
    mutating func parseScalarTypeDefinition() throws(GraphQLError) -> ScalarTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("scalar")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        return ScalarTypeDefinition(description: description, name: name, directives: directives, loc: loc(start))
    }

    /// ObjectTypeDefinition : Description? type Name ImplementsInterfaces? Directives[Const]?
    /// FieldsDefinition?
    mutating func parseObjectTypeDefinition() throws(GraphQLError) -> ObjectTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("type")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        return ObjectTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            loc: loc(start))
    }

    /// ImplementsInterfaces : implements `&`? NamedType (`&` NamedType)*
    mutating func parseImplementsInterfaces() throws(GraphQLError) -> [NamedType] {
        guard try expectOptionalKeyword("implements") else { return [] }
        return try delimitedMany(.amp) { parser throws(GraphQLError) in try parser.parseNamedType() }
    }

    /// FieldsDefinition : { FieldDefinition+ }
    mutating func parseFieldsDefinition() throws(GraphQLError) -> [FieldDefinition] {
        try optionalMany(.braceL, .braceR) { parser throws(GraphQLError) in try parser.parseFieldDefinition() }
    }

    /// FieldDefinition : Description? Name ArgumentsDefinition? : Type Directives[Const]?
    mutating func parseFieldDefinition() throws(GraphQLError) -> FieldDefinition {
        let start = token
        let description = try parseDescription()
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        try expect(.colon)
        let type = try parseTypeReference()
        let directives = try parseDirectives(isConst: true)
        return FieldDefinition(
            description: description, name: name, arguments: arguments, type: type, directives: directives,
            loc: loc(start))
    }

    /// ArgumentsDefinition : ( InputValueDefinition+ )
    mutating func parseArgumentDefinitions() throws(GraphQLError) -> [InputValueDefinition] {
        try optionalMany(.parenL, .parenR) { parser throws(GraphQLError) in try parser.parseInputValueDefinition() }
    }

    /// InputValueDefinition : Description? Name : Type DefaultValue? Directives[Const]?
    mutating func parseInputValueDefinition() throws(GraphQLError) -> InputValueDefinition {
        let start = token
        let description = try parseDescription()
        let name = try parseName()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValueLiteral(isConst: true) : nil
        let directives = try parseDirectives(isConst: true)
        return InputValueDefinition(
            description: description, name: name, type: type, defaultValue: defaultValue, directives: directives,
            loc: loc(start))
    }

    /// InterfaceTypeDefinition : Description? interface Name ImplementsInterfaces?
    /// Directives[Const]? FieldsDefinition?
    mutating func parseInterfaceTypeDefinition() throws(GraphQLError) -> InterfaceTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("interface")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        return InterfaceTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            loc: loc(start))
    }

    /// UnionTypeDefinition : Description? union Name Directives[Const]? UnionMemberTypes?
    mutating func parseUnionTypeDefinition() throws(GraphQLError) -> UnionTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("union")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let types = try parseUnionMemberTypes()
        return UnionTypeDefinition(
            description: description, name: name, directives: directives, types: types, loc: loc(start))
    }

    /// UnionMemberTypes : = `|`? NamedType (`|` NamedType)*
    mutating func parseUnionMemberTypes() throws(GraphQLError) -> [NamedType] {
        guard try expectOptional(.equals) else { return [] }
        return try delimitedMany(.pipe) { parser throws(GraphQLError) in try parser.parseNamedType() }
    }

    /// EnumTypeDefinition : Description? enum Name Directives[Const]? EnumValuesDefinition?
    mutating func parseEnumTypeDefinition() throws(GraphQLError) -> EnumTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("enum")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let values = try parseEnumValuesDefinition()
        return EnumTypeDefinition(
            description: description, name: name, directives: directives, values: values, loc: loc(start))
    }

    /// EnumValuesDefinition : { EnumValueDefinition+ }
    mutating func parseEnumValuesDefinition() throws(GraphQLError) -> [EnumValueDefinition] {
        try optionalMany(.braceL, .braceR) { parser throws(GraphQLError) in try parser.parseEnumValueDefinition() }
    }

    /// EnumValueDefinition : Description? EnumValue Directives[Const]?
    mutating func parseEnumValueDefinition() throws(GraphQLError) -> EnumValueDefinition {
        let start = token
        let description = try parseDescription()
        let name = try parseEnumValueName()
        let directives = try parseDirectives(isConst: true)
        return EnumValueDefinition(description: description, name: name, directives: directives, loc: loc(start))
    }

    /// EnumValue : Name but not `true`, `false` or `null`.
    mutating func parseEnumValueName() throws(GraphQLError) -> Name {
        if let value = value(of: token), value == "true" || value == "false" || value == "null" {
            throw lexer.syntaxError(
                "\(lexer.describe(token)) is reserved and cannot be used for an enum value.", at: token.start)
        }
        return try parseName()
    }

    /// InputObjectTypeDefinition : Description? input Name Directives[Const]? InputFieldsDefinition?
    mutating func parseInputObjectTypeDefinition() throws(GraphQLError) -> InputObjectTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("input")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseInputFieldsDefinition()
        return InputObjectTypeDefinition(
            description: description, name: name, directives: directives, fields: fields, loc: loc(start))
    }

    /// InputFieldsDefinition : { InputValueDefinition+ }
    mutating func parseInputFieldsDefinition() throws(GraphQLError) -> [InputValueDefinition] {
        try optionalMany(.braceL, .braceR) { parser throws(GraphQLError) in try parser.parseInputValueDefinition() }
    }

    /// DirectiveDefinition : Description? directive @ Name ArgumentsDefinition? Directives[Const]?
    /// `repeatable`? on DirectiveLocations
    mutating func parseDirectiveDefinition() throws(GraphQLError) -> DirectiveDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("directive")
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        let directives = try parseDirectives(isConst: true)
        let repeatable = try expectOptionalKeyword("repeatable")
        try expectKeyword("on")
        let locations = try delimitedMany(.pipe) { parser throws(GraphQLError) in try parser.parseDirectiveLocation() }
        return DirectiveDefinition(
            description: description, name: name, arguments: arguments, directives: directives,
            repeatable: repeatable, locations: locations, loc: loc(start))
    }

    /// DirectiveLocation : one of the names graphql-core's `DirectiveLocation` knows.
    mutating func parseDirectiveLocation() throws(GraphQLError) -> Name {
        let start = token
        let name = try parseName()
        guard Self.directiveLocations.contains(name.value) else { throw unexpected(start) }
        return name
    }

    static let directiveLocations: Set<String> = [
        "QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD", "INLINE_FRAGMENT",
        "VARIABLE_DEFINITION", "FRAGMENT_VARIABLE_DEFINITION", "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION",
        "ARGUMENT_DEFINITION", "INTERFACE", "UNION", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION",
        "DIRECTIVE_DEFINITION",
    ]

    // MARK: - Extensions

    /// TypeSystemExtension : SchemaExtension | TypeExtension
    mutating func parseTypeSystemExtension() throws(GraphQLError) -> Definition {
        let keywordToken = try lexer.lookahead()
        let lexer = self.lexer
        let keyword = { (name: StaticString) in lexer.isKeyword(keywordToken, name) }
        if keyword("schema") { return .schemaExtension(try parseSchemaExtension()) }
        if keyword("scalar") { return .typeExtension(.scalar(try parseScalarTypeExtension())) }
        if keyword("type") { return .typeExtension(.object(try parseObjectTypeExtension())) }
        if keyword("interface") { return .typeExtension(.interface(try parseInterfaceTypeExtension())) }
        if keyword("union") { return .typeExtension(.union(try parseUnionTypeExtension())) }
        if keyword("enum") { return .typeExtension(.enum(try parseEnumTypeExtension())) }
        if keyword("input") { return .typeExtension(.inputObject(try parseInputObjectTypeExtension())) }
        throw unexpected(keywordToken)
    }

    /// SchemaExtension : extend schema Directives[Const]? { OperationTypeDefinition+ }
    /// | extend schema Directives[Const]
    mutating func parseSchemaExtension() throws(GraphQLError) -> SchemaExtension {
        let start = token
        try expectKeyword("extend")
        try expectKeyword("schema")
        let directives = try parseDirectives(isConst: true)
        let operationTypes = try optionalMany(.braceL, .braceR) { parser throws(GraphQLError) in
            try parser.parseOperationTypeDefinition()
        }
        if directives.isEmpty && operationTypes.isEmpty { throw unexpected() }
        return SchemaExtension(directives: directives, operationTypes: operationTypes, loc: loc(start))
    }

    mutating func parseScalarTypeExtension() throws(GraphQLError) -> ScalarTypeDefinition {
        let start = token
        try expectKeyword("extend")
        try expectKeyword("scalar")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        if directives.isEmpty { throw unexpected() }
        return ScalarTypeDefinition(name: name, directives: directives, loc: loc(start))
    }

    mutating func parseObjectTypeExtension() throws(GraphQLError) -> ObjectTypeDefinition {
        let start = token
        try expectKeyword("extend")
        try expectKeyword("type")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        if interfaces.isEmpty && directives.isEmpty && fields.isEmpty { throw unexpected() }
        return ObjectTypeDefinition(
            name: name, interfaces: interfaces, directives: directives, fields: fields, loc: loc(start))
    }

    mutating func parseInterfaceTypeExtension() throws(GraphQLError) -> InterfaceTypeDefinition {
        let start = token
        try expectKeyword("extend")
        try expectKeyword("interface")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        if interfaces.isEmpty && directives.isEmpty && fields.isEmpty { throw unexpected() }
        return InterfaceTypeDefinition(
            name: name, interfaces: interfaces, directives: directives, fields: fields, loc: loc(start))
    }

    mutating func parseUnionTypeExtension() throws(GraphQLError) -> UnionTypeDefinition {
        let start = token
        try expectKeyword("extend")
        try expectKeyword("union")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let types = try parseUnionMemberTypes()
        if directives.isEmpty && types.isEmpty { throw unexpected() }
        return UnionTypeDefinition(name: name, directives: directives, types: types, loc: loc(start))
    }

    mutating func parseEnumTypeExtension() throws(GraphQLError) -> EnumTypeDefinition {
        let start = token
        try expectKeyword("extend")
        try expectKeyword("enum")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let values = try parseEnumValuesDefinition()
        if directives.isEmpty && values.isEmpty { throw unexpected() }
        return EnumTypeDefinition(name: name, directives: directives, values: values, loc: loc(start))
    }

    mutating func parseInputObjectTypeExtension() throws(GraphQLError) -> InputObjectTypeDefinition {
        let start = token
        try expectKeyword("extend")
        try expectKeyword("input")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseInputFieldsDefinition()
        if directives.isEmpty && fields.isEmpty { throw unexpected() }
        return InputObjectTypeDefinition(name: name, directives: directives, fields: fields, loc: loc(start))
    }
}
