import Testing
@testable import GraphQL

private func message(_ body: () throws -> GraphQLValue) -> String? {
    do {
        _ = try body()
        return nil
    } catch let error as GraphQLError {
        return error.message
    } catch {
        return "\(error)"
    }
}

@Test func intSerializesIntegersBooleansAndNumericStrings() throws {
    #expect(try GraphQLInt.serialize(1) == .int(1))
    #expect(try GraphQLInt.serialize(true) == .int(1))
    #expect(try GraphQLInt.serialize(1.0) == .int(1))
    #expect(try GraphQLInt.serialize("-12") == .int(-12))
    #expect(try GraphQLInt.serialize(GraphQLValue.float(1e5)) == .int(100_000))
    #expect(message { try GraphQLInt.serialize(1.5) } == "Int cannot represent non-integer value: 1.5")
    #expect(message { try GraphQLInt.serialize("") } == "Int cannot represent non-integer value: \"\"")
    #expect(message { try GraphQLInt.serialize(2_147_483_648) }
        == "Int cannot represent non 32-bit signed integer value: 2147483648")
    #expect(message { try GraphQLInt.serialize(-1e100) }
        == "Int cannot represent non 32-bit signed integer value: -1e+100")
    #expect(message { try GraphQLInt.serialize(GraphQLValue.list([.int(1)])) }
        == "Int cannot represent non-integer value: [1]")
}

@Test func intInputIsStrict() throws {
    #expect(try GraphQLInt.parseValue(.int(-2_147_483_648)) == .int(-2_147_483_648))
    #expect(try GraphQLInt.parseValue(.float(3)) == .int(3))
    #expect(message { try GraphQLInt.parseValue(.string("1")) } == "Int cannot represent non-integer value: \"1\"")
    #expect(message { try GraphQLInt.parseValue(.bool(true)) } == "Int cannot represent non-integer value: true")
    #expect(message { try GraphQLInt.parseValue(.int(2_147_483_648)) }
        == "Int cannot represent non 32-bit signed integer value: 2147483648")
    #expect(try GraphQLInt.parseLiteral(.int(IntValue("7"))) == .int(7))
    #expect(message { try GraphQLInt.parseLiteral(.float(FloatValue("1.5"))) }
        == "Int cannot represent non-integer value: 1.5")
    #expect(message { try GraphQLInt.parseLiteral(.int(IntValue("99999999999999999999"))) }
        == "Int cannot represent non 32-bit signed integer value: 99999999999999999999")
    #expect(message { try GraphQLInt.parseLiteral(.string(StringValue("1"))) }
        == "Int cannot represent non-integer value: \"1\"")
}

@Test func floatRejectsNonFiniteAndNonNumbers() throws {
    #expect(try GraphQLFloat.serialize(1) == .float(1))
    #expect(try GraphQLFloat.serialize(" 1.5 ") == .float(1.5))
    #expect(message { try GraphQLFloat.serialize(Double.nan) } == "Float cannot represent non numeric value: NaN")
    #expect(message { try GraphQLFloat.serialize(-Double.infinity) }
        == "Float cannot represent non numeric value: -Infinity")
    #expect(message { try GraphQLFloat.parseValue(.string("1")) } == "Float cannot represent non numeric value: \"1\"")
    #expect(try GraphQLFloat.parseLiteral(.int(IntValue("2"))) == .float(2))
    #expect(message { try GraphQLFloat.parseLiteral(.enum(EnumValue("ONE"))) }
        == "Float cannot represent non numeric value: ONE")
}

@Test func stringSerializesScalarsButTakesOnlyStrings() throws {
    #expect(try GraphQLString.serialize(true) == .string("true"))
    #expect(try GraphQLString.serialize(1.0) == .string("1"))
    #expect(try GraphQLString.serialize(0.000001) == .string("0.000001"))
    #expect(try GraphQLString.serialize(1e-7) == .string("1e-7"))
    #expect(try GraphQLString.serialize(1.5e21) == .string("1.5e+21"))
    #expect(message { try GraphQLString.serialize(GraphQLValue.object(["a": .int(1)])) }
        == "String cannot represent value: { a: 1 }")
    #expect(message { try GraphQLString.parseValue(.bool(true)) } == "String cannot represent a non string value: true")
    #expect(message { try GraphQLString.parseLiteral(.int(IntValue("1"))) }
        == "String cannot represent a non string value: 1")
}

@Test func booleanIsStrictOnInput() throws {
    #expect(try GraphQLBoolean.serialize(0) == .bool(false))
    #expect(message { try GraphQLBoolean.serialize("true") } == "Boolean cannot represent a non boolean value: \"true\"")
    #expect(message { try GraphQLBoolean.parseValue(.int(1)) } == "Boolean cannot represent a non boolean value: 1")
    #expect(message { try GraphQLBoolean.parseLiteral(.null(NullValue())) }
        == "Boolean cannot represent a non boolean value: null")
}

@Test func idTakesStringsAndIntegers() throws {
    #expect(try GraphQLID.serialize(123) == .string("123"))
    #expect(try GraphQLID.parseValue(.int(4)) == .string("4"))
    #expect(message { try GraphQLID.serialize(1.5) } == "ID cannot represent value: 1.5")
    #expect(message { try GraphQLID.serialize(true) } == "ID cannot represent value: true")
    #expect(message { try GraphQLID.parseValue(.float(1.5)) } == "ID cannot represent value: 1.5")
    #expect(try GraphQLID.parseLiteral(.int(IntValue("01"))) == .string("01"))
    #expect(message { try GraphQLID.parseLiteral(.float(FloatValue("1.0"))) }
        == "ID cannot represent a non-string and non-integer value: 1.0")
}

@Test func inspectFollowsGraphQLJS() {
    #expect(inspect(GraphQLValue.list(Array(repeating: .int(1), count: 12)))
        == "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, ... 2 more items]")
    #expect(inspect(GraphQLValue.object(["a": .object(["b": .object(["c": .int(1)])])])) == "{ a: { b: [Object] } }")
    #expect(inspect(GraphQLValue.string("a\"b\n")) == "\"a\\\"b\\n\"")
    #expect(inspect(nil) == "null")
    #expect(jsNumberString(Double("123456789012345680000")!) == "123456789012345680000")
    #expect(jsNumberString(-0.5) == "-0.5")
}

@Test func suggestionsAreNearestFirst() {
    #expect(suggestionList("nmae", ["name", "names", "other"]) == ["name", "names"])
    #expect(suggestionList("A", ["a", "b"]) == ["a", "b"])
    #expect(didYouMean(["a", "b", "c"]) == " Did you mean \"a\", \"b\", or \"c\"?")
    #expect(naturalCompare("a2", "a10") < 0)
}
