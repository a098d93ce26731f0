import GraphQL
import StorykeepTestSupport
import Testing

/// Every error of the tenant endpoint has a code, those of documents that do not parse or
/// validate too (found by the fuzz pass of issue 16: an invalid literal answered with a bare
/// message).
@Suite struct TenantDocumentErrorTests {
    @Test(arguments: [
        ("{ me { id }", "GRAPHQL_PARSE_FAILED", "Syntax Error: "),
        (#"{ search(query: "\ud800") { __typename } }"#, "GRAPHQL_PARSE_FAILED", "Syntax Error: Invalid Unicode escape"),
        ("{ entries(first: 2147483648) { __typename } }", "GRAPHQL_VALIDATION_FAILED", "Int cannot represent"),
        ("{ people(role: NOPE) { __typename } }", "GRAPHQL_VALIDATION_FAILED", #"Value "NOPE" does not exist"#),
        ("{ nope }", "GRAPHQL_VALIDATION_FAILED", #"Cannot query field "nope""#),
        ("query A { me { id } } query B { me { id } }", "GRAPHQL_VALIDATION_FAILED", "Must provide operation name"),
    ])
    func invalidDocumentsAnswerWithACode(_ query: String, _ code: String, _ message: String) async throws {
        try await withAccounts { h in
            for token in [nil, try await h.admin()] {
                let response = try await h.graphQL(query, token: token)
                #expect(response["data"] == nil)
                #expect(response.errorCode == code, "\(response.json)")
                #expect(response.errorMessage?.contains(message) == true, "\(response.json)")
            }
        }
    }
}
