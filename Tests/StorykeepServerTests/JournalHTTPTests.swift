import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Postgres
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

// Issue 5 over HTTP, end to end, as a young person's app uses it: real PostgreSQL, the tenant
// endpoint /t/<slug>/graphql and the media route /t/<slug>/media/<id> as `storykeep serve`
// mounts them, time moved by the test clock instead of slept.

@Suite("Journal over HTTP: a young person's journal")
struct JournalHTTPTests {
    @Test func checkInTheGreetingAndSuggestions() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            let greetingQuery = "{ greeting { question today checkIn moodIcons { emoji label } checkInEntry { id mood text } } }"
            var greeting = try await h.graphQL(greetingQuery, token: sam)["data"]?["greeting"]
            #expect(greeting?["question"] == .string("How are you feeling today?"))
            #expect(greeting?["checkIn"] == .string("PENDING"))
            #expect(greeting?["moodIcons"]?.listValue?.map { $0["label"] } == [.string("Happy"), .string("Okay"), .string("Sad")])
            let today = try #require(greeting?["today"]?.stringValue)
            #expect(today == PostgresDate(h.clock.now, in: TimeZone(identifier: "Europe/London")!).description)

            let first = try await h.graphQL(#"mutation { checkIn(mood: "Sad", note: "Long day") { id kind mood text date } }"#, token: sam)
            let entry = try #require(first["data"]?["checkIn"], "\(first.json)")
            #expect(entry["kind"] == .string("MOOD"))
            #expect(entry["date"] == .string(today))
            // A second check-in the same day changes the same entry; no note keeps the text.
            let second = try await h.graphQL(#"mutation { checkIn(mood: "Okay") { id mood text } }"#, token: sam)
            #expect(second["data"]?["checkIn"] == .object(["id": entry["id"]!, "mood": .string("Okay"), "text": .string("Long day")]))
            greeting = try await h.graphQL(greetingQuery, token: sam)["data"]?["greeting"]
            #expect(greeting?["checkIn"] == .string("DONE"))
            #expect(greeting?["checkInEntry"]?["mood"] == .string("Okay"))

            // A mood that is not one of the person's icons is refused, and changes nothing.
            let unknown = try await h.graphQL(#"mutation { checkIn(mood: "Ecstatic") { id } }"#, token: sam)
            #expect(unknown.errorCode == "BAD_USER_INPUT")
            #expect(unknown.errorExtensions?["field"] == .string("mood"))

            // Tomorrow the question is asked again; skipping it stops that for the day.
            h.clock.advance(seconds: 86_400)
            greeting = try await h.graphQL(greetingQuery, token: sam)["data"]?["greeting"]
            #expect(greeting?["checkIn"] == .string("PENDING"))
            let skipped = try await h.graphQL("mutation { skipCheckIn { checkIn checkInEntry { id } } }", token: sam)
            #expect(skipped["data"]?["skipCheckIn"] == .object(["checkIn": .string("SKIPPED"), "checkInEntry": .null]))

            // Suggestions fit the mood (today's check-in's unless another is given), and the one
            // answered last comes after the others.
            _ = try await h.graphQL(#"mutation { checkIn(mood: "Sad") { id } }"#, token: sam)
            let sad = try await h.graphQL("{ suggestions(count: 5) }", token: sam)
            #expect(Set(sad["data"]?["suggestions"]?.listValue ?? []) == [.string("Who helped you today?"), .string("What is on your mind?")])
            let happy = try await h.graphQL(#"{ suggestions(count: 5, mood: "Happy") }"#, token: sam)
            #expect(Set(happy["data"]?["suggestions"]?.listValue ?? []) == [.string("What made you smile today?"), .string("Who helped you today?")])
            _ = try await h.createEntry(
                ["date": .string(today), "kind": .string("TEXT"), "text": .string("Jo did"), "suggestion": .string("Who helped you today?")],
                token: sam)
            for _ in 0..<5 {
                let fresh = try await h.graphQL(#"{ suggestions(count: 1, mood: "Happy") }"#, token: sam)
                #expect(fresh["data"]?["suggestions"] == .list([.string("What made you smile today?")]))
            }
        }
    }

    @Test func writeEntriesOfEveryKindAndFindThemByScrollingSearchAndCalendar() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            let suggested = try await h.graphQL("{ suggestedTags }", token: sam)
            #expect(suggested["data"]?["suggestedTags"] == .list([.string("Friends"), .string("Family"), .string("Sports")]))
            let football = try #require(
                try await h.graphQL(#"mutation { createTag(name: "Football") { id name } }"#, token: sam)["data"]?["createTag"]?.id)
            let family = try #require(
                try await h.graphQL(#"mutation { createTag(name: "Family") { id name } }"#, token: sam)["data"]?["createTag"]?.id)
            #expect(try await h.graphQL("{ suggestedTags }", token: sam)["data"]?["suggestedTags"] == .list([.string("Friends"), .string("Sports")]))
            for name in ["   ", String(repeating: "x", count: 100)] {
                let refused = try await h.graphQL("mutation($n: String!) { createTag(name: $n) { id } }", ["n": .string(name)], token: sam)
                #expect(refused.errorCode == "BAD_USER_INPUT")
                #expect(refused.errorExtensions?["field"] == .string("name"))
            }
            let taken = try await h.graphQL(#"mutation { createTag(name: "FOOTBALL") { id } }"#, token: sam)
            #expect(taken.errorCode == "BAD_USER_INPUT")

            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam)
            #expect(photo["contentType"] == .string("image/png"))
            #expect(photo["byteSize"] == .int(300))
            let voice = try await h.uploadMedia(SampleMedia.mp3, contentType: "audio/mpeg", token: sam)
            let clip = try await h.uploadMedia(SampleMedia.mp4, contentType: "video/mp4", token: sam)
            #expect(clip["contentType"] == .string("video/mp4"))

            let text = try await h.createEntry(
                ["date": .string("2026-11-02"), "kind": .string("TEXT"), "text": .string("Scored twice at football practice"),
                 "tagIds": .list([.string(football)]), "background": .string("sunset")], token: sam)
            #expect(text["tags"] == .list([.object(["id": .string(football), "name": .string("Football")])]))
            let image = try await h.createEntry(
                ["date": .string("2026-11-02"), "kind": .string("IMAGE"), "mediaIds": .list([photo["id"]!]),
                 "tagIds": .list([.string(family)])], token: sam)
            #expect(image["media"]?.listValue?.map(\.id) == [photo.id])
            let audio = try await h.createEntry(
                ["date": .string("2026-11-05"), "kind": .string("AUDIO"), "mediaIds": .list([voice["id"]!]), "mood": .string("Happy")],
                token: sam)
            let video = try await h.createEntry(
                ["date": .string("2026-11-07"), "kind": .string("VIDEO"), "mediaIds": .list([clip["id"]!])], token: sam)
            // A drawing uploaded with the entry itself.
            let drawn = try await h.upload(
                "mutation($i: EntryInput!, $f: [Upload!]) { createEntry(input: $i, files: $f) { \(JournalHTTP.entryFields) } }",
                ["i": .object(["date": .string("2026-11-09"), "kind": .string("DRAWING"), "text": .string("My room")]),
                 "f": .list([.null])],
                files: [("f.0", SampleMedia.png(bytes: 120), "image/png")], token: sam)
            let drawing = try #require(drawn["data"]?["createEntry"], "\(drawn.json)")
            #expect(drawing["media"]?.listValue?.first?["byteSize"] == .int(120))
            let mood = try await h.createEntry(
                ["date": .string("2026-10-30"), "kind": .string("MOOD"), "mood": .string("Sad"), "text": .string("Missed my mum")],
                token: sam)

            // A TEXT entry gains a photo later: one a drawing holds is refused until the drawing lets it go.
            let takeTheDrawingsPhoto = {
                try await h.graphQL(
                    "mutation($id: ID!, $i: EntryInput!) { updateEntry(id: $id, input: $i) { media { id } text tags { name } } }",
                    ["id": text["id"]!, "i": .object([
                        "date": .string("2026-11-02"), "kind": .string("TEXT"), "text": .string("Scored twice at football practice!"),
                        "tagIds": .list([.string(football)]), "mediaIds": .list([drawing["media"]!.listValue![0]["id"]!]),
                    ])], token: sam)
            }
            let stillAttached = try await takeTheDrawingsPhoto()
            #expect(stillAttached.errorCode == "BAD_USER_INPUT")
            #expect(stillAttached.errorExtensions?["field"] == .string("input.mediaIds"))
            let detached = try await h.graphQL(
                "mutation($id: ID!, $i: EntryInput!) { updateEntry(id: $id, input: $i) { media { id } } }",
                ["id": drawing["id"]!, "i": .object(["date": .string("2026-11-09"), "kind": .string("DRAWING"), "mediaIds": .list([])])],
                token: sam)
            #expect(detached["data"]?["updateEntry"]?["media"] == .list([]))
            let moved = try await takeTheDrawingsPhoto()
            #expect(moved["data"]?["updateEntry"]?["media"]?.listValue?.count == 1)

            // Scrolling: newest day first, then the latest written; pages of two.
            var seen: [String] = []
            var after: GraphQLValue = .null
            var pages = 0
            repeat {
                let page = try await h.graphQL(
                    "query($a: String) { entries(first: 2, after: $a) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }",
                    ["a": after], token: sam)
                let connection = try #require(page["data"]?["entries"], "\(page.json)")
                seen += connection.nodes.compactMap(\.id)
                after = connection["pageInfo"]?["endCursor"] ?? .null
                pages += 1
                if connection["pageInfo"]?["hasNextPage"] != .bool(true) { break }
            } while pages < 10
            #expect(seen == [drawing, video, audio, image, text, mood].compactMap(\.id))
            #expect(pages == 3)

            // Filters: by tag, by kind, by dates.
            let filtered = try await h.graphQL(
                "query($f: EntryFilter) { entries(filter: $f) { edges { node { id } } } }",
                ["f": .object(["tagIds": .list([.string(family)])])], token: sam)
            #expect(filtered["data"]?["entries"]?.nodes.compactMap(\.id) == [image.id!])
            let kinds = try await h.graphQL(
                "query($f: EntryFilter) { entries(filter: $f) { edges { node { id } } } }",
                ["f": .object(["kinds": .list([.string("AUDIO"), .string("VIDEO")]), "from": .string("2026-11-06")])], token: sam)
            #expect(kinds["data"]?["entries"]?.nodes.compactMap(\.id) == [video.id!])
            let wordsUpTo = try await h.graphQL(
                "query($f: EntryFilter) { entries(filter: $f) { edges { node { id } } } }",
                ["f": .object(["text": .string("practice"), "to": .string("2026-11-02")])], token: sam)
            #expect(wordsUpTo["data"]?["entries"]?.nodes.compactMap(\.id) == [text.id!])
            let tooEarly = try await h.graphQL(
                "query($f: EntryFilter) { entries(filter: $f) { edges { node { id } } } }",
                ["f": .object(["text": .string("practice"), "to": .string("2026-11-01")])], token: sam)
            #expect(tooEarly["data"]?["entries"]?.nodes == [])

            // Search: a word of the text, and a tag's name.
            let word = try await h.graphQL(#"{ search(query: "practice") { edges { node { id } } } }"#, token: sam)
            #expect(word["data"]?["search"]?.nodes.compactMap(\.id) == [text.id!])
            let byTag = try await h.graphQL(#"{ search(query: "family") { edges { node { id } } } }"#, token: sam)
            #expect(byTag["data"]?["search"]?.nodes.compactMap(\.id) == [image.id!])
            let empty = try await h.graphQL(#"{ search(query: "  ") { edges { node { id } } } }"#, token: sam)
            #expect(empty.errorCode == "BAD_USER_INPUT")

            // The calendar: every day of the month, with counts and moods.
            let november = try await h.graphQL(#"{ calendar(month: "2026-11") { date entryCount moods } }"#, token: sam)
            let days = try #require(november["data"]?["calendar"]?.listValue, "\(november.json)")
            #expect(days.count == 30)
            #expect(days[1] == .object(["date": .string("2026-11-02"), "entryCount": .int(2), "moods": .list([])]))
            #expect(days[4] == .object(["date": .string("2026-11-05"), "entryCount": .int(1), "moods": .list([.string("Happy")])]))
            #expect(days.reduce(0) { $0 + ($1["entryCount"]?.intValue ?? 0) } == 5)
            let october = try await h.graphQL(#"{ calendar(month: "2026-10") { date entryCount moods } }"#, token: sam)
            #expect(october["data"]?["calendar"]?.listValue?[29]["moods"] == .list([.string("Sad")]))
            let badMonth = try await h.graphQL(#"{ calendar(month: "November") { date } }"#, token: sam)
            #expect(badMonth.errorExtensions?["field"] == .string("month"))

            // Renaming a tag keeps it on its entries and in search; deleting it keeps the entries.
            _ = try await h.graphQL("mutation($id: ID!) { renameTag(id: $id, name: \"Footy\") { name } }", ["id": .string(football)], token: sam)
            let footy = try await h.graphQL(#"{ search(query: "footy") { edges { node { id tags { name } } } } }"#, token: sam)
            #expect(footy["data"]?["search"]?.nodes.first?["tags"] == .list([.object(["name": .string("Footy")])]))
            _ = try await h.graphQL("mutation($id: ID!) { deleteTag(id: $id) }", ["id": .string(family)], token: sam)
            let untagged = try await h.graphQL("query($id: ID!) { entry(id: $id) { id tags { name } } }", ["id": image["id"]!], token: sam)
            #expect(untagged["data"]?["entry"] == .object(["id": image["id"]!, "tags": .list([])]))
            #expect(try await h.graphQL("{ tags { name } }", token: sam)["data"]?["tags"] == .list([.object(["name": .string("Footy")])]))
        }
    }

    @Test func mediaIsServedWithRangesAndCachingHeadersToItsOwnerOnly() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            let bytes = SampleMedia.mp3(bytes: 5_000)
            let voice = try await h.uploadMedia(bytes, contentType: "audio/mpeg", token: sam)
            let url = try #require(voice["url"]?.stringValue)
            #expect(url == "/t/\(h.tenant.slug)/media/\(voice.id!)")
            let sha = try #require(voice["sha256"]?.stringValue)

            let whole = try await h.get(url, token: sam)
            #expect(whole.status == .ok)
            #expect(Array(whole.body.readableBytesView) == bytes)
            #expect(whole.headers[.contentType] == "audio/mpeg")
            #expect(whole.headers[.eTag] == "\"\(sha)\"")
            #expect(whole.headers[.cacheControl]?.hasPrefix("private") == true)
            #expect(whole.headers[.xContentTypeOptions] == "nosniff")
            #expect(whole.headers[.acceptRanges] == "bytes")
            #expect(whole.headers[.contentDisposition] == "inline; filename=\"\(voice.id!).mp3\"")

            let part = try await h.get(url, token: sam, headers: [.range: "bytes=100-199"])
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 100-199/5000")
            #expect(Array(part.body.readableBytesView) == Array(bytes[100..<200]))
            let tail = try await h.get(url, token: sam, headers: [.range: "bytes=-10"])
            #expect(tail.headers[.contentRange] == "bytes 4990-4999/5000")
            #expect(Array(tail.body.readableBytesView) == Array(bytes[4990...]))
            let open = try await h.get(url, token: sam, headers: [.range: "bytes=4000-"])
            #expect(open.body.readableBytes == 1000)
            let outside = try await h.get(url, token: sam, headers: [.range: "bytes=9000-"])
            #expect(outside.status == .rangeNotSatisfiable)
            #expect(outside.headers[.contentRange] == "bytes */5000")
            let stale = try await h.get(url, token: sam, headers: [.range: "bytes=0-9", .ifRange: "\"old\""])
            #expect(stale.status == .ok)
            let cached = try await h.get(url, token: sam, headers: [.ifNoneMatch: "\"\(sha)\""])
            #expect(cached.status == .notModified)
            let weak = try await h.get(url, token: sam, headers: [.ifNoneMatch: "\"other\", W/\"\(sha)\""])
            #expect(weak.status == .notModified, "If-None-Match compares weakly (RFC 9110 13.1.2)")
            // If-Range compares strongly: a weak tag sends the whole file.
            let weakRange = try await h.get(url, token: sam, headers: [.range: "bytes=0-9", .ifRange: "W/\"\(sha)\""])
            #expect(weakRange.status == .ok)

            #expect(try await h.get(url, token: nil).status == .unauthorized)
            #expect(try await h.get(url, token: "not-a-token").status == .unauthorized)
            let alex = try await h.youngPerson("alex").token
            #expect(try await h.get(url, token: alex).status == .notFound)
            let admin = try await h.admin()
            #expect(try await h.get(url, token: admin).status == .notFound)
            #expect(try await h.get("/t/\(h.tenant.slug)/media/not-an-id", token: sam).status == .notFound)
        }
    }

    @Test func deleteHidesAtOnceRestoreBringsBackAndThePurgeRemovesForGood() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let (sam, samID) = try await h.youngPerson("sam")
            let tag = try #require(try await h.graphQL(#"mutation { createTag(name: "Secret") { id } }"#, token: sam)["data"]?["createTag"]?.id)
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam)
            let entry = try await h.createEntry(
                ["date": .string("2026-11-20"), "kind": .string("IMAGE"), "text": .string("hidden thought"),
                 "tagIds": .list([.string(tag)]), "mediaIds": .list([photo["id"]!])], token: sam)
            let id = try #require(entry.id)

            let deleted = try await h.graphQL("mutation($id: ID!) { deleteEntry(id: $id) }", ["id": .string(id)], token: sam)
            #expect(deleted["data"]?["deleteEntry"] == .bool(true))
            #expect(try await h.graphQL("query($id: ID!) { entry(id: $id) { id } }", ["id": .string(id)], token: sam)["data"]?["entry"] == .null)
            #expect(try await h.graphQL("{ entries { edges { node { id } } } }", token: sam)["data"]?["entries"]?.nodes == [])
            #expect(try await h.graphQL(#"{ search(query: "hidden") { edges { node { id } } } }"#, token: sam)["data"]?["search"]?.nodes == [])
            let calendar = try await h.graphQL(#"{ calendar(month: "2026-11") { entryCount } }"#, token: sam)
            #expect(calendar["data"]?["calendar"]?.listValue?[19] == .object(["entryCount": .int(0)]))
            let again = try await h.graphQL("mutation($id: ID!) { deleteEntry(id: $id) }", ["id": .string(id)], token: sam)
            #expect(again.errorCode == "NOT_FOUND")

            let archive = try await h.graphQL("{ archive { edges { node { id text } deletedAt purgeAt } } }", token: sam)
            let edge = try #require(archive["data"]?["archive"]?["edges"]?.listValue?.first, "\(archive.json)")
            #expect(edge["node"] == .object(["id": .string(id), "text": .string("hidden thought")]))
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let deletedAt = try #require(edge["deletedAt"]?.stringValue.flatMap(formatter.date(from:)))
            let purgeAt = try #require(edge["purgeAt"]?.stringValue.flatMap(formatter.date(from:)))
            #expect(purgeAt.timeIntervalSince(deletedAt) == 30 * 86_400)

            let restored = try await h.graphQL(
                "mutation($id: ID!) { restoreEntry(id: $id) { \(JournalHTTP.entryFields) } }", ["id": .string(id)], token: sam)
            #expect(restored["data"]?["restoreEntry"] == entry, "\(restored.json)")
            #expect(try await h.graphQL("{ archive { edges { node { id } } } }", token: sam)["data"]?["archive"]?.nodes == [])

            // Deleted again, and past the retention period: the purge takes it and its file.
            _ = try await h.graphQL("mutation($id: ID!) { deleteEntry(id: $id) }", ["id": .string(id)], token: sam)
            let tenant = try #require(try await TenantStore(pool: h.owner).all().first { $0.slug == h.tenant.slug })
            let early = try await ArchivePurge.purge([tenant], pool: h.owner, now: h.clock.now.addingTimeInterval(29 * 86_400))
            #expect(early == ArchivePurge.Outcome(entries: 0, media: 0))
            let late = try await ArchivePurge.purge([tenant], pool: h.owner, now: h.clock.now.addingTimeInterval(31 * 86_400))
            #expect(late == ArchivePurge.Outcome(entries: 1, media: 1))
            #expect(try await h.graphQL("{ archive { edges { node { id } } } }", token: sam)["data"]?["archive"]?.nodes == [])
            let gone = try await h.graphQL("mutation($id: ID!) { restoreEntry(id: $id) { id } }", ["id": .string(id)], token: sam)
            #expect(gone.errorCode == "NOT_FOUND")
            #expect(try await h.get(photo["url"]!.stringValue!, token: sam).status == .notFound)
            #expect(try await h.count("media", ownedBy: samID) == 0)
        }
    }

    @Test func theServerPurgesPeriodicallyAsTheAppRole() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            let kept = try await h.createEntry(["date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string("kept")], token: sam)
            let dropped = try await h.createEntry(["date": .string("2026-11-21"), "kind": .string("TEXT"), "text": .string("dropped")], token: sam)
            _ = try await h.graphQL("mutation($id: ID!) { deleteEntry(id: $id) }", ["id": dropped["id"]!], token: sam)
            let archive = "{ archive { edges { node { id } } } }"
            #expect(try await h.graphQL(archive, token: sam)["data"]?["archive"]?.nodes.count == 1)

            // The service as `storykeep serve` runs it, on the app role's pool, with a short
            // interval and its clock 31 days on; over this test's tenant only, since other
            // tests' archives are in the same database.
            let clock = h.clock
            let tenant = try #require(try await TenantStore(pool: h.app).all().first { $0.slug == h.tenant.slug })
            let service = BackgroundJobService(
                job: ArchiveModule.purgeJob(interval: .milliseconds(50)),
                context: JobContext(
                    pool: h.app, tenants: { [tenant] }, now: { clock.now.addingTimeInterval(31 * 86_400) },
                    logger: Logger(label: "purge-test")))
            let running = Task { try await service.run() }
            var purged = false
            for _ in 0..<200 where !purged {
                try await Task.sleep(for: .milliseconds(50))
                purged = try await h.graphQL(archive, token: sam)["data"]?["archive"]?.nodes == []
            }
            running.cancel()
            _ = try? await running.value
            #expect(purged)
            let entries = try await h.graphQL("{ entries { edges { node { id } } } }", token: sam)
            #expect(entries["data"]?["entries"]?.nodes.compactMap(\.id) == [kept.id!])
        }
    }
}
