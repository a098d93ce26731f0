/// The grammar of documents and executable definitions: operations, selections, fragments.
extension Parser {
    /// Document : Definition+
    mutating func parseDocument() throws(GraphQLError) -> Document {
        let start = token
        let definitions = try many(.sof, .eof) { parser throws(GraphQLError) in try parser.parseDefinition() }
        return Document(definitions: definitions, loc: loc(start))
    }

    /// Definition : ExecutableDefinition | TypeSystemDefinition | TypeSystemExtension
    mutating func parseDefinition() throws(GraphQLError) -> Definition {
        if peek(.braceL) { return .operation(try parseOperationDefinition()) }
        // Many definitions begin with a description and need a look past it.
        let hasDescription = peekDescription()
        let keywordToken = hasDescription ? try lexer.lookahead() : token
        if hasDescription && keywordToken.kind == .braceL {
            throw lexer.syntaxError(
                "Unexpected description, descriptions are not supported on shorthand queries.", at: token.start)
        }
        if keywordToken.kind == .name {
            let lexer = self.lexer
            let keyword = { (name: StaticString) in lexer.isKeyword(keywordToken, name) }
            if keyword("schema") { return .schema(try parseSchemaDefinition()) }
            if keyword("scalar") { return .type(.scalar(try parseScalarTypeDefinition())) }
            if keyword("type") { return .type(.object(try parseObjectTypeDefinition())) }
            if keyword("interface") { return .type(.interface(try parseInterfaceTypeDefinition())) }
            if keyword("union") { return .type(.union(try parseUnionTypeDefinition())) }
            if keyword("enum") { return .type(.enum(try parseEnumTypeDefinition())) }
            if keyword("input") { return .type(.inputObject(try parseInputObjectTypeDefinition())) }
            if keyword("directive") { return .directive(try parseDirectiveDefinition()) }
            if keyword("query") || keyword("mutation") || keyword("subscription") {
                return .operation(try parseOperationDefinition())
            }
            if keyword("fragment") { return .fragment(try parseFragmentDefinition()) }
            if hasDescription {
                throw lexer.syntaxError(
                    "Unexpected description, only GraphQL definitions support descriptions.", at: token.start)
            }
            if keyword("extend") { return try parseTypeSystemExtension() }
        }
        throw unexpected(keywordToken)
    }

    // MARK: - Operations

    /// OperationDefinition : SelectionSet | Description? OperationType Name? VariableDefinitions?
    /// Directives? SelectionSet
    mutating func parseOperationDefinition() throws(GraphQLError) -> OperationDefinition {
        let start = token
        if peek(.braceL) {
            let selectionSet = try parseSelectionSet()
            return OperationDefinition(operation: .query, selectionSet: selectionSet, loc: loc(start))
        }
        let description = try parseDescription()
        let operation = try parseOperationType()
        let name = peek(.name) ? try parseName() : nil
        let variableDefinitions = try optionalMany(.parenL, .parenR) { parser throws(GraphQLError) in
            try parser.parseVariableDefinition()
        }
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return OperationDefinition(
            description: description, operation: operation, name: name, variableDefinitions: variableDefinitions,
            directives: directives, selectionSet: selectionSet, loc: loc(start))
    }

    /// OperationType : one of `query` `mutation` `subscription`
    mutating func parseOperationType() throws(GraphQLError) -> OperationType {
        let operationToken = try expect(.name)
        if lexer.isKeyword(operationToken, "query") { return .query }
        if lexer.isKeyword(operationToken, "mutation") { return .mutation }
        if lexer.isKeyword(operationToken, "subscription") { return .subscription }
        throw unexpected(operationToken)
    }

    /// VariableDefinition : Description? Variable : Type DefaultValue? Directives[Const]?
    mutating func parseVariableDefinition() throws(GraphQLError) -> VariableDefinition {
        let start = token
        let description = try parseDescription()
        let variable = try parseVariable()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValueLiteral(isConst: true) : nil
        let directives = try parseDirectives(isConst: true)
        return VariableDefinition(
            description: description, variable: variable, type: type, defaultValue: defaultValue,
            directives: directives, loc: loc(start))
    }

