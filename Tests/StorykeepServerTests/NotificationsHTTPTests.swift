import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 11, notifications: a person's own, newest first with signed cursors, the unread count,
// marking some or all read; nobody else's, whatever ids they send. Over HTTP with a real
// PostgreSQL; the notifications are written by `Notifications.notify` as the modules write them.

@Suite("Notifications over HTTP")
struct NotificationsHTTPTests {
    static let page = """
        query($first: Int, $after: String, $unread: Boolean) {
          notifications(first: $first, after: $after, unreadOnly: $unread) {
            edges { cursor node { id kind title read readAt } } pageInfo { hasNextPage endCursor }
          }
        }
        """
    static let mark = "mutation($ids: [ID!]) { markNotificationsRead(ids: $ids) }"
    static let count = "{ unreadNotificationCount }"

    /// Notifies `person` once per title, oldest first, as the server's own work would.
    static func notify(_ h: AccountsHarness, _ person: TestPerson, _ titles: [String], tenant: TestTenant? = nil) async throws {
        let id = (tenant ?? h.tenant).id
        try await h.app.transaction(settings: AccountContext.tenantOperator(tenantID: id).settings) { tx in
            for title in titles { try await Notifications.notify([person.id], kind: "test", title: title, in: tx) }
        }
    }

    static func titles(_ connection: GraphQLValue) -> [String] {
        connection.nodes.compactMap { $0["title"]?.stringValue }
    }

    @Test func pagesNewestFirstWithSignedCursors() async throws {
        try await withAccounts(tenants: 2) { h in
            let sam = try await h.cast(.sam)
            try await Self.notify(h, sam, (1...25).map { "Notice \($0)" })
            var seen: [String] = []
            var after = GraphQLValue.null
            var pages = 0
            repeat {
                let page = try await h.data(Self.page, "notifications", ["first": .int(10), "after": after], as: sam)
                seen += Self.titles(page)
                after = page["pageInfo"]?["endCursor"] ?? .null
                pages += 1
                #expect(page["pageInfo"]?["hasNextPage"] == .bool(pages < 3))
                #expect(page["edges"]?.listValue?.last?["cursor"] == after)
            } while pages < 3
            #expect(seen == (1...25).reversed().map { "Notice \($0)" })

            let none = try await h.data(Self.page, "notifications", ["first": .int(0)], as: sam)
            #expect(none["edges"] == .list([]))
            #expect(none["pageInfo"]?["hasNextPage"] == .bool(true))
            for first in [-1, 101] {
                let refused = try await h.graphQL(Self.page, ["first": .int(first)], token: sam.token)
                #expect(refused.errorCode == "BAD_USER_INPUT")
                #expect(refused.errorExtensions?["field"] == .string("first"))
            }
            // A cursor made up, changed, or of another agency is refused.
            let olly = try await h.cast(.olly, tenant: h.tenants[1])
            try await Self.notify(h, olly, ["Elsewhere 1", "Elsewhere 2"], tenant: h.tenants[1])
            let foreign = try await h.graphQL(Self.page, ["first": .int(1)], token: olly.token, tenant: h.tenants[1])
            let foreignCursor = try #require(foreign["data"]?["notifications"]?["pageInfo"]?["endCursor"]?.stringValue)
            let own = try #require(try await h.data(Self.page, "notifications", ["first": .int(1)], as: sam)["pageInfo"]?["endCursor"]?.stringValue)
            for cursor in [foreignCursor, "bm90aWZpY2F0aW9ucw", String(own.dropLast()) + (own.hasSuffix("A") ? "B" : "A")] {
                let refused = try await h.graphQL(Self.page, ["after": .string(cursor)], token: sam.token)
                #expect(refused.errorCode == "BAD_USER_INPUT", "\(cursor)")
                #expect(refused.errorExtensions?["field"] == .string("after"))
            }
        }
    }

