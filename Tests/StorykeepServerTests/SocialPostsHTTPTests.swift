import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 13, second slice over HTTP: posts, the timeline, reactions, comments, files and groups.
@Suite("Social over HTTP: posts and the timeline")
struct SocialPostsHTTPTests {
    @Test func theTimelineHoldsWhatEachMayReadNewestFirst() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            let cal = try await h.person(.youngPerson, "cal"), pia = try await h.person(.youngPerson, "pia")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(bea, "Bee")
            try await h.socialProfile(cal, "Cal")
            try await h.socialProfile(pia, "Pia", private: true)
            try await h.befriend(sam, bea)
            _ = try await h.post("sam to all", as: sam)
            _ = try await h.post("sam to friends", "FRIENDS", as: sam)
            _ = try await h.post("pia to all, but private", as: pia)
            _ = try await h.post("cal to all", as: cal)
            #expect(try await h.timelineTexts(sam) == ["cal to all", "sam to friends", "sam to all"])
            #expect(try await h.timelineTexts(bea) == ["cal to all", "sam to friends", "sam to all"])
            #expect(try await h.timelineTexts(cal) == ["cal to all", "sam to all"])
            #expect(try await h.timelineTexts(pia) == ["cal to all", "pia to all, but private", "sam to all"])
            // A profile's posts: what the reader may read of them.
            let ofSam = try await h.data(SocialHTTP.postsOf, "posts", ["a": sam.idValue], as: cal).nodes.compactMap { $0["text"]?.stringValue }
            #expect(ofSam == ["sam to all"])
            #expect(try await h.data(SocialHTTP.postsOf, "posts", ["a": pia.idValue], as: cal).nodes == [])

