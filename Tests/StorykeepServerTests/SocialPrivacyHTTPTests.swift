import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 13, the privacy attack over HTTP: Sam posts for the agency (with a photo) and for his
// friends, Fay (his friend) comments and reacts. Then everyone tries every path: the timeline,
// Sam's profile posts, the post by id, its comments, search, the photo's URL and notifications:
// Bo (blocked by Sam), Nia (no friend of Pia, whose profile is private), Olly (another agency),
// Stu (suspended), Wes (a social worker: an adult not taking part) and Ada (the admin). Each gets
// nothing they may not see. The same attack as direct SQL is SocialPolicyTests.
@Suite("Social over HTTP: the privacy attack")
struct SocialPrivacyHTTPTests {
    /// What one person reads of Sam's and Pia's by every path.
    struct Reading: Equatable, CustomStringConvertible {
        var timeline: [String] = []
        var profilePosts: [String] = []
        var byID: [String] = []
        var comments: [String] = []
        var found: [String] = []
        var photo = 0
        var told: [String] = []
        var description: String {
            "timeline \(timeline), profile \(profilePosts), byID \(byID), comments \(comments), found \(found), photo \(photo), told \(told)"
        }
    }

    struct World {
        let sam: TestPerson, pia: TestPerson
        let agencyPost: String, friendsPost: String, piaPost: String, photo: String
    }

    static func read(_ h: AccountsHarness, _ person: TestPerson, _ w: World, tenant: TestTenant? = nil) async throws -> Reading {
        var reading = Reading()
        let ask = { (query: String, variables: GraphQLObject) in try await h.graphQL(query, variables, token: person.token, tenant: tenant) }
        let texts = { (value: GraphQLValue?) in value?.nodes.compactMap { $0["text"]?.stringValue } ?? [] }
        reading.timeline = texts(try await ask(SocialHTTP.timeline, ["first": 100])["data"]?["timeline"])
        for author in [w.sam, w.pia] {
            reading.profilePosts += texts(try await ask(SocialHTTP.postsOf, ["a": author.idValue])["data"]?["posts"])
        }
        for id in [w.agencyPost, w.friendsPost, w.piaPost] {
            if let text = try await ask("query($id: ID!) { post(id: $id) { text } }", ["id": .string(id)])["data"]?["post"]?["text"]?.stringValue {
                reading.byID.append(text)
            }
            reading.comments += texts(try await ask(SocialHTTP.comments, ["p": .string(id)])["data"]?["comments"])
        }
        for name in ["sky", "pia"] {
            reading.found += try await ask(SocialHTTP.search, ["q": .string(name)])["data"]?["searchPeople"]?.listValue?
                .compactMap { $0["displayName"]?.stringValue } ?? []
        }
        reading.photo = Int(try await h.get(w.photo, token: person.token).status.code)
        let ours = Set([w.agencyPost, w.friendsPost, w.piaPost])
        reading.told = (try await ask(SocialHTTP.notifications, [:])["data"]?["notifications"]?.nodes ?? [])
            .filter { ours.contains($0["subjectId"]?.stringValue ?? "") }.compactMap { $0["kind"]?.stringValue }
        return reading
    }

