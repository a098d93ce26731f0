import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

/// What the sharing module's tests over HTTP share: its operations, and an agency whose people
/// look after each other as the privacy test has them.
enum SharingHTTP {
    /// A tenant with tags, sharing and the archive on.
    static let tenant: @Sendable (Int, inout TenantFile) -> Void = { _, file in
        file.modules = [.tags, .sharing, .archive]
    }

    static let entryFields = "id date kind text mood tags { id name } media { id url }"
    static let sharedWith = "sharedWith { id person { id displayName } message sharedAt seenAt reply repliedAt }"
    static let shareFields = "id message sharedAt seenAt editedSinceShared reply repliedAt entry { \(entryFields) }"

    static let shareEntry = """
        mutation($e: ID!, $p: [ID!]!, $m: String) { shareEntry(entryId: $e, withPersonIds: $p, message: $m) { id \(sharedWith) } }
        """
    static let unshareEntry = "mutation($e: ID!, $p: [ID!]) { unshareEntry(entryId: $e, personIds: $p) { id \(sharedWith) } }"
    static let sharedWithMe = """
        query($y: ID!, $first: Int, $after: String, $unseen: Boolean) {
          sharedWithMe(youngPersonId: $y, first: $first, after: $after, unseenOnly: $unseen) {
            edges { cursor node { \(shareFields) } } pageInfo { hasNextPage endCursor }
          }
        }
        """
    static let markSeen = "mutation($s: ID!) { markShareSeen(shareId: $s) { \(shareFields) } }"
    static let reply = "mutation($s: ID!, $t: String!) { replyToShare(shareId: $s, text: $t) { \(shareFields) } }"
    static let entry = "query($id: ID!) { entry(id: $id) { id text \(sharedWith) } }"
    static let unread = "{ myYoungPeople { youngPerson { id } unreadShares } }"
    static let notifications = "{ notifications(first: 100) { edges { node { kind title actorId subjectKind subjectId } } } }"
}

/// An agency as the privacy test has it: young people A (Sam) and B (Bea); W (Wendy), A's
/// social worker, and C (Carl), A's carer; W2 (Will), B's social worker; W3 (Vera), a social
/// worker of nobody's; and an admin.
struct SharingAgency {
    let admin: TestPerson, a: TestPerson, b: TestPerson, w: TestPerson, c: TestPerson, w2: TestPerson, w3: TestPerson
    /// The assignments' ids: W's to A, C's to A.
    let wAssignment: GraphQLValue, cAssignment: GraphQLValue

    init(_ h: AccountsHarness) async throws {
        (admin, a) = try await (h.cast(.ada), h.cast(.sam))
        b = try await h.person(.youngPerson, "bea")
        (w, c) = try await (h.cast(.wendy), h.cast(.carl))
        w2 = try await h.person(.socialWorker, "will", displayName: "Will Wade")
        w3 = try await h.person(.socialWorker, "vera", displayName: "Vera Vine")
        wAssignment = try #require(try await h.assign(a, w, .socialWorker, admin: admin)["id"])
        cAssignment = try #require(try await h.assign(a, c, .carer, admin: admin)["id"])
        try await h.assign(b, w2, .socialWorker, admin: admin)
    }
}

/// Runs `test` against the server with `tenants` fresh tenants that have sharing on
/// (``SharingHTTP/tenant``), and the ``SharingAgency`` made in the first.
func withSharingAgency(
    tenants: Int = 1, _ test: @escaping @Sendable (AccountsHarness, SharingAgency) async throws -> Void
) async throws {
    try await withAccounts(tenants: tenants, tweak: SharingHTTP.tenant) { h in try await test(h, try await SharingAgency(h)) }
}

extension AccountsHarness {
    /// Writes a TEXT entry as `person` on `date` with `text` (and tags, files): its id.
    func write(_ text: String, on date: String = "2026-11-20", tags: [String] = [], media: [GraphQLValue] = [], as person: TestPerson)
        async throws -> GraphQLValue
    {
        let entry = try await createEntry(
            ["date": .string(date), "kind": .string("TEXT"), "text": .string(text), "mood": .string("Okay"),
             "tagIds": .list(tags.map(GraphQLValue.string)), "mediaIds": .list(media)], token: person.token)
        return try #require(entry["id"])
    }

    /// A tag of `person`'s named `name`: its id.
    func tag(_ name: String, as person: TestPerson) async throws -> String {
        let created = try await data("mutation($n: String!) { createTag(name: $n) { id } }", "createTag", ["n": .string(name)], as: person)
        return try #require(created.id)
    }

    /// Shares `entry` with `people` as `author`, which must succeed: the entry's `sharedWith`.
    @discardableResult
    func share(_ entry: GraphQLValue, with people: [TestPerson], message: String? = nil, as author: TestPerson) async throws -> [GraphQLValue] {
        let shared = try await data(
            SharingHTTP.shareEntry, "shareEntry",
            ["e": entry, "p": .list(people.map(\.idValue)), "m": message.map(GraphQLValue.string) ?? .null], as: author)
        return shared["sharedWith"]?.listValue ?? []
    }

    /// The first page (100) of what `youngPerson` shared with `adult`: the shares.
    func sharedWithMe(_ youngPerson: TestPerson, as adult: TestPerson, unseenOnly: Bool = false) async throws -> [GraphQLValue] {
        try await data(
            SharingHTTP.sharedWithMe, "sharedWithMe", ["y": youngPerson.idValue, "first": .int(100), "unseen": .bool(unseenOnly)],
            as: adult
        ).nodes
    }

    /// `person`'s notifications, newest first.
    func notifications(of person: TestPerson) async throws -> [GraphQLValue] {
        try await data(SharingHTTP.notifications, "notifications", as: person).nodes
    }
}
