import Foundation
import GraphQL
import HummingbirdTesting
import Storykeep
import StorykeepTestSupport
import Testing

/// The right of access over HTTP: `requestMyData` and `exportPersonData` build a ZIP in the
/// background, which a signed link downloads once.
@Suite struct PrivacyAccessHTTPTests {
    @Test func aYoungPersonsExportHoldsTheirDataAndDownloadsOnce() async throws {
        try await withAccounts(tweak: PrivacyHTTP.tenant) { h in
            let ada = try await h.cast(.ada)
            let sam = try await h.person(.youngPerson, "sam", displayName: "Sam Quill")
            let wendy = try await h.cast(.wendy)
            try await h.assign(sam, wendy, .socialWorker, admin: ada)
            let picture = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            let entry = try await h.write("The marmalade kite flew", tags: [try await h.tag("kites", as: sam)], media: [try #require(picture["id"])], as: sam)
            let gone = try await h.write("An archived thought", as: sam)
            _ = try await h.data("mutation($id: ID!) { deleteEntry(id: $id) }", "deleteEntry", ["id": gone], as: sam)
            try await h.share(entry, with: [wendy], message: "for you", as: sam)
            try await h.sendPrompt("What made you smile?", to: sam, from: wendy)
            try await h.raiseAlert("please call", as: sam)

            let requested = try await h.data(PrivacyHTTP.requestMyData, "requestMyData", as: sam)
            #expect(requested["status"]?.stringValue == "PENDING")
            #expect(requested["downloadUrl"] == .null)
            let id = try #require(requested["id"])
            #expect(try await h.buildDataExports().built == 1)
            let ready = try await h.data(PrivacyHTTP.dataExport, "dataExport", ["id": id], as: sam)
            #expect(ready["status"]?.stringValue == "READY")
            #expect(ready["progress"]?.intValue == 100)
            let url = try #require(ready["downloadUrl"]?.stringValue)

            // Someone else cannot see it, not even an admin of the agency.
            #expect(try await h.data(PrivacyHTTP.dataExport, "dataExport", ["id": id], as: ada) == .null)

            let response = try await h.download(url)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/zip")
            let zip = Array(response.body.readableBytesView)
            let python = try await AccountsHarness.pythonZip(zip)
            #expect(python.first == "ok")
            let entries = zipEntries(zip)
            #expect(Set(python.dropFirst()) == Set(entries.keys))
            for name in [
                "README.txt", "account.json", "sessions.json", "passkeys.json", "profile.json", "entries.json", "check-ins.json", "media.json", "tags.json",
                "shares.json", "prompts.json", "stars.json", "achievements.json", "notifications.json", "assignments.json",
                "safety-alerts.json", "audit-events.json",
            ] {
                #expect(entries[name] != nil, "\(name) missing: \(entries.keys.sorted())")
            }
            let text = { (name: String) in String(decoding: entries[name] ?? [], as: UTF8.self) }
            #expect(text("entries.json").contains("The marmalade kite flew"))
            #expect(text("entries.json").contains("An archived thought"))
            #expect(text("tags.json").contains("kites"))
            #expect(text("shares.json").contains("for you"))
            #expect(text("prompts.json").contains("What made you smile?"))
            #expect(text("safety-alerts.json").contains("please call"))
            #expect(text("account.json").contains("Sam Quill"))
            #expect(text("assignments.json").contains("Wendy Walker"))
            #expect(!text("sessions.json").contains("token"))
            #expect(text("audit-events.json").contains("privacy.exported"))
            #expect(text("README.txt").contains("entries.json"))
            let pictureID = try #require(picture["id"]?.stringValue)
            #expect(entries["media/\(pictureID).png"] == SampleMedia.png)

            // Once only: the bytes are gone, and the export says so.
            #expect(try await h.download(url).status == .notFound)
            #expect(try await h.data(PrivacyHTTP.dataExport, "dataExport", ["id": id], as: sam)["status"]?.stringValue == "DOWNLOADED")
        }
    }

    @Test func aLinkChangedOrOfAnotherTenantOrExpiredIsRefused() async throws {
        try await withAccounts(tenants: 2, tweak: PrivacyHTTP.tenant) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let id = try #require(try await h.data(PrivacyHTTP.requestMyData, "requestMyData", as: sam)["id"])
            _ = try await h.buildDataExports()
            let url = try #require(try await h.data(PrivacyHTTP.dataExport, "dataExport", ["id": id], as: sam)["downloadUrl"]?.stringValue)
            let tampered = url.replacingOccurrences(of: "expires=", with: "expires=9")
            #expect(try await h.download(tampered).status == .forbidden)
            let otherTenant = url.replacingOccurrences(of: "/t/\(h.tenant.slug)/", with: "/t/\(h.tenants[1].slug)/")
            #expect(otherTenant != url)
            #expect(try await h.download(otherTenant).status == .forbidden)
            h.clock.advance(seconds: 8 * 86_400)
            #expect(try await h.download(url).status == .forbidden)
            #expect(try await h.buildDataExports().expired == 1)
            #expect(try await h.data(PrivacyHTTP.dataExport, "dataExport", ["id": id], as: sam)["status"]?.stringValue == "EXPIRED")
        }
    }

    @Test func anAdminExportsAPersonOfTheirAgencyOnly() async throws {
        try await withAccounts(tenants: 2, tweak: PrivacyHTTP.tenant) { h in
            let ada = try await h.cast(.ada)
            let sam = try await h.person(.youngPerson, "sam", displayName: "Sam Quill")
            let wendy = try await h.cast(.wendy)
            let foreign = try await h.person(.youngPerson, "fred", tenant: h.tenants[1])

            #expect(try await h.graphQL(PrivacyHTTP.exportPersonData, ["p": sam.idValue], token: wendy.token).errorCode == "FORBIDDEN")
            #expect(try await h.graphQL(PrivacyHTTP.exportPersonData, ["p": foreign.idValue], token: ada.token).errorCode == "NOT_FOUND")
            let bad = try await h.graphQL(PrivacyHTTP.exportPersonData, ["p": .string("nope")], token: ada.token)
            #expect(bad.errorCode == "NOT_FOUND")

            _ = try await h.write("Sam's own words", as: sam)
            let export = try await h.data(PrivacyHTTP.exportPersonData, "exportPersonData", ["p": sam.idValue], as: ada)
            #expect(export["personId"] == sam.idValue)
            _ = try await h.buildDataExports()
            let ready = try await h.data(PrivacyHTTP.dataExport, "dataExport", ["id": try #require(export["id"])], as: ada)
            let zip = Array(try await h.download(try #require(ready["downloadUrl"]?.stringValue)).body.readableBytesView)
            let entries = zipEntries(zip)
            #expect(String(decoding: entries["entries.json"] ?? [], as: UTF8.self).contains("Sam's own words"))
            #expect(String(decoding: entries["account.json"] ?? [], as: UTF8.self).contains("Sam Quill"))

            // The audit trail has both exports' events about Sam.
            let log = try await h.data(
                "query($p: ID!) { auditLog(filter: { subjectPersonId: $p, action: \"privacy.exported\" }) { edges { node { actorPersonId } } } }",
                "auditLog", ["p": sam.idValue], as: ada)
            #expect(log.nodes.map { $0["actorPersonId"] } == [ada.idValue])
        }
    }
}
