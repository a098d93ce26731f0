import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 14, the export feed: what young people share with their social workers reaches the case
// management system as UPSERTs and TOMBSTONEs, in order, never skipped or repeated, and the client
// reads nothing else. Over HTTP with a real PostgreSQL.

@Suite("Export: the feed over HTTP")
struct ExportFeedHTTPTests {
    static let update = "mutation($id: ID!, $i: EntryInput!) { updateEntry(id: $id, input: $i) { id } }"
    static let delete = "mutation($id: ID!) { deleteEntry(id: $id) }"
    static let restore = "mutation($id: ID!) { restoreEntry(id: $id) { id } }"
    static let end = "mutation($a: ID!) { endAssignment(assignmentId: $a) { id } }"

    @Test func sharingEditingUnsharingArchivingAndRestoringReachTheFeedInOrder() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let agency = try await SharingAgency(h)
            let (sam, wendy, carl) = (agency.a, agency.w, agency.c)
            let token = try await h.clientToken(try await h.cmsClient(admin: agency.admin))

            let tag = try await h.tag("school", as: sam)
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            let shared = try await h.write("Maths test went well", tags: [tag], media: [photo["id"]!], as: sam)
            let secret = try await h.write("Nobody reads this", as: sam)
            let forCarl = try await h.write("Only for Carl", as: sam)
            try await h.share(shared, with: [wendy, carl], message: "For my review", as: sam)
            try await h.share(forCarl, with: [carl], as: sam)

            // Both shares are in (the second as a TOMBSTONE: it is not for the record).
            var pulled = try await h.pull(token, after: nil) { $0.items.contains { $0["entryId"] == forCarl } }
            #expect(pulled.ops == ["UPSERT \(shared.stringValue!)", "TOMBSTONE \(forCarl.stringValue!)"])
            let first = try #require(pulled.items.first { $0["entryId"] == shared })
            #expect(first["op"] == .string("UPSERT"))
            let entry = try #require(first["entry"])
            #expect(entry["text"] == .string("Maths test went well") && entry["tags"] == .list([.string("school")]))
            #expect(entry["date"] == .string("2026-11-20") && entry["kind"] == .string("TEXT") && entry["mood"] == .string("Okay"))
            #expect(entry["youngPerson"]?["id"] == sam.idValue && entry["youngPerson"]?["displayName"] == .string("Sam"))
            let sharedWith = entry["sharedWith"]?.listValue ?? []
            #expect(Set(sharedWith.compactMap { $0["person"]?["id"] }) == [wendy.idValue, carl.idValue])
            #expect(Set(sharedWith.compactMap { $0["relationship"] }) == [.string("SOCIAL_WORKER"), .string("CARER")])
            #expect(sharedWith.allSatisfy { $0["message"] == .string("For my review") })
            #expect(entry["media"]?.listValue?.map { $0["id"] } == [photo["id"]])
            #expect(entry["media"]?.listValue?.first?["sha256"] == photo["sha256"])
            // Never a private entry, never one shared with a carer alone (the scope is `socialWorker`).
            #expect(!pulled.items.contains { $0["entryId"] == secret })
            let revision = try #require(entry["revision"]?.stringValue)

            // Edited while shared: the new text, a new revision. Edits of a private entry are not there.
            _ = try await h.data(Self.update, "updateEntry", ["id": shared, "i": .object([
                "date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string("Maths test went really well"),
                "mood": .string("Okay"), "mediaIds": .list([photo["id"]!]),
            ])], as: sam)
            _ = try await h.data(Self.update, "updateEntry", ["id": secret, "i": .object([
                "date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string("Still private"),
            ])], as: sam)
            let afterShare = pulled.cursor
            pulled = try await h.pull(token, after: afterShare) { !$0.items.isEmpty }
            #expect(pulled.ops == ["UPSERT \(shared.stringValue!)"])
            #expect(pulled.items.first?["entry"]?["text"] == .string("Maths test went really well"))
            #expect(pulled.items.first?["entry"]?["revision"] != .string(revision))
            let afterEdit = try #require(pulled.cursor)

            // Unshared from Wendy (still with Carl): a TOMBSTONE. Another, archived then restored.
            let other = try await h.write("Football on Saturday", as: sam)
            try await h.share(other, with: [wendy], as: sam)
            _ = try await h.data(SharingHTTP.unshareEntry, "unshareEntry", ["e": shared, "p": .list([wendy.idValue])], as: sam)
            pulled = try await h.pull(token, after: afterEdit) { $0.ops.count == 2 }
            #expect(pulled.ops == ["UPSERT \(other.stringValue!)", "TOMBSTONE \(shared.stringValue!)"])
            #expect(pulled.items.last?["entry"] == .null)
            let afterUnshare = try #require(pulled.cursor)
            _ = try await h.data(Self.delete, "deleteEntry", ["id": other], as: sam)
            pulled = try await h.pull(token, after: afterUnshare) { !$0.items.isEmpty }
            #expect(pulled.ops == ["TOMBSTONE \(other.stringValue!)"])
            _ = try await h.data(Self.restore, "restoreEntry", ["id": other], as: sam)
            pulled = try await h.pull(token, after: pulled.cursor) { !$0.items.isEmpty }
            #expect(pulled.ops == ["UPSERT \(other.stringValue!)"])