    /// Variable : $ Name
    mutating func parseVariable() throws(GraphQLError) -> Variable {
        let start = token
        try expect(.dollar)
        let name = try parseName()
        return Variable(name: name, loc: loc(start))
    }

    /// SelectionSet : { Selection* } (graphql-core 3.3 accepts an empty selection set; validation
    /// decides whether it may be empty there).
    mutating func parseSelectionSet() throws(GraphQLError) -> SelectionSet {
        try enterNesting()
        let start = token
        let selections = try any(.braceL, .braceR) { parser throws(GraphQLError) in try parser.parseSelection() }
        leaveNesting()
        return SelectionSet(selections: selections, loc: loc(start))
    }

    /// Selection : Field | FragmentSpread | InlineFragment
    mutating func parseSelection() throws(GraphQLError) -> Selection {
        peek(.spread) ? try parseFragment() : .field(try parseField())
    }

    /// Field : Alias? Name Arguments? Directives? SelectionSet?
    mutating func parseField() throws(GraphQLError) -> Field {
        let start = token
        let nameOrAlias = try parseName()
        let alias: Name?
        let name: Name
        if try expectOptional(.colon) {
            alias = nameOrAlias
            name = try parseName()
        } else {
            alias = nil
            name = nameOrAlias
        }
        let arguments = try parseArguments(isConst: false)
        let directives = try parseDirectives(isConst: false)
        let selectionSet = peek(.braceL) ? try parseSelectionSet() : nil
        return Field(
            alias: alias, name: name, arguments: arguments, directives: directives, selectionSet: selectionSet,
            loc: loc(start))
    }

    /// Arguments[Const] : ( Argument[?Const]+ )
    mutating func parseArguments(isConst: Bool) throws(GraphQLError) -> [Argument] {
        try optionalMany(.parenL, .parenR) { parser throws(GraphQLError) in try parser.parseArgument(isConst: isConst) }
    }

    /// Argument[Const] : Name : Value[?Const]
    mutating func parseArgument(isConst: Bool) throws(GraphQLError) -> Argument {
        let start = token
        let name = try parseName()
        try expect(.colon)
        let value = try parseValueLiteral(isConst: isConst)
        return Argument(name: name, value: value, loc: loc(start))
    }

    // MARK: - Fragments

    /// FragmentSpread : ... FragmentName Directives?
    /// InlineFragment : ... TypeCondition? Directives? SelectionSet
    mutating func parseFragment() throws(GraphQLError) -> Selection {
        let start = token
        try expect(.spread)
        let hasTypeCondition = try expectOptionalKeyword("on")
        if !hasTypeCondition && peek(.name) {
            let name = try parseFragmentName()
            let directives = try parseDirectives(isConst: false)
            return .fragmentSpread(FragmentSpread(name: name, directives: directives, loc: loc(start)))
        }
        let typeCondition = hasTypeCondition ? try parseNamedType() : nil
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return .inlineFragment(
            InlineFragment(typeCondition: typeCondition, directives: directives, selectionSet: selectionSet, loc: loc(start)))
    }

    /// FragmentDefinition : Description? fragment FragmentName TypeCondition Directives? SelectionSet
    mutating func parseFragmentDefinition() throws(GraphQLError) -> FragmentDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("fragment")
        let name = try parseFragmentName()
        try expectKeyword("on")
        let typeCondition = try parseNamedType()
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return FragmentDefinition(
            description: description, name: name, typeCondition: typeCondition, directives: directives,
            selectionSet: selectionSet, loc: loc(start))
    }

    /// FragmentName : Name but not `on` (graphql-js compares the token's value, so a string
    /// "on" is unexpected here too).
    mutating func parseFragmentName() throws(GraphQLError) -> Name {
        if value(of: token) == "on" { throw unexpected() }
        return try parseName()
    }
}
