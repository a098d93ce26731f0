import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

/// Issue 17: the default cost limit stops a request for 10,000 entries (100 aliases of
/// `entries(first: 100)`), by literal or by variable, with a clear error, while the apps' real
/// queries, at their largest page, still run.
@Suite struct CostLimitHTTPTests {
    /// The journal's first page as the app (and `scripts/bench-journal.py`) asks for it.
    static let firstPage = """
        query FirstPage($first: Int!) { entries(first: $first) { edges { cursor node { id date kind text mood background createdAt \
        tags { id name } media { id contentType byteSize sha256 url } } } pageInfo { hasNextPage endCursor } } }
        """
    static let search = """
        query Search($q: String!, $first: Int!) { search(query: $q, first: $first) { edges { node { id date kind text tags { id name } } } \
        pageInfo { hasNextPage endCursor } } }
        """

    @Test func tenThousandEntriesInOneRequestAreRefusedAndTheAppsQueriesRun() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            for query in [
                "{ " + (1...100).map { "a\($0): entries(first: 100) { edges { node { id } } }" }.joined(separator: " ") + " }",
                "query Many($n: Int) { " + (1...100).map { "a\($0): entries(first: $n) { __typename }" }.joined(separator: " ") + " }",
            ] {
                let answer = try await h.graphQL(query, ["n": .int(100)], token: sam)
                #expect(answer["data"] == nil, "\(answer.json)")
                let message = try #require(answer["errors"]?.listValue?.first?["message"]?.stringValue, "\(answer.json)")
                #expect(message.contains("has a cost of") && message.contains("more than the maximum of 18000"), "\(message)")
            }
            let queries: [(String, GraphQLObject)] = [
                (Self.firstPage, ["first": .int(100)]),
                (Self.search, ["q": .string("practice"), "first": .int(100)]),
                ("{ greeting { question today checkIn moodIcons { emoji label } } calendar(month: \"2026-11\") { date entryCount moods } }", [:]),
            ]
            for (query, variables) in queries {
                let answer = try await h.graphQL(query, variables, token: sam)
                #expect(answer["errors"] == nil, "\(answer.json)")
                #expect(answer["data"] != nil)
            }
        }
    }
}
