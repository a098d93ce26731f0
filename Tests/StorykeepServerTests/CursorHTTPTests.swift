import Foundation
import GraphQL
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

/// Issue 16, item 7: the cursors of `entries`, `search`, `archive` and `people` are signed with
/// the tenant's key, bound to their list, and anything else given as `after` is BAD_USER_INPUT
/// on `after` (never INTERNAL_SERVER_ERROR), through HTTP.
@Suite struct CursorHTTPTests {
    static let entriesPage = "query($a: String) { entries(first: 1, after: $a) { edges { node { id } } pageInfo { endCursor } } }"
    static let searchPage = "query($a: String) { search(query: \"day\", first: 1, after: $a) { edges { node { id } } pageInfo { endCursor } } }"
    static let archivePage = "query($a: String) { archive(first: 1, after: $a) { edges { node { id } } pageInfo { endCursor } } }"
    static let peoplePage = "query($a: String) { people(first: 1, after: $a) { edges { node { id } } pageInfo { endCursor } } }"

    /// A tenant's young person with three entries, one of them archived, and its admin.
    struct Journal {
        var sam: String
        var admin: String
        /// The first page's end cursor of each list.
        var entries: String, search: String, archive: String, people: String
    }

    static func journal(_ h: AccountsHarness, tenant: TestTenant? = nil) async throws -> Journal {
        let sam = try await h.youngPerson("sam", tenant: tenant).token
        let admin = try await h.admin(tenant: tenant)
        var ids: [String] = []
        for day in 1...3 {
            let response = try await h.graphQL(
                "mutation($i: EntryInput!) { createEntry(input: $i) { id } }",
                ["i": .object(["date": .string("2026-11-0\(day)"), "kind": .string("TEXT"), "text": .string("a good day")])],
                token: sam, tenant: tenant)
            ids.append(try #require(response["data"]?["createEntry"]?.id, "\(response.json)"))
        }
        _ = try await h.graphQL("mutation($id: ID!) { deleteEntry(id: $id) }", ["id": .string(ids[0])], token: sam, tenant: tenant)
        func endCursor(_ field: String, _ query: String, _ token: String) async throws -> String {
            let response = try await h.graphQL(query, ["a": .null], token: token, tenant: tenant)
            return try #require(response["data"]?[field]?["pageInfo"]?["endCursor"]?.stringValue, "\(response.json)")
        }
        return Journal(
            sam: sam, admin: admin, entries: try await endCursor("entries", entriesPage, sam),
            search: try await endCursor("search", searchPage, sam), archive: try await endCursor("archive", archivePage, sam),
            people: try await endCursor("people", peoplePage, admin))
    }

    @Test func forgedCursorsAreBadUserInputOnEveryList() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let journal = try await Self.journal(h)
            let id = UUID().uuidString
            // The cursors the issue forged (the API's old, unsigned forms), and plain junk.
            let forged = [
                "e|2026-11-24|9223372036854775807|\(id)", "e|2026-11-24|-9223372036854775808|\(id)", "e|99999-01-01|0|\(id)",
                "a|9223372036854775807|\(id)", "a|-9223372036854775808|\(id)",
            ].map { Data($0.utf8).base64EncodedString() }
                + ["p:9223372036854775807:\(id)", "p:-9223372036854775808:\(id)"].map { Data($0.utf8).base64EncodedString() }
                + ["", "x", "bm90IGEgY3Vyc29y", String(repeating: "A", count: 100_000), "\u{1F600}", "-_-_"]
            for (query, token) in [
                (Self.entriesPage, journal.sam), (Self.searchPage, journal.sam), (Self.archivePage, journal.sam),
                (Self.peoplePage, journal.admin),
            ] {
                for cursor in forged {
                    try await Self.expectRefusedCursor(h, query, cursor, token: token)
                }
            }
        }
    }

    @Test func aChangedCursorIsRefusedAndAnUnchangedOneResumes() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let journal = try await Self.journal(h)
            for (query, cursor, token) in [
                (Self.entriesPage, journal.entries, journal.sam), (Self.archivePage, journal.archive, journal.sam),
                (Self.peoplePage, journal.people, journal.admin),
            ] {
                let resumed = try await h.graphQL(query, ["a": .string(cursor)], token: token)
                #expect(resumed["errors"] == nil, "\(resumed.json)")
                for index in [cursor.startIndex, cursor.index(cursor.startIndex, offsetBy: cursor.count / 2), cursor.index(before: cursor.endIndex)] {
                    var changed = cursor
                    changed.replaceSubrange(index...index, with: cursor[index] == "A" ? "B" : "A")
                    try await Self.expectRefusedCursor(h, query, changed, token: token)
                }
            }
        }
    }

    @Test func aCursorHoldsOnlyForTheListItCameFrom() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let journal = try await Self.journal(h)
            try await Self.expectRefusedCursor(h, Self.archivePage, journal.entries, token: journal.sam)
            try await Self.expectRefusedCursor(h, Self.archivePage, journal.search, token: journal.sam)
            try await Self.expectRefusedCursor(h, Self.entriesPage, journal.archive, token: journal.sam)
            try await Self.expectRefusedCursor(h, Self.searchPage, journal.archive, token: journal.sam)
            try await Self.expectRefusedCursor(h, Self.entriesPage, journal.people, token: journal.sam)
            try await Self.expectRefusedCursor(h, Self.peoplePage, journal.entries, token: journal.admin)
            try await Self.expectRefusedCursor(h, Self.peoplePage, journal.archive, token: journal.admin)
            // Search is the journal with a text filter: one order, one list.
            let resumed = try await h.graphQL(Self.entriesPage, ["a": .string(journal.search)], token: journal.sam)
            #expect(resumed["errors"] == nil, "\(resumed.json)")
        }
    }

    @Test func aCursorOfOneTenantMeansNothingAtAnother() async throws {
        try await withAccounts(tenants: 2, tweak: JournalHTTP.tenant) { h in
            let first = try await Self.journal(h)
            let second = try await Self.journal(h, tenant: h.tenants[1])
            for (query, cursor, token) in [
                (Self.entriesPage, first.entries, second.sam), (Self.archivePage, first.archive, second.sam),
                (Self.peoplePage, first.people, second.admin),
            ] {
                try await Self.expectRefusedCursor(h, query, cursor, token: token, tenant: h.tenants[1])
            }
        }
    }

    @Test func cursorsHoldAcrossServersBecauseTheKeyIsTheTenants() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let journal = try await Self.journal(h)
            // Another server behind the same load balancer, or this one restarted: the tenant read
            // afresh from the tenants table, a new engine.
            let tenant = try #require(try await TenantStore(pool: h.app).all().first { $0.id == h.tenant.id })
            let other = TenantGraphQL(
                schemas: TenantSchemas(directory: repositoryRoot.appendingPathComponent("Schema")), services: h.engine.services)
            let request = GraphQLRequest(query: Self.entriesPage, variables: ["a": .string(journal.entries)])
            guard case .response(let response) = await other.execute(
                request, tenant: tenant, credential: .bearer(try #require(SessionToken(presented: journal.sam))),
                links: TenantLinks(root: "/"))
            else { Issue.record("not run"); return }
            #expect(response.errors.isEmpty, "\(response.errors)")
            #expect(response.data?["entries"]?.nodes.count == 1)
        }
    }

    /// Expects `query` with `after: cursor` to be BAD_USER_INPUT on `after`, with no data.
    static func expectRefusedCursor(
        _ h: AccountsHarness, _ query: String, _ cursor: String, token: String, tenant: TestTenant? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await h.graphQL(query, ["a": .string(cursor)], token: token, tenant: tenant)
        #expect(response.errorCode == "BAD_USER_INPUT", "\(cursor.prefix(60)): \(response.json)", sourceLocation: sourceLocation)
        #expect(response.errorExtensions?["field"] == .string("after"), sourceLocation: sourceLocation)
    }
}
