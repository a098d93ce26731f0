import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 13's `resharePost` over HTTP: a reshare shows its original only to who may read the
// original, goes to no wider an audience, and shows a deleted or removed original as
// unavailable (Migrations/0043_social_reshares.sql).
@Suite("Social over HTTP: reshares")
struct SocialResharesHTTPTests {
    static let reshare = """
        mutation($p: ID!, $c: String, $v: PostVisibility) { resharePost(postId: $p, comment: $c, visibility: $v) {
          id text visibility groupId reshare resharedPost { id text author { displayName } } } }
        """
    static let timeline = "{ timeline(first: 100) { edges { node { id text reshare resharedPost { id text } } } } }"

    /// What `person` reads of the reshare `id` on their timeline: nil when it is not there, else
    /// the original's text (nil when it is unavailable to them).
    static func seen(_ h: AccountsHarness, _ id: String, as person: TestPerson) async throws -> String?? {
        guard let node = try await h.data(Self.timeline, "timeline", as: person).nodes.first(where: { $0.id == id }) else { return nil }
        return .some(node["resharedPost"]?["text"]?.stringValue)
    }

    @Test func aReshareShowsTheOriginalOnlyToWhoMayReadIt() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam"), fay = try await h.person(.youngPerson, "fay")
            let nia = try await h.person(.youngPerson, "nia"), bo = try await h.person(.youngPerson, "bo")
            for (person, name) in [(sam, "Sky"), (fay, "Fay"), (nia, "Nia"), (bo, "Bo")] { try await h.socialProfile(person, name) }
            try await h.befriend(sam, fay)
            try await h.befriend(fay, nia)
            try await h.befriend(fay, bo)
            let forAll = try await h.post("sam to all", "AGENCY", as: sam)
            let forFriends = try await h.post("sam to friends", "FRIENDS", as: sam)
            _ = try await h.data(SocialHTTP.block, "blockPerson", ["p": bo.idValue], as: sam)

            // Fay reshares both. The agency post: to the agency by default.
            let wide = try await h.data(Self.reshare, "resharePost", ["p": .string(forAll), "c": "look!"], as: fay)
            #expect(wide["visibility"] == "AGENCY" && wide["reshare"] == true && wide["text"] == "look!")
            #expect(wide["resharedPost"]?["text"] == "sam to all" && wide["resharedPost"]?["author"]?["displayName"] == "Sky")
            // The friends' post: never to the agency; to Fay's friends, where only Sam's friends read it.
            let widened = try await h.graphQL(Self.reshare, ["p": .string(forFriends), "v": "AGENCY"], token: fay.token)
            #expect(widened.errorCode == "BAD_USER_INPUT" && widened.errorExtensions?["field"] == "visibility", "\(widened.json)")
            let narrow = try await h.data(Self.reshare, "resharePost", ["p": .string(forFriends)], as: fay)
            #expect(narrow["visibility"] == "FRIENDS")
            let wideID = try #require(wide.id), narrowID = try #require(narrow.id)

            // Nia (Fay's friend, not Sam's): the agency original, not the friends' one.
            #expect(try await Self.seen(h, wideID, as: nia) == .some("sam to all"))
            #expect(try await Self.seen(h, narrowID, as: nia) == .some(nil))
            // Bo, blocked by Sam: Fay's reshares, with Sam's originals unavailable.
            #expect(try await Self.seen(h, wideID, as: bo) == .some(nil))
            #expect(try await Self.seen(h, narrowID, as: bo) == .some(nil))
            // Sam is told of each reshare, by the resharer's display name.
            #expect(try await h.notices(of: sam).filter { $0.kind == "postReshared" }.map(\.title) == ["Fay shared your post", "Fay shared your post"])
            // Nia may not reshare what she cannot read; Bo neither.
            #expect(try await h.graphQL(Self.reshare, ["p": .string(forFriends)], token: nia.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(Self.reshare, ["p": .string(forAll)], token: bo.token).errorCode == "NOT_FOUND")
            // Resharing a reshare reshares its original.
            let again = try await h.data(Self.reshare, "resharePost", ["p": .string(wideID), "v": "FRIENDS"], as: nia)
            #expect(again["resharedPost"]?["id"]?.stringValue == forAll && again["visibility"] == "FRIENDS")
        }
    }

    @Test func aDeletedOrRemovedOriginalIsUnavailableAndAGroupsPostStaysInIt() async throws {
        try await withSocial { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam"), fay = try await h.person(.youngPerson, "fay")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(fay, "Fay")
            let deleted = try await h.post("soon gone", "AGENCY", as: sam)
            let removed = try await h.post("soon removed", "AGENCY", as: sam)
            let r1 = try #require(try await h.data(Self.reshare, "resharePost", ["p": .string(deleted)], as: fay).id)
            let r2 = try #require(try await h.data(Self.reshare, "resharePost", ["p": .string(removed)], as: fay).id)
            _ = try await h.data("mutation($id: ID!) { deletePost(id: $id) }", "deletePost", ["id": .string(deleted)], as: sam)
            _ = try await h.data("mutation($id: ID!) { removePost(id: $id, reason: \"no\") { id } }", "removePost", ["id": .string(removed)], as: ada)
            for person in [fay, sam] {
                #expect(try await Self.seen(h, r1, as: person) == .some(nil))
                #expect(try await Self.seen(h, r2, as: person) == .some(nil))
            }
            #expect(try await h.graphQL(Self.reshare, ["p": .string(removed)], token: fay.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(Self.reshare, ["p": .string(deleted)], token: fay.token).errorCode == "NOT_FOUND")
            // A group's post goes back into the group, whatever is asked.
            let group = try #require(try await h.data("mutation { createGroup(name: \"Art\") { id } }", "createGroup", as: ada).id)
            for person in [sam, fay] { _ = try await h.data("mutation($g: ID!) { joinGroup(groupId: $g) { id } }", "joinGroup", ["g": .string(group)], as: person) }
            let inGroup = try await h.post("group only", "AGENCY", ["groupId": .string(group)], as: sam)
            let reshared = try await h.data(Self.reshare, "resharePost", ["p": .string(inGroup), "v": "AGENCY"], as: fay)
            #expect(reshared["groupId"]?.stringValue == group)
            let long = try await h.graphQL(Self.reshare, ["p": .string(inGroup), "c": .string(String(repeating: "x", count: 2001))], token: fay.token)
            #expect(long.errorCode == "BAD_USER_INPUT" && long.errorExtensions?["field"] == "comment")
        }
    }
}
