import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 11, sharing: a young person shares entries with adults of their team, who read them, mark
// them seen and reply; the author unshares. Every bad input is refused, naming the argument,
// changing nothing. Over HTTP with a real PostgreSQL.

@Suite("Sharing over HTTP")
struct SharingHTTPTests {
    @Test func aYoungPersonSharesAndTheirWorkerReadsMarksSeenAndReplies() async throws {
        try await withSharingAgency { h, agency in
            let (a, w, c) = (agency.a, agency.w, agency.c)
            let tag = try await h.tag("school", as: a)
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: a.token)
            let entry = try await h.write("Maths test went well", tags: [tag], media: [photo["id"]!], as: a)

            let sharedWith = try await h.share(entry, with: [w], message: "  Look, I did it!  ", as: a)
            #expect(sharedWith.map { $0["person"] } == [.object(["id": w.idValue, "displayName": .string("Wendy Walker")])])
            #expect(sharedWith.first?["message"] == .string("Look, I did it!"), "the message is trimmed")
            #expect(sharedWith.first?["seenAt"] == .null)

            // Wendy is told, without the entry's text, and counts it unread.
            let told = try await h.notifications(of: w)
            #expect(told.map { $0["kind"] } == [.string("shareReceived")])
            #expect(told.first?["title"] == .string("Sam shared an entry with you"))
            #expect(told.first?["actorId"] == a.idValue)
            #expect(told.first?["subjectKind"] == .string("entry") && told.first?["subjectId"] == entry)
            #expect(try await h.data(SharingHTTP.unread, "myYoungPeople", as: w) == .list([
                .object(["youngPerson": .object(["id": a.idValue]), "unreadShares": .int(1)]),
            ]))
            #expect(try await h.data(SharingHTTP.unread, "myYoungPeople", as: c).listValue?.first?["unreadShares"] == .int(0))

            // She reads the entry with its tags and file, and fetches the file; Carl reads nothing.
            let shares = try await h.sharedWithMe(a, as: w)
            #expect(shares.count == 1)
            let share = try #require(shares.first)
            #expect(share["entry"]?["id"] == entry)
            #expect(share["entry"]?["text"] == .string("Maths test went well"))
            #expect(share["entry"]?["date"] == .string("2026-11-20") && share["entry"]?["mood"] == .string("Okay"))
            #expect(share["entry"]?["tags"] == .list([.object(["id": .string(tag), "name": .string("school")])]))
            #expect(share["entry"]?["media"]?.listValue?.map { $0["id"] } == [photo["id"]])
            #expect(share["message"] == .string("Look, I did it!"))
            #expect(share["seenAt"] == .null && share["editedSinceShared"] == .bool(false) && share["reply"] == .null)
            #expect(share["sharedAt"] == sharedWith.first?["sharedAt"])
            let file = try await h.get(try #require(photo["url"]?.stringValue), token: w.token)
            #expect(file.status == .ok)
            #expect(Array(file.body.readableBytesView) == SampleMedia.png)
            #expect(try await h.sharedWithMe(a, as: c) == [])
            #expect(try await h.get(photo["url"]!.stringValue!, token: c.token).status == .notFound)

            // Seen: once, the first time counts; Sam is told once.
            let shareID = try #require(share["id"])
            let seen = try await h.data(SharingHTTP.markSeen, "markShareSeen", ["s": shareID], as: w)
            let seenAt = try #require(seen["seenAt"]?.stringValue)
            let again = try await h.data(SharingHTTP.markSeen, "markShareSeen", ["s": shareID], as: w)
            #expect(again["seenAt"] == .string(seenAt))
            #expect(try await h.data(SharingHTTP.unread, "myYoungPeople", as: w).listValue?.first?["unreadShares"] == .int(0))
            #expect(try await h.sharedWithMe(a, as: w, unseenOnly: true) == [])
            #expect(try await h.notifications(of: a).compactMap { $0["title"]?.stringValue }.filter { $0.contains("seen") } == [
                "Wendy Walker has seen an entry you shared",
            ])

            // A reply, trimmed; replying again replaces it. Sam reads it on the entry.
            _ = try await h.data(SharingHTTP.reply, "replyToShare", ["s": shareID, "t": .string("Brilliant!")], as: w)
            let replied = try await h.data(SharingHTTP.reply, "replyToShare", ["s": shareID, "t": .string(" Well done, Sam! ")], as: w)
            #expect(replied["reply"] == .string("Well done, Sam!") && replied["seenAt"] == .string(seenAt))
            let mine = try await h.data(SharingHTTP.entry, "entry", ["id": entry], as: a)
            #expect(mine["sharedWith"]?.listValue?.map { $0["reply"] } == [.string("Well done, Sam!")])
            #expect(mine["sharedWith"]?.listValue?.map { $0["seenAt"] } == [.string(seenAt)])
            let aTold = try await h.notifications(of: a)
            #expect(aTold.map { $0["kind"] } == ["shareReplied", "shareReplied", "shareSeen", "assignmentStarted", "assignmentStarted"].map(GraphQLValue.string))
            #expect(aTold.first?["title"] == .string("Wendy Walker replied to an entry you shared"))
            #expect(aTold.first?["actorId"] == w.idValue && aTold.first?["subjectId"] == entry)

            // Sam edits it: Wendy reads the new text, marked edited.
            _ = try await h.data(
                "mutation($id: ID!, $i: EntryInput!) { updateEntry(id: $id, input: $i) { id } }", "updateEntry",
                ["id": entry, "i": .object(["date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string("Maths test: 9/10"),
                                            "tagIds": .list([.string(tag)]), "mediaIds": .list([photo["id"]!])])], as: a)
            let edited = try #require(try await h.sharedWithMe(a, as: w).first)
            #expect(edited["entry"]?["text"] == .string("Maths test: 9/10") && edited["editedSinceShared"] == .bool(true))

            // Sharing again with Wendy adds nothing, and tells her nothing more; with Carl it does.
            let twice = try await h.share(entry, with: [w, c], as: a)
            #expect(twice.map { $0["person"]?["id"] } == [w.idValue, c.idValue])
            #expect(twice.first?["id"] == sharedWith.first?["id"])
            #expect(try await h.notifications(of: w).count == 1)
            #expect(try await h.sharedWithMe(a, as: c).map { $0["entry"]?["id"] } == [entry])

            // Unsharing with Wendy takes it from her at once, the file included; Carl keeps it.
            let left = try await h.data(SharingHTTP.unshareEntry, "unshareEntry", ["e": entry, "p": .list([w.idValue])], as: a)
            #expect(left["sharedWith"]?.listValue?.map { $0["person"]?["id"] } == [c.idValue])
            #expect(try await h.sharedWithMe(a, as: w) == [])
            #expect(try await h.get(photo["url"]!.stringValue!, token: w.token).status == .notFound)
            #expect(try await h.graphQL(SharingHTTP.markSeen, ["s": shareID], token: w.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(SharingHTTP.reply, ["s": shareID, "t": .string("hi")], token: w.token).errorCode == "NOT_FOUND")
            #expect(try await h.get(photo["url"]!.stringValue!, token: c.token).status == .ok)
            // Without personIds, with everyone; sharing again afterwards is a new share.
            let none = try await h.data(SharingHTTP.unshareEntry, "unshareEntry", ["e": entry], as: a)
            #expect(none["sharedWith"] == .list([]))
            #expect(try await h.sharedWithMe(a, as: c) == [])
            let anew = try await h.share(entry, with: [w], as: a)
            #expect(anew.first?["id"] != sharedWith.first?["id"] && anew.first?["seenAt"] == .null && anew.first?["reply"] == .null)
            #expect(try await h.notifications(of: w).count == 2)
        }
    }

    @Test func sharedWithMePagesNewestFirstAndUnseenOnly() async throws {
        try await withSharingAgency(tenants: 2) { h, agency in
            let (a, w) = (agency.a, agency.w)
            var entries: [GraphQLValue] = []
            for index in 1...25 {
                let entry = try await h.write("Entry \(index)", as: a)
                try await h.share(entry, with: [w], as: a)
                entries.append(entry)
            }
            var seen: [GraphQLValue] = []
            var after = GraphQLValue.null
            for page in 1...3 {
                let connection = try await h.data(
                    SharingHTTP.sharedWithMe, "sharedWithMe", ["y": a.idValue, "first": .int(10), "after": after], as: w)
                seen += connection.nodes.compactMap { $0["entry"]?["id"] }
                after = connection["pageInfo"]?["endCursor"] ?? .null
                #expect(connection["pageInfo"]?["hasNextPage"] == .bool(page < 3))
            }
            #expect(seen == entries.reversed())

            // Seeing some leaves the others unseen, newest first.
            for node in try await h.sharedWithMe(a, as: w).prefix(5) {
                _ = try await h.data(SharingHTTP.markSeen, "markShareSeen", ["s": node["id"]!], as: w)
            }
            let unseen = try await h.sharedWithMe(a, as: w, unseenOnly: true)
            #expect(unseen.compactMap { $0["entry"]?["id"] } == Array(entries.reversed().dropFirst(5)))
            #expect(try await h.data(SharingHTTP.unread, "myYoungPeople", as: w).listValue?.first?["unreadShares"] == .int(20))

            // Bad pages: a size out of range, a cursor of another list, of another agency, or made up.
            for first in [-1, 101] {
                let refused = try await h.graphQL(SharingHTTP.sharedWithMe, ["y": a.idValue, "first": .int(first)], token: w.token)
                #expect(refused.errorExtensions?["field"] == .string("first"), "\(first)")
            }
            let notifications = try await h.data(
                "{ notifications(first: 1) { pageInfo { endCursor } } }", "notifications", as: w)
            let elsewhere = try await h.person(.youngPerson, "olly", tenant: h.tenants[1])
            _ = try await h.graphQL(
                #"mutation { createEntry(input: { date: "2026-11-20", kind: TEXT, text: "elsewhere" }) { id } }"#,
                token: elsewhere.token, tenant: h.tenants[1])
            let foreignCursor = try await h.graphQL(
                "{ entries(first: 1) { pageInfo { endCursor } } }", token: elsewhere.token, tenant: h.tenants[1])
            let cursors = [notifications["pageInfo"]?["endCursor"], foreignCursor["data"]?["entries"]?["pageInfo"]?["endCursor"], .string("bm9wZQ")]
            #expect(cursors.allSatisfy { $0?.stringValue != nil })
            for cursor in cursors {
                let refused = try await h.graphQL(SharingHTTP.sharedWithMe, ["y": a.idValue, "after": cursor ?? .null], token: w.token)
                #expect(refused.errorExtensions?["field"] == .string("after"), "\(String(describing: cursor))")
            }
        }
    }

    @Test func whoMayCallWhat() async throws {
        try await withSharingAgency { h, agency in
            let entry = try await h.write("Mine", as: agency.a)
            let share = try #require(try await h.share(entry, with: [agency.w], as: agency.a).first?["id"])
            let adminToken = agency.admin.token
            // Adults do not share (they have no team to share with); young people and admins read no shares.
            for token in [agency.w.token, agency.c.token, adminToken] {
                let refused = try await h.graphQL(SharingHTTP.shareEntry, ["e": entry, "p": .list([agency.w.idValue])], token: token)
                #expect(refused.errorCode == "FORBIDDEN")
                #expect(try await h.graphQL(SharingHTTP.unshareEntry, ["e": entry], token: token).errorCode == "FORBIDDEN")
            }
            for token in [agency.a.token, agency.b.token, adminToken] {
                #expect(try await h.graphQL(SharingHTTP.sharedWithMe, ["y": agency.a.idValue], token: token).errorCode == "FORBIDDEN")
                #expect(try await h.graphQL(SharingHTTP.markSeen, ["s": share], token: token).errorCode == "FORBIDDEN")
                #expect(try await h.graphQL(SharingHTTP.reply, ["s": share, "t": .string("x")], token: token).errorCode == "FORBIDDEN")
            }
            #expect(try await h.graphQL(SharingHTTP.sharedWithMe, ["y": agency.a.idValue]).errorCode == "UNAUTHENTICATED")
            // Nothing changed.
            #expect(try await h.sharedWithMe(agency.a, as: agency.w).map { $0["seenAt"] } == [.null])
        }
    }

    @Test func withoutTheModuleNoneOfItsFieldsExist() async throws {
        try await withAccounts(tweak: { _, file in file.modules = [.tags, .archive] }) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let wendy = try await h.person(.socialWorker, "wendy", displayName: "Wendy Walker")
            for (query, token) in [
                ("{ sharedWithMe(youngPersonId: \"\(sam.id.uuidString)\") { edges { cursor } } }", wendy.token),
                ("{ entries { edges { node { sharedWith { id } } } } }", sam.token),
                ("{ myYoungPeople { unreadShares } }", wendy.token),
                ("mutation { shareEntry(entryId: \"x\", withPersonIds: []) { id } }", sam.token),
                ("mutation { unshareEntry(entryId: \"x\") { id } }", sam.token),
                ("mutation { markShareSeen(shareId: \"x\") { id } }", wendy.token),
                ("mutation { replyToShare(shareId: \"x\", text: \"x\") { id } }", wendy.token),
            ] {
                #expect(try await h.graphQL(query, token: token).errorCode == "GRAPHQL_VALIDATION_FAILED", "\(query)")
            }
            for type in ["Share", "EntryShare", "ShareConnection"] {
                let found = try await h.data("query($t: String!) { __type(name: $t) { name } }", "__type", ["t": .string(type)], as: sam)
                #expect(found == .null, "\(type)")
            }
        }
    }
}
