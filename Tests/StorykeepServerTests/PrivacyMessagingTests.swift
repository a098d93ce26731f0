import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

/// Issue 14's rights reach the messaging module (Migrations/0042_messaging.sql): a person's
/// conversations are in their data export, and go with them when they are erased, the other
/// person's side included (a conversation is the two's), with every report and file link.
@Suite("A person's messages: export and erasure")
struct PrivacyMessagingTests {
    @Test func conversationsAreExportedThenErasedWithThePerson() async throws {
        try await withAccounts(tweak: MessagingHTTP.tenant) { h in
            let ada = try await h.cast(.ada)
            let zeb = try await h.person(.youngPerson, "zeb", displayName: "Zebedee Quillfeather")
            let amy = try await h.person(.youngPerson, "amy")
            try await h.socialProfile(zeb, "Zeb the Zephyrquill")
            try await h.socialProfile(amy, "Amy")
            try await h.befriend(zeb, amy)
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: zeb.token)
            _ = try await h.data(
                "mutation($p: ID!, $m: [ID!]) { sendMessage(personId: $p, text: \"zephyrquill whispers\", mediaIds: $m) { id } }",
                "sendMessage", ["p": amy.idValue, "m": .list([photo["id"]!])], as: zeb)
            let reply = try #require(try await h.message("Amy answers", to: zeb, as: amy).id)
            _ = try await h.data(MessagingHTTP.report, "reportMessage", ["m": .string(reply)], as: zeb)

            // The export: both sides of the conversation, as Zeb reads it.
            let requested = try #require(try await h.data(PrivacyHTTP.requestMyData, "requestMyData", as: zeb)["id"])
            #expect(try await h.buildDataExports().built == 1)
            let url = try #require(try await h.data(PrivacyHTTP.dataExport, "dataExport", ["id": requested], as: zeb)["downloadUrl"]?.stringValue)
            let messages = String(decoding: zipEntries(Array(try await h.download(url).body.readableBytesView))["messages.json"] ?? [], as: UTF8.self)
            #expect(messages.contains("zephyrquill whispers") && messages.contains("Amy answers"), "\(messages)")

            let names = [zeb.id.lowercased, zeb.loginName, "Zebedee Quillfeather", "Zephyrquill", "zephyrquill"]
            _ = try await h.data(PrivacyHTTP.erasePerson, "erasePerson", ["p": zeb.idValue, "c": "Zebedee Quillfeather"], as: ada)

            #expect(try await PrivacyScan.find(names, in: h.tenant.id, owner: h.owner) == ["audit_events.subject_person_id (privacy.erased)"])
            #expect(try await h.data(MessagingHTTP.conversations, "conversations", as: amy).listValue == [])
            #expect(try await h.data("{ unreadMessageCount }", "unreadMessageCount", as: amy) == 0)
        }
    }
}
