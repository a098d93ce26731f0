import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

/// Issue 14's rights reach the social module: a young person's export holds their social life
/// (SocialPersonData.swift); erasure (Migrations/0038_privacy_later_modules.sql) takes it with
/// them, while an admin's part in others' records stays, nameless.
@Suite("Access to and erasure of a person's social life")
struct PrivacySocialErasureTests {
    static let social: @Sendable (Int, inout TenantFile) -> Void = { _, file in file.modules = [.social] }
    static let report = "mutation($p: ID!) { reportPost(postId: $p, reason: BULLYING, text: \"zephyrquill report\") }"
    static let suspend = "mutation($p: ID!) { suspendPerson(personId: $p, until: \"2100-01-01T00:00:00Z\", reason: \"Cooling off\") }"

    @Test func aYoungPersonsExportHoldsTheirSocialLifeButNotWhoReportedThem() async throws {
        try await withAccounts(tweak: Self.social) { h in
            let ada = try await h.cast(.ada)
            let zeb = try await h.person(.youngPerson, "zeb")
            let amy = try await h.person(.youngPerson, "amy")
            let bob = try await h.person(.youngPerson, "bob")
            try await h.socialProfile(zeb, "Zeb the Zephyrquill", bio: "quillbio all day")
            let cal = try await h.person(.youngPerson, "cal")
            try await h.socialProfile(amy, "Amy")
            try await h.socialProfile(bob, "Bob")
            try await h.socialProfile(cal, "Cal Reporterson")
            try await h.befriend(zeb, amy)
            _ = try await h.data(SocialHTTP.block, "blockPerson", ["p": bob.idValue], as: zeb)
            let zebs = try await h.post("zephyrquill says hello", as: zeb)
            let amys = try await h.post("Amy's own post", as: amy)
            _ = try await h.data(SocialHTTP.comment, "comment", ["p": .string(amys), "t": "zephyrquill comment"], as: zeb)
            _ = try await h.data(SocialHTTP.react, "react", ["p": .string(amys), "k": "LOVE"], as: zeb)
            _ = try await h.data(Self.report, "reportPost", ["p": .string(amys)], as: zeb)
            _ = try await h.data(Self.report, "reportPost", ["p": .string(zebs)], as: cal)
            _ = try await h.data(Self.suspend, "suspendPerson", ["p": zeb.idValue], as: ada)

            let requested = try await h.data(PrivacyHTTP.requestMyData, "requestMyData", as: zeb)
            #expect(try await h.buildDataExports().built == 1)
            let ready = try await h.data(PrivacyHTTP.dataExport, "dataExport", ["id": try #require(requested["id"])], as: zeb)
            let zip = Array(try await h.download(try #require(ready["downloadUrl"]?.stringValue)).body.readableBytesView)
            let text = { (name: String) in String(decoding: zipEntries(zip)[name] ?? [], as: UTF8.self) }

            #expect(text("social-profile.json").contains("quillbio all day"))
            #expect(text("posts.json").contains("zephyrquill says hello"))
            #expect(!text("posts.json").contains("Amy's own post"))
            #expect(text("comments.json").contains("zephyrquill comment"))
            #expect(text("reactions.json").contains("LOVE"))
            #expect(text("friends.json").contains(amy.id.lowercased))
            #expect(text("blocks.json").contains(bob.id.lowercased))
            #expect(text("reports.json").contains("zephyrquill report"))
            #expect(text("suspensions.json").contains("Cooling off"))
            #expect(text("README.txt").contains("posts.json"))
            // Cal's report of Zeb's post is not his to read, nor is Cal's name or id anywhere.
            let everything = zipEntries(zip).values.map { String(decoding: $0, as: UTF8.self) }.joined()
            #expect(everything.components(separatedBy: "zephyrquill report").count == 2, "only his own report")
            #expect(!everything.contains("Cal Reporterson"))
            #expect(!everything.contains(cal.id.lowercased))
        }
    }

    @Test func aYoungPersonsPostsCommentsFriendsAndBlocksGoWithThem() async throws {
        try await withAccounts(tweak: Self.social) { h in
            let ada = try await h.cast(.ada)
            let zeb = try await h.person(.youngPerson, "zeb", displayName: "Zebedee Quillfeather")
            let amy = try await h.person(.youngPerson, "amy")
            let bob = try await h.person(.youngPerson, "bob")
            try await h.socialProfile(zeb, "Zeb the Zephyrquill", bio: "zephyrquill all day")
            try await h.socialProfile(amy, "Amy")
            try await h.socialProfile(bob, "Bob")
            try await h.befriend(zeb, amy)
            _ = try await h.data(SocialHTTP.block, "blockPerson", ["p": bob.idValue], as: zeb)
            let zebs = try await h.post("zephyrquill says hello", as: zeb)
            let amys = try await h.post("Amy's own post", as: amy)
            _ = try await h.data(SocialHTTP.comment, "comment", ["p": .string(amys), "t": "zephyrquill comment"], as: zeb)
            _ = try await h.data(SocialHTTP.comment, "comment", ["p": .string(zebs), "t": "Amy likes it"], as: amy)
            _ = try await h.data(SocialHTTP.react, "react", ["p": .string(amys), "k": "LOVE"], as: zeb)
            _ = try await h.data(SocialHTTP.react, "react", ["p": .string(zebs), "k": "LOVE"], as: amy)
            _ = try await h.data(Self.report, "reportPost", ["p": .string(amys)], as: zeb)
            _ = try await h.data(Self.report, "reportPost", ["p": .string(zebs)], as: amy)
            let names = [zeb.id.lowercased, zeb.loginName, "Zebedee Quillfeather", "Zephyrquill", "zephyrquill"]
            #expect(try await PrivacyScan.find(names, in: h.tenant.id, owner: h.owner).count > 8)

            _ = try await h.data(PrivacyHTTP.erasePerson, "erasePerson", ["p": zeb.idValue, "c": "Zebedee Quillfeather"], as: ada)

            #expect(try await PrivacyScan.find(names, in: h.tenant.id, owner: h.owner) == ["audit_events.subject_person_id (privacy.erased)"])
            // Amy keeps her post; her friend and the comment on his post are gone.
            #expect(try await h.timelineTexts(amy) == ["Amy's own post"])
            #expect(try await h.data(SocialHTTP.friends, "friends", as: amy).listValue == [])
            // Bob, whom Zeb had blocked, sees the agency again, with nobody blocking him.
            #expect(try await h.timelineTexts(bob) == ["Amy's own post"])
        }
    }

    @Test func anAdminsGroupsAndSuspensionsStayWithoutTheirName() async throws {
        try await withAccounts(tweak: Self.social) { h in
            let ada = try await h.cast(.ada)
            let ida = try await h.person(.agencyAdmin, "ida", displayName: "Ida Moderator")
            let sam = try await h.person(.youngPerson, "sam")
            try await h.socialProfile(sam, "Sam")
            let group = try await h.data("mutation { createGroup(name: \"Art club\") { id } }", "createGroup", as: ida)
            _ = try await h.data(Self.suspend, "suspendPerson", ["p": sam.idValue], as: ida)

            _ = try await h.data(PrivacyHTTP.erasePerson, "erasePerson", ["p": ida.idValue, "c": "Ida Moderator"], as: ada)

            let names = [ida.id.lowercased, ida.loginName, "Ida Moderator"]
            #expect(try await PrivacyScan.find(names, in: h.tenant.id, owner: h.owner) == ["audit_events.subject_person_id (privacy.erased)"])
            let groups = try await h.data("{ groups { id name } }", "groups", as: sam)
            #expect(groups.listValue?.compactMap { $0["id"] } == [try #require(group["id"])])
            // The suspension still holds.
            let posting = try await h.graphQL(SocialHTTP.createPost, ["i": ["text": "hi", "visibility": "AGENCY"]], token: sam.token)
            #expect(posting.errorCode == "FORBIDDEN", "\(posting.json)")
        }
    }
}
