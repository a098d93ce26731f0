/// The grammar of values, directives and type references.
extension Parser {
    /// Value[Const] : Variable (unless Const) | IntValue | FloatValue | StringValue | BooleanValue
    /// | NullValue | EnumValue | ListValue[?Const] | ObjectValue[?Const]
    mutating func parseValueLiteral(isConst: Bool) throws(GraphQLError) -> Value {
        let token = self.token
        switch token.kind {
        case .bracketL:
            return .list(try parseList(isConst: isConst))
        case .braceL:
            return .object(try parseObject(isConst: isConst))
        case .int:
            try advance()
            return .int(IntValue(lexer.text(of: token), loc: loc(token)))
        case .float:
            try advance()
            return .float(FloatValue(lexer.text(of: token), loc: loc(token)))
        case .string, .blockString:
            return .string(try parseStringLiteral())
        case .name:
            try advance()
            if lexer.isKeyword(token, "true") { return .boolean(BooleanValue(true, loc: loc(token))) }
            if lexer.isKeyword(token, "false") { return .boolean(BooleanValue(false, loc: loc(token))) }
            if lexer.isKeyword(token, "null") { return .null(NullValue(loc: loc(token))) }
            return .enum(EnumValue(lexer.text(of: token), loc: loc(token)))
        case .dollar:
            if isConst {
                let variableToken = try expect(.dollar)
                if peek(.name) {
                    throw lexer.syntaxError(
                        "Unexpected variable \"$\(lexer.text(of: self.token))\" in constant value.",
                        at: variableToken.start)
                }
                throw unexpected(variableToken)
            }
            return .variable(try parseVariable())
        default:
            throw unexpected()
        }
    }

    mutating func parseStringLiteral() throws(GraphQLError) -> StringValue {
        let token = self.token
        try advance()
        return StringValue(lexer.stringValue(of: token), block: token.kind == .blockString, loc: loc(token))
    }

    /// ListValue[Const] : [ Value[?Const]* ]
    mutating func parseList(isConst: Bool) throws(GraphQLError) -> ListValue {
        try enterNesting()
        let start = token
        let values = try any(.bracketL, .bracketR) { parser throws(GraphQLError) in
            try parser.parseValueLiteral(isConst: isConst)
        }
        leaveNesting()
        return ListValue(values, loc: loc(start))
    }

    /// ObjectValue[Const] : { ObjectField[?Const]* }
    mutating func parseObject(isConst: Bool) throws(GraphQLError) -> ObjectValue {
        try enterNesting()
        let start = token
        let fields = try any(.braceL, .braceR) { parser throws(GraphQLError) in
            try parser.parseObjectField(isConst: isConst)
        }
        leaveNesting()
        return ObjectValue(fields, loc: loc(start))
    }

    /// ObjectField[Const] : Name : Value[?Const]
    mutating func parseObjectField(isConst: Bool) throws(GraphQLError) -> ObjectField {
        let start = token
        let name = try parseName()
        try expect(.colon)
        let value = try parseValueLiteral(isConst: isConst)
        return ObjectField(name: name, value: value, loc: loc(start))
    }

    // MARK: - Directives

    /// Directives[Const] : Directive[?Const]+
    mutating func parseDirectives(isConst: Bool) throws(GraphQLError) -> [Directive] {
        var directives: [Directive] = []
        while peek(.at) {
            directives.append(try parseDirective(isConst: isConst))
        }
        return directives
    }

    /// Directive[Const] : @ Name Arguments[?Const]?
    mutating func parseDirective(isConst: Bool) throws(GraphQLError) -> Directive {
        let start = token
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArguments(isConst: isConst)
        return Directive(name: name, arguments: arguments, loc: loc(start))
    }

    // MARK: - Types

    /// Type : NamedType | ListType | NonNullType
    mutating func parseTypeReference() throws(GraphQLError) -> TypeReference {
        let start = token
        var type: TypeReference
        if try expectOptional(.bracketL) {
            try enterNesting()
            let inner = try parseTypeReference()
            leaveNesting()
            try expect(.bracketR)
            type = .list(ListType(type: inner, loc: loc(start)))
        } else {
            type = .named(try parseNamedType())
        }
        if try expectOptional(.bang) {
            type = .nonNull(NonNullType(type: type, loc: loc(start)))
        }
        return type
    }

    /// NamedType : Name
    mutating func parseNamedType() throws(GraphQLError) -> NamedType {
        let start = token
        let name = try parseName()
        return NamedType(name: name, loc: loc(start))
    }
}
