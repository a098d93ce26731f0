import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 13: `people` for agency admins gains what HealthSpace's admin lists: last seen, posts
// count, open reports (Migrations/0044_social_admin_people.sql).
@Suite("Social over HTTP: the admins' people columns")
struct SocialAdminPeopleHTTPTests {
    static let people = "{ people(first: 100) { edges { node { id lastSeenAt postCount openReports } } } }"

    @Test func adminsSeeLastSeenPostsAndOpenReportsOfEachPerson() async throws {
        try await withSocial { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam"), fay = try await h.person(.youngPerson, "fay"), nia = try await h.person(.youngPerson, "nia")
            for (person, name) in [(sam, "Sky"), (fay, "Fay"), (nia, "Nia")] { try await h.socialProfile(person, name) }
            let kept = try await h.post("kept", as: sam)
            let gone = try await h.post("gone", as: sam)
            _ = try await h.post("fay's", as: fay)
            _ = try await h.data("mutation($id: ID!) { deletePost(id: $id) }", "deletePost", ["id": .string(gone)], as: sam)
            let comment = try #require(try await h.data(SocialHTTP.comment, "comment", ["p": .string(kept), "t": "fay's comment"], as: fay).id)
            for person in [fay, nia] {
                _ = try await h.data("mutation($p: ID!) { reportPost(postId: $p, reason: SPAM) }", "reportPost", ["p": .string(kept)], as: person)
            }
            _ = try await h.data("mutation($c: ID!) { reportComment(commentId: $c, reason: SPAM) }", "reportComment", ["c": .string(comment)], as: nia)
            _ = try await h.data("mutation($c: ID!) { dismissReports(contentId: $c) }", "dismissReports", ["c": .string(comment)], as: ada)

            let rows = Dictionary(uniqueKeysWithValues: try await h.data(Self.people, "people", as: ada).nodes.map { ($0.id ?? "", $0) })
            let row = { (person: TestPerson) in rows[person.id.lowercased] }
            #expect(row(sam)?["postCount"] == 1 && row(sam)?["openReports"] == 2)
            #expect(row(fay)?["postCount"] == 1 && row(fay)?["openReports"] == 0)
            #expect(row(nia)?["postCount"] == 0)
            for person in [sam, fay, nia, ada] { #expect(row(person)?["lastSeenAt"]?.stringValue != nil, "\(person.loginName)") }
            // Nobody else reads them, not even of themselves.
            let own = try await h.data("{ me { lastSeenAt postCount openReports } }", "me", as: sam)
            #expect(own == ["lastSeenAt": .null, "postCount": .null, "openReports": .null])
        }
    }
}