            // Pages with stable cursors: a post written meanwhile does not shift the next page.
            let first = try await h.data(SocialHTTP.timeline, "timeline", ["first": 2], as: sam)
            #expect(first.nodes.compactMap { $0["text"]?.stringValue } == ["cal to all", "sam to friends"])
            _ = try await h.post("later", as: cal)
            let next = try await h.data(SocialHTTP.timeline, "timeline", ["first": 2, "after": first["pageInfo"]!["endCursor"]!], as: sam)
            #expect(next.nodes.compactMap { $0["text"]?.stringValue } == ["sam to all"])
            #expect(next["pageInfo"]?["hasNextPage"] == false)
            let bad = try await h.graphQL(SocialHTTP.timeline, ["after": "nonsense"], token: sam.token)
            #expect(bad.errorCode == "BAD_USER_INPUT")
        }
    }

    @Test func writingEditingAndDeletingAPost() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(bea, "Bee")
            let made = try await h.data(
                SocialHTTP.createPost, "createPost", ["i": ["text": "  look  ", "link": "https://example.org/a?b=c", "visibility": "AGENCY"]], as: sam)
            #expect(made["text"] == "look")
            #expect(made["link"] == "https://example.org/a?b=c")
            #expect(made["status"] == "PUBLISHED")
            #expect(made["edited"] == false)
            #expect(made["author"] == ["personId": sam.idValue, "displayName": "Sky"])
            let id = try #require(made.id)
            let edit = "mutation($id: ID!, $t: String) { editPost(id: $id, text: $t) { text link edited } }"
            #expect(try await h.graphQL(edit, ["id": .string(id), "t": "mine now"], token: bea.token).errorCode == "NOT_FOUND")
            let edited = try await h.data(edit, "editPost", ["id": .string(id), "t": "changed"], as: sam)
            #expect(edited == ["text": "changed", "link": .null, "edited": true])
            #expect(try await h.timelineTexts(bea) == ["changed"])
            let delete = "mutation($id: ID!) { deletePost(id: $id) }"
            #expect(try await h.graphQL(delete, ["id": .string(id)], token: bea.token).errorCode == "NOT_FOUND")
            _ = try await h.data(delete, "deletePost", ["id": .string(id)], as: sam)
            #expect(try await h.timelineTexts(bea) == [])
            #expect(try await h.timelineTexts(sam) == [])
            #expect(try await h.graphQL(delete, ["id": .string(id)], token: sam.token).errorCode == "NOT_FOUND")
        }
    }

    @Test func badPostsAreRefusedAndNothingIsStored() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(bea, "Bee")
            let beas = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: bea.token)
            let admin = try await h.person(.agencyAdmin, "ada")
            let group = try await h.data("mutation { createGroup(name: \"Football\") { id } }", "createGroup", as: admin)
            let refused: [(GraphQLObject, String)] = [
                (["text": .string(String(repeating: "x", count: 2001))], "input.text"),
                (["text": "   "], "input.text"),
                ([:], "input.text"),
                (["link": "javascript:alert(1)"], "input.link"),
                (["link": "ftp://example.org/x"], "input.link"),
                (["link": "https://exa mple.org"], "input.link"),
                (["text": "hi", "mediaIds": .list([beas["id"]!])], "input.mediaIds"),
                (["text": "hi", "mediaIds": .list([.string(UUID().uuidString)])], "input.mediaIds"),
                (["text": "hi", "mediaIds": .list((0...10).map { _ in .string(UUID().uuidString) })], "input.mediaIds"),
                (["text": "hi", "groupId": group["id"]!], "input.groupId"),
                (["text": "hi", "groupId": .string(UUID().uuidString)], "input.groupId"),
            ]
            for (input, field) in refused {
                let response = try await h.graphQL(SocialHTTP.createPost, ["i": .object(input)], token: sam.token)
                #expect(response.errorCode == "BAD_USER_INPUT", "\(input)")
                #expect(response.errorExtensions?["field"]?.stringValue == field, "\(input): \(response)")
            }
            #expect(try await h.timelineTexts(sam) == [])
            // Exactly 2,000 characters is a post.
            _ = try await h.post(String(repeating: "é", count: 2000), as: sam)
            #expect(try await h.timelineTexts(sam).count == 1)
        }
    }

    @Test func reactionsAndCommentsTellTheAuthor() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(bea, "Bee")
            let post = try await h.post("hello", as: sam)
            let p: GraphQLValue = .string(post)
            let reacted = try await h.data(SocialHTTP.react, "react", ["p": p, "k": "LOVE"], as: bea)
            #expect(reacted == ["reactions": [["kind": "LOVE", "count": 1, "mine": true]], "myReaction": "LOVE"])
            let changed = try await h.data(SocialHTTP.react, "react", ["p": p, "k": "HUG"], as: bea)
            #expect(changed["myReaction"] == "HUG")
            _ = try await h.data(SocialHTTP.react, "react", ["p": p, "k": "HUG"], as: sam)
            let seen = try await h.data("query($id: ID!) { post(id: $id) { reactions { kind count mine } myReaction } }", "post", ["id": p], as: sam)
            #expect(seen == ["reactions": [["kind": "HUG", "count": 2, "mine": true]], "myReaction": "HUG"])
            let taken = try await h.data(SocialHTTP.react, "react", ["p": p, "k": .null], as: bea)
            #expect(taken == ["reactions": [["kind": "HUG", "count": 1, "mine": false]], "myReaction": .null])
            #expect(try await h.graphQL(SocialHTTP.react, ["p": p, "k": "ANGRY"], token: bea.token).errorCode == "BAD_USER_INPUT")
            #expect(try await h.graphQL(SocialHTTP.react, ["p": .string(UUID().uuidString), "k": "LIKE"], token: bea.token).errorCode == "NOT_FOUND")

            let comment = try await h.data(SocialHTTP.comment, "comment", ["p": p, "t": " nice one "], as: bea)
            #expect(comment["text"] == "nice one")
            #expect(comment["author"] == ["displayName": "Bee"])
            for text in ["", "   ", String(repeating: "c", count: 1001)] {
                let response = try await h.graphQL(SocialHTTP.comment, ["p": p, "t": .string(text)], token: bea.token)
                #expect(response.errorExtensions?["field"] == "text")
            }
            #expect(try await h.data(SocialHTTP.comments, "comments", ["p": p], as: sam).nodes.compactMap { $0["text"]?.stringValue } == ["nice one"])
            #expect(try await h.data(SocialHTTP.timeline, "timeline", as: sam).nodes.first?["commentCount"] == 1)
            // The author is told once of the first reaction and of each comment, never of their own.
            let kinds = try await h.data(SocialHTTP.notifications, "notifications", as: sam).nodes
                .filter { $0["subjectId"]?.stringValue == post }.compactMap { $0["kind"]?.stringValue }
            #expect(kinds == ["postComment", "postReaction"])
            #expect(try await h.data(SocialHTTP.notifications, "notifications", as: bea).nodes.filter { $0["subjectKind"] == "post" } == [])

            let delete = "mutation($id: ID!) { deleteComment(id: $id) }"
            #expect(try await h.graphQL(delete, ["id": comment["id"]!], token: sam.token).errorCode == "NOT_FOUND")
            _ = try await h.data(delete, "deleteComment", ["id": comment["id"]!], as: bea)
            #expect(try await h.data(SocialHTTP.comments, "comments", ["p": p], as: sam).nodes == [])
        }
    }

    @Test func aPostsFilesAreServedToItsReadersAlone() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            let cal = try await h.person(.youngPerson, "cal")
            for (person, name) in [(sam, "Sky"), (bea, "Bee"), (cal, "Cal")] { try await h.socialProfile(person, name) }
            try await h.befriend(sam, bea)
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            let made = try await h.data(
                SocialHTTP.createPost, "createPost", ["i": ["text": "my drawing", "mediaIds": .list([photo["id"]!]), "visibility": "FRIENDS"]],
                as: sam)
            let url = try #require(made["media"]?.listValue?.first?["url"]?.stringValue)
            #expect(try await h.get(url, token: bea.token).status == .ok)
            let partial = try await h.get(url, token: bea.token, headers: [.range: "bytes=0-3"])
            #expect(partial.status == .partialContent)
            #expect(try await h.get(url, token: cal.token).status == .notFound)
            _ = try await h.data(SocialHTTP.block, "blockPerson", ["p": sam.idValue], as: bea)
            #expect(try await h.get(url, token: bea.token).status == .notFound)
        }
    }

    @Test func groupsAreMadeByAdminsAndReadByTheirMembers() async throws {
        try await withSocial { h in
            let sam = try await h.person(.youngPerson, "sam"), bea = try await h.person(.youngPerson, "bea")
            let admin = try await h.person(.agencyAdmin, "ada")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(bea, "Bee")
            let create = "mutation($n: String!, $d: String) { createGroup(name: $n, description: $d) { id name description joined } }"
            #expect(try await h.graphQL(create, ["n": "Asthma"], token: sam.token).errorCode == "FORBIDDEN")
            let group = try await h.data(create, "createGroup", ["n": " Asthma ", "d": "Living with asthma"], as: admin)
            #expect(group["name"] == "Asthma")
            #expect(try await h.graphQL(create, ["n": "asthma"], token: admin.token).errorExtensions?["field"] == "name")
            #expect(try await h.graphQL(create, ["n": .string(String(repeating: "g", count: 81))], token: admin.token).errorExtensions?["field"] == "name")
            let join = "mutation($g: ID!) { joinGroup(groupId: $g) { joined } }"
            #expect(try await h.data(join, "joinGroup", ["g": group["id"]!], as: sam) == ["joined": true])
            _ = try await h.post("in the group", "AGENCY", ["groupId": group["id"]!], as: sam)
            #expect(try await h.timelineTexts(sam) == ["in the group"])
            #expect(try await h.timelineTexts(bea) == [])
            let groupPosts = "query($g: ID!) { groupPosts(groupId: $g) { edges { node { text groupId } } } }"
            #expect(try await h.data(groupPosts, "groupPosts", ["g": group["id"]!], as: bea).nodes == [])
            _ = try await h.data(join, "joinGroup", ["g": group["id"]!], as: bea)
            #expect(try await h.data(groupPosts, "groupPosts", ["g": group["id"]!], as: bea).nodes == [["text": "in the group", "groupId": group["id"]!]])
            let leave = "mutation($g: ID!) { leaveGroup(groupId: $g) { joined } }"
            #expect(try await h.data(leave, "leaveGroup", ["g": group["id"]!], as: bea) == ["joined": false])
            #expect(try await h.timelineTexts(bea) == [])
            #expect(try await h.graphQL(join, ["g": .string(UUID().uuidString)], token: bea.token).errorCode == "NOT_FOUND")
            #expect(try await h.data("{ groups { name joined } }", "groups", as: sam) == [["name": "Asthma", "joined": true]])
        }
    }
}