    @Test func everyoneTriesEveryPathAndGetsOnlyWhatTheyMaySee() async throws {
        try await withAccounts(tenants: 2, tweak: { _, file in file.modules = [.social] }) { h in
            let sam = try await h.person(.youngPerson, "sam"), fay = try await h.person(.youngPerson, "fay")
            let bo = try await h.person(.youngPerson, "bo"), nia = try await h.person(.youngPerson, "nia")
            let pia = try await h.person(.youngPerson, "pia"), stu = try await h.person(.youngPerson, "stu")
            let wes = try await h.person(.socialWorker, "wes"), ada = try await h.person(.agencyAdmin, "ada")
            for (person, name) in [(sam, "Sky"), (fay, "Fay"), (bo, "Bo"), (nia, "Nia"), (stu, "Stu")] { try await h.socialProfile(person, name) }
            try await h.socialProfile(pia, "Pia", private: true)
            try await h.befriend(sam, fay)
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            let agencyPost = try await h.post("sam to all", "AGENCY", ["mediaIds": .list([photo["id"]!])], as: sam)
            let friendsPost = try await h.post("sam to friends", "FRIENDS", as: sam)
            let piaPost = try await h.post("pia to all", "AGENCY", as: pia)
            _ = try await h.data(SocialHTTP.comment, "comment", ["p": .string(agencyPost), "t": "fay says hi"], as: fay)
            _ = try await h.data(SocialHTTP.react, "react", ["p": .string(agencyPost), "k": "LOVE"], as: fay)
            _ = try await h.data(SocialHTTP.comment, "comment", ["p": .string(agencyPost), "t": "bo was here"], as: bo)
            _ = try await h.data(SocialHTTP.block, "blockPerson", ["p": bo.idValue], as: sam)
            _ = try await h.data(
                "mutation($p: ID!) { suspendPerson(personId: $p, until: \"2100-01-01T00:00:00Z\", reason: \"a break\") }", "suspendPerson",
                ["p": stu.idValue], as: ada)
            let w = World(sam: sam, pia: pia, agencyPost: agencyPost, friendsPost: friendsPost, piaPost: piaPost, photo: try #require(photo["url"]?.stringValue))

            // Fay, the friend: everything of Sam's, nothing of private Pia's but her name.
            #expect(try await Self.read(h, fay, w) == Reading(
                timeline: ["sam to friends", "sam to all"], profilePosts: ["sam to friends", "sam to all"],
                byID: ["sam to all", "sam to friends"], comments: ["bo was here", "fay says hi"], found: ["Sky", "Pia"], photo: 200))
            // Bo, blocked by Sam: nothing of Sam's anywhere, and Sam not found; Bo's own comment
            // on Sam's post is gone for Sam too.
            #expect(try await Self.read(h, bo, w) == Reading(found: ["Pia"], photo: 404))
            #expect(try await Self.read(h, sam, w).comments == ["fay says hi"])
            // Nia, nobody's friend: Sam's agency post only, nothing of Pia's but her name.
            #expect(try await Self.read(h, nia, w) == Reading(
                timeline: ["sam to all"], profilePosts: ["sam to all"], byID: ["sam to all"], comments: ["bo was here", "fay says hi"],
                found: ["Sky", "Pia"], photo: 200))
            // Stu, suspended: reads as anyone, writes nothing.
            #expect(try await Self.read(h, stu, w).timeline == ["sam to all"])
            #expect(try await h.graphQL(SocialHTTP.comment, ["p": .string(agencyPost), "t": "x"], token: stu.token).errorCode == "FORBIDDEN")
            // Wes, an adult who does not take part: refused, and the photo is not his.
            let wesReads = try await Self.read(h, wes, w)
            #expect(wesReads == Reading(photo: 404))
            #expect(try await h.graphQL(SocialHTTP.timeline, token: wes.token).errorCode == "FORBIDDEN")
            // Olly, of another agency: his session is nothing here, nor in his agency.
            let olly = try await h.person(.youngPerson, "olly", tenant: h.tenants[1])
            try await h.socialProfile(olly, "Olly", tenant: h.tenants[1])
            #expect(try await h.graphQL(SocialHTTP.timeline, token: olly.token).errorCode == "UNAUTHENTICATED")
            #expect(try await Self.read(h, olly, w, tenant: h.tenants[1]) == Reading(photo: 401))
            // Ada, the admin: no timeline of her own (she does not take part), but she moderates.
            #expect(try await h.graphQL(SocialHTTP.timeline, token: ada.token).errorCode == "FORBIDDEN")
            #expect(try await h.graphQL(SocialHTTP.search, ["q": "sky"], token: ada.token).errorCode == "FORBIDDEN")
            // Notifications about the posts: only their authors are told of anything.
            for person in [fay, bo, nia, stu, wes] {
                #expect(try await Self.read(h, person, w).told == [], "\(person.loginName)")
            }
        }
    }
}