            // The assignment ends: what was shared in it goes.
            _ = try await h.data(Self.end, "endAssignment", ["a": agency.wAssignment], as: agency.admin)
            pulled = try await h.pull(token, after: pulled.cursor) { !$0.items.isEmpty }
            #expect(pulled.ops == ["TOMBSTONE \(other.stringValue!)"])
            let end = try #require(pulled.cursor)
            #expect(try await h.pull(token, after: end)["items"] == .list([]))

            // From an old cursor the feed replays from there, each entry as it is now.
            let replay = try await h.pull(token, after: afterEdit) { $0.cursor == end }
            #expect(replay.ops == ["TOMBSTONE \(shared.stringValue!)", "TOMBSTONE \(other.stringValue!)"])
            let whole = try await h.pull(token, after: nil) { $0.cursor == end }
            #expect(Set(whole.items.compactMap { $0["op"] == .string("UPSERT") ? $0["entryId"] : nil }).isEmpty)
        }
    }

    @Test func anAgencyThatKeepsWhatWasFiledAndExportsWhatAnyAdultWasShown() async throws {
        try await withAccounts(tweak: { index, file in
            ExportHTTP.tenant(index, &file)
            file.export.onRevoke = .keep
            file.export.scope = .anyAdult
        }) { h in
            let agency = try await SharingAgency(h)
            let (sam, carl) = (agency.a, agency.c)
            let token = try await h.clientToken(try await h.cmsClient(admin: agency.admin))
            let forCarl = try await h.write("Only for Carl", as: sam)
            try await h.share(forCarl, with: [carl], as: sam)
            var pulled = try await h.pull(token, after: nil) { !$0.items.isEmpty }
            #expect(pulled.ops == ["UPSERT \(forCarl.stringValue!)"])
            _ = try await h.data(SharingHTTP.unshareEntry, "unshareEntry", ["e": forCarl, "p": .null], as: sam)
            let marker = try await h.write("A marker", as: sam)
            try await h.share(marker, with: [carl], as: sam)
            pulled = try await h.pull(token, after: pulled.cursor) { !$0.items.isEmpty }
            #expect(pulled.ops == ["UPSERT \(marker.stringValue!)"], "no TOMBSTONE: the record keeps it")
        }
    }

    @Test func badArgumentsAreRefusedNamingThem() async throws {
        try await withAccounts(tenants: 2, tweak: ExportHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let token = try await h.clientToken(try await h.cmsClient(admin: ada))
            for (variables, field) in [
                (["first": GraphQLValue.int(501)], "first"), (["first": .int(-1)], "first"), (["after": .string("nope")], "after"),
            ] as [(GraphQLObject, String)] {
                let response = try await h.graphQL(ExportHTTP.changes, variables, token: token)
                #expect(response.errorCode == "BAD_USER_INPUT" && response.errorExtensions?["field"] == .string(field), "\(response.json)")
            }
            // A cursor of another agency's feed is refused.
            let ben = try await h.person(.agencyAdmin, "ben", tenant: h.tenants[1])
            let cms = try await h.cmsClient(admin: ben, tenant: h.tenants[1])
            let response = try await h.tokenRequest(for: cms, tenant: h.tenants[1])
            let otherToken = try #require(try response.json["access_token"]?.stringValue)
            let otherPage = try await h.graphQL(ExportHTTP.changes, [:], token: otherToken, tenant: h.tenants[1])
            let otherCursor = try #require(otherPage["data"]?["export"]?["changes"]?["cursor"])
            let refused = try await h.graphQL(ExportHTTP.changes, ["after": otherCursor], token: token)
            #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorExtensions?["field"] == .string("after"))
            let people = try await h.graphQL("query($a: ID) { export { youngPeople(after: $a) { id } } }", ["a": .string("x")], token: token)
            #expect(people.errorCode == "BAD_USER_INPUT" && people.errorExtensions?["field"] == .string("after"))
        }
    }

    @Test func aClientMapsTheAgencysYoungPeopleToItsCases() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let agency = try await SharingAgency(h)
            let token = try await h.clientToken(try await h.cmsClient(admin: agency.admin))
            let query = "query($a: ID, $f: Int) { export { youngPeople(after: $a, first: $f) { id externalRef displayName assignedSocialWorker { id displayName } } } }"
            let all = try #require(try await h.graphQL(query, token: token)["data"]?["export"]?["youngPeople"]?.listValue)
            let expected = [agency.a, agency.b].sorted { $0.id.uuidString.lowercased() < $1.id.uuidString.lowercased() }
            #expect(all.map { $0["id"] } == expected.map(\.idValue), "young people only, by id")
            let sam = try #require(all.first { $0["id"] == agency.a.idValue })
            #expect(sam["assignedSocialWorker"] == .object(["id": agency.w.idValue, "displayName": .string("Wendy Walker")]))
            let page = try await h.graphQL(query, ["a": expected[0].idValue, "f": .int(5)], token: token)
            #expect(page["data"]?["export"]?["youngPeople"]?.listValue?.map { $0["id"] } == [expected[1].idValue])
        }
    }
}

extension AccountsHarness {
    /// A new client of `tenant` called `name`, created by `admin`.
    func cmsClient(_ name: String = "Mosaic", admin: TestPerson, tenant: TestTenant) async throws -> TestClient {
        let response = try await graphQL(ExportHTTP.createClient, ["n": .string(name)], token: admin.token, tenant: tenant)
        let created = try #require(response["data"]?["createCmsClient"], "\(response.json)")
        return TestClient(id: try #require(created["client"]?.id), secret: try #require(created["clientSecret"]?.stringValue))
    }
}
