import Testing
@testable import GraphQL

@Test func responseKeyIsAliasOrName() {
    #expect(Field(name: Name("a")).responseKey == "a")
    #expect(Field(alias: Name("b"), name: Name("a")).responseKey == "b")
}