    @Test func unreadOnlyTheCountAndMarkingRead() async throws {
        try await withAccounts { h in
            let sam = try await h.cast(.sam)
            try await Self.notify(h, sam, ["One", "Two", "Three", "Four", "Five"])
            #expect(try await h.data(Self.count, "unreadNotificationCount", as: sam) == .int(5))
            let all = try await h.data(Self.page, "notifications", [:], as: sam).nodes
            let ids = all.compactMap { $0["id"] }
            // Two marked: three stay unread, and unreadOnly lists those.
            let marked = try await h.data(Self.mark, "markNotificationsRead", ["ids": .list([ids[0], ids[2], ids[0]])], as: sam)
            #expect(marked == .int(3))
            #expect(try await h.data(Self.count, "unreadNotificationCount", as: sam) == .int(3))
            let unread = try await h.data(Self.page, "notifications", ["unread": .bool(true)], as: sam)
            #expect(Self.titles(unread) == ["Four", "Two", "One"])
            let afterMarking = try await h.data(Self.page, "notifications", [:], as: sam).nodes
            #expect(afterMarking.map { $0["read"] } == [.bool(true), .bool(false), .bool(true), .bool(false), .bool(false)])
            let readAt = afterMarking[0]["readAt"]
            #expect(readAt?.stringValue != nil)
            // The unread list pages by its own cursors.
            let first = try await h.data(Self.page, "notifications", ["unread": .bool(true), "first": .int(2)], as: sam)
            let rest = try await h.data(
                Self.page, "notifications", ["unread": .bool(true), "after": first["pageInfo"]?["endCursor"] ?? .null], as: sam)
            #expect(Self.titles(first) + Self.titles(rest) == ["Four", "Two", "One"])
            // Marking one read again keeps when it was read; no ids marks all.
            #expect(try await h.data(Self.mark, "markNotificationsRead", ["ids": .list([ids[0]])], as: sam) == .int(3))
            #expect(try await h.data(Self.page, "notifications", ["first": .int(1)], as: sam).nodes.first?["readAt"] == readAt)
            #expect(try await h.data(Self.mark, "markNotificationsRead", [:], as: sam) == .int(0))
            #expect(try await h.data(Self.mark, "markNotificationsRead", ["ids": .null], as: sam) == .int(0))
            #expect(try await h.data(Self.page, "notifications", ["unread": .bool(true)], as: sam)["edges"] == .list([]))
        }
    }

    @Test func anotherPersonsNotificationsAreNeitherSeenNorMarked() async throws {
        try await withAccounts { h in
            let (sam, alex, admin) = try await (h.cast(.sam), h.cast(.alex), h.cast(.ada))
            try await Self.notify(h, sam, ["For Sam"])
            try await Self.notify(h, alex, ["For Alex"])
            let samsID = try #require(try await h.data(Self.page, "notifications", [:], as: sam).nodes.first?["id"])
            let alexsID = try #require(try await h.data(Self.page, "notifications", [:], as: alex).nodes.first?["id"])
            #expect(Self.titles(try await h.data(Self.page, "notifications", [:], as: alex)) == ["For Alex"])
            #expect(Self.titles(try await h.data(Self.page, "notifications", [:], as: admin)) == [])
            for ids in [[samsID], [alexsID, samsID], [.string(UUID().uuidString)]] {
                let refused = try await h.graphQL(Self.mark, ["ids": .list(ids)], token: alex.token)
                #expect(refused.errorCode == "NOT_FOUND", "\(refused.json)")
            }
            let notAnID = try await h.graphQL(Self.mark, ["ids": .list([alexsID, .string("7")])], token: alex.token)
            #expect(notAnID.errorCode == "BAD_USER_INPUT")
            #expect(notAnID.errorExtensions?["field"] == .string("ids"))
            let tooMany = try await h.graphQL(
                Self.mark, ["ids": .list((0...100).map { _ in .string(UUID().uuidString) })], token: alex.token)
            #expect(tooMany.errorExtensions?["field"] == .string("ids"), "\(tooMany.json)")
            // Nothing was marked, of Sam's or of Alex's own.
            #expect(try await h.data(Self.count, "unreadNotificationCount", as: sam) == .int(1))
            #expect(try await h.data(Self.count, "unreadNotificationCount", as: alex) == .int(1))
            // Without a session, nothing at all.
            for query in [Self.page, Self.count, Self.mark] {
                #expect(try await h.graphQL(query).errorCode == "UNAUTHENTICATED", "\(query)")
            }
        }
    }
}
