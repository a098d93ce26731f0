import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 5: a journal is its author's alone, tried through the public API by another young
// person and an agency admin of the same tenant, and by a person of another tenant; and bad
// input is refused with BAD_USER_INPUT naming the field, changing nothing.

@Suite("Journal over HTTP: privacy and bad input")
struct JournalPrivacyHTTPTests {
    @Test func anotherYoungPersonAndAnAdminReadNothingOfIt() async throws {
        try await withAccounts(tenants: 2, tweak: JournalHTTP.tenant) { h in
            let (sam, samID) = try await h.youngPerson("sam")
            let tag = try #require(try await h.graphQL(#"mutation { createTag(name: "Private") { id } }"#, token: sam)["data"]?["createTag"]?.id)
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam)
            let spare = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam)
            let entry = try await h.createEntry(
                ["date": .string("2026-11-20"), "kind": .string("IMAGE"), "text": .string("only mine zebra"),
                 "mood": .string("Sad"), "tagIds": .list([.string(tag)]), "mediaIds": .list([photo["id"]!])], token: sam)
            let id = try #require(entry.id)
            let archived = try await h.createEntry(["date": .string("2026-11-21"), "kind": .string("TEXT"), "text": .string("zebra")], token: sam)
            _ = try await h.graphQL("mutation($id: ID!) { deleteEntry(id: $id) }", ["id": archived["id"]!], token: sam)

            let alex = try await h.youngPerson("alex").token
            let admin = try await h.admin()
            let other = try await h.youngPerson("olly", tenant: h.tenants[1]).token
            for (who, token) in [("another young person", alex), ("an admin", admin)] {
                let byID = try await h.graphQL("query($id: ID!) { entry(id: $id) { id text } }", ["id": .string(id)], token: token)
                #expect(byID["data"]?["entry"] == .null, "\(who)")
                let list = try await h.graphQL("{ entries(first: 100) { edges { node { id } } } }", token: token)
                #expect(list["data"]?["entries"]?.nodes == [], "\(who)")
                let search = try await h.graphQL(#"{ search(query: "zebra") { edges { node { id } } } }"#, token: token)
                #expect(search["data"]?["search"]?.nodes == [], "\(who)")
                let calendar = try await h.graphQL(#"{ calendar(month: "2026-11") { entryCount moods } }"#, token: token)
                #expect(calendar["data"]?["calendar"]?.listValue?[19] == .object(["entryCount": .int(0), "moods": .list([])]), "\(who)")
                let archive = try await h.graphQL("{ archive { edges { node { id } } } }", token: token)
                #expect(archive["data"]?["archive"]?.nodes == [], "\(who)")
                #expect(try await h.get(photo["url"]!.stringValue!, token: token).status == .notFound, "\(who)")
                #expect(try await h.graphQL("{ tags { id } }", token: token)["data"]?["tags"] == .list([]), "\(who)")

                // Writing to it, or through it, answers as if nothing were there.
                let update = try await h.graphQL(
                    "mutation($id: ID!, $i: EntryInput!) { updateEntry(id: $id, input: $i) { id } }",
                    ["id": .string(id), "i": .object(["date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string("mine now")])],
                    token: token)
                #expect(update.errorCode == "NOT_FOUND", "\(who)")
                let delete = try await h.graphQL("mutation($id: ID!) { deleteEntry(id: $id) }", ["id": .string(id)], token: token)
                #expect(delete.errorCode == "NOT_FOUND", "\(who)")
                let restore = try await h.graphQL("mutation($id: ID!) { restoreEntry(id: $id) { id } }", ["id": archived["id"]!], token: token)
                #expect(restore.errorCode == "NOT_FOUND", "\(who)")
                let rename = try await h.graphQL("mutation($id: ID!) { renameTag(id: $id, name: \"x\") { id } }", ["id": .string(tag)], token: token)
                #expect(rename.errorCode == "NOT_FOUND", "\(who)")
                let borrowMedia = try await h.graphQL(
                    "mutation($i: EntryInput!) { createEntry(input: $i) { id } }",
                    ["i": .object(["date": .string("2026-11-20"), "kind": .string("IMAGE"), "mediaIds": .list([spare["id"]!])])],
                    token: token)
                #expect(borrowMedia.errorExtensions?["field"] == .string("input.mediaIds"), "\(who)")
                let borrowTag = try await h.graphQL(
                    "mutation($i: EntryInput!) { createEntry(input: $i) { id } }",
                    ["i": .object(["date": .string("2026-11-20"), "kind": .string("TEXT"), "tagIds": .list([.string(tag)])])],
                    token: token)
                #expect(borrowTag.errorExtensions?["field"] == .string("input.tagIds"), "\(who)")
                let avatar = try await h.graphQL(
                    "mutation($i: ProfileInput!) { updateProfile(input: $i) { avatar } }",
                    ["i": .object(["avatarMediaId": spare["id"]!])], token: token)
                #expect(avatar.errorExtensions?["field"] == .string("input.avatarMediaId"), "\(who)")
            }
            // Another tenant's person: their token is no session here at all.
            let foreign = try await h.graphQL("query($id: ID!) { entry(id: $id) { id } }", ["id": .string(id)], token: other)
            #expect(foreign.errorCode == "UNAUTHENTICATED")
            #expect(try await h.get(photo["url"]!.stringValue!, token: other).status == .unauthorized)
            let anonymous = try await h.graphQL("{ entries { edges { node { id } } } }")
            #expect(anonymous.errorCode == "UNAUTHENTICATED")

            // Nothing of Sam's changed.
            let mine = try await h.graphQL(
                "query($id: ID!) { entry(id: $id) { \(JournalHTTP.entryFields) } }", ["id": .string(id)], token: sam)
            #expect(mine["data"]?["entry"] == entry)
            #expect(try await h.count("entries", ownedBy: samID, column: "author_id") == 2)
            // The admin's own profile is theirs; Sam's is not on any other person.
            let people = try await h.graphQL("{ people { edges { node { username profile { displayName } } } } }", token: admin)
            let young = (people["data"]?["people"]?.nodes ?? []).filter { $0["username"] != .null }
            #expect(young.count == 2)
            for person in young {
                #expect(person["profile"] == .null, "\(person.json)")
            }
        }
    }

    @Test func badInputIsNamedAndChangesNothing() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let (sam, samID) = try await h.youngPerson("sam")
            let create = "mutation($i: EntryInput!) { createEntry(input: $i) { id } }"

            // No date: the schema refuses the variable, naming the field.
            let noDate = try await h.graphQL(create, ["i": .object(["kind": .string("TEXT"), "text": .string("hi")])], token: sam)
            #expect(noDate.errorCode == "BAD_USER_INPUT")
            #expect(noDate.errorMessage?.contains("\"date\"") == true, "\(noDate.json)")
            #expect(noDate["data"] == nil)
            let badDate = try await h.graphQL(create, ["i": .object(["date": .string("2026-02-30"), "kind": .string("TEXT")])], token: sam)
            #expect(badDate.errorCode == "BAD_USER_INPUT")
            #expect(badDate.errorMessage?.contains("YYYY-MM-DD") == true, "\(badDate.json)")

            // An unknown tag, a MOOD entry without a mood, a text too long.
            let unknownTag = try await h.graphQL(
                create, ["i": .object(["date": .string("2026-11-01"), "kind": .string("TEXT"), "tagIds": .list([.string(UUID().uuidString)])])],
                token: sam)
            #expect(unknownTag.errorCode == "BAD_USER_INPUT")
            #expect(unknownTag.errorExtensions?["field"] == .string("input.tagIds"))
            let notAnID = try await h.graphQL(
                create, ["i": .object(["date": .string("2026-11-01"), "kind": .string("TEXT"), "tagIds": .list([.string("7")])])], token: sam)
            #expect(notAnID.errorExtensions?["field"] == .string("input.tagIds"))
            let noMood = try await h.graphQL(create, ["i": .object(["date": .string("2026-11-01"), "kind": .string("MOOD")])], token: sam)
            #expect(noMood.errorExtensions?["field"] == .string("input.mood"))
            let long = try await h.graphQL(
                create, ["i": .object(["date": .string("2026-11-01"), "kind": .string("TEXT"), "text": .string(String(repeating: "a", count: 20_001))])],
                token: sam)
            #expect(long.errorExtensions?["field"] == .string("input.text"))

            // Files: an executable dressed as a PNG, and one larger than the tenant's 25 MB.
            let disguised = try await h.upload(
                "mutation($f: Upload!) { uploadMedia(file: $f) { id } }", ["f": .null], files: [("f", SampleMedia.exe, "image/png")],
                token: sam)
            #expect(disguised.errorCode == "BAD_USER_INPUT")
            #expect(disguised.errorExtensions?["field"] == .string("file"))
            let huge = try await h.upload(
                "mutation($f: Upload!) { uploadMedia(file: $f) { id } }", ["f": .null],
                files: [("f", SampleMedia.png(bytes: 26 * 1_048_576), "image/png")], token: sam)
            // Refused by the HTTP layer (413), before the file reaches the resolver.
            #expect(huge.errorCode == "PAYLOAD_TOO_LARGE")
            #expect(huge.errorMessage?.contains("25 MiB") == true, "\(huge.json)")

            // An entry with files, one of them refused: neither the entry nor the good file is kept.
            let mixed = try await h.upload(
                "mutation($i: EntryInput!, $f: [Upload!]) { createEntry(input: $i, files: $f) { id } }",
                ["i": .object(["date": .string("2026-11-01"), "kind": .string("IMAGE")]), "f": .list([.null, .null])],
                files: [("f.0", SampleMedia.png, "image/png"), ("f.1", SampleMedia.exe, "image/png")], token: sam)
            #expect(mixed.errorExtensions?["field"] == .string("files.1"))
            // An entry refused after its files were stored: the files go too.
            let lateRefusal = try await h.upload(
                "mutation($i: EntryInput!, $f: [Upload!]) { createEntry(input: $i, files: $f) { id } }",
                ["i": .object(["date": .string("2026-11-01"), "kind": .string("MOOD")]), "f": .list([.null])],
                files: [("f.0", SampleMedia.png, "image/png")], token: sam)
            #expect(lateRefusal.errorExtensions?["field"] == .string("input.mood"))

            #expect(try await h.count("entries", ownedBy: samID, column: "author_id") == 0)
            #expect(try await h.count("media", ownedBy: samID) == 0)
            #expect(try await h.count("tags", ownedBy: samID) == 0)

            // The profile: a colour that is not one, named; nothing changed.
            let colour = try await h.graphQL(
                "mutation($i: ProfileInput!) { updateProfile(input: $i) { displayName } }",
                ["i": .object(["displayName": .string("Sammy"), "colours": .list([.object(["role": .string("primary"), "value": .string("red")])])])],
                token: sam)
            #expect(colour.errorExtensions?["field"] == .string("input.colours"))
            let profile = try await h.graphQL("{ me { profile { displayName colours { role value } moodIcons { label } } } }", token: sam)
            #expect(profile["data"]?["me"]?["profile"]?["displayName"] == .string("Sam"))
            let changed = try await h.graphQL(
                "mutation($i: ProfileInput!) { updateProfile(input: $i) { displayName colours { role value } moodIcons { emoji label } } }",
                ["i": .object([
                    "displayName": .string("Sammy"), "colours": .list([.object(["role": .string("primary"), "value": .string("#ff8800")])]),
                    "moodIcons": .list([.object(["emoji": .string("🐱"), "label": .string("Purring")])]),
                ])], token: sam)
            #expect(changed["data"]?["updateProfile"] == .object([
                "displayName": .string("Sammy"), "colours": .list([.object(["role": .string("primary"), "value": .string("#ff8800")])]),
                "moodIcons": .list([.object(["emoji": .string("🐱"), "label": .string("Purring")])]),
            ]), "\(changed.json)")
            // An avatar of their own picture, and backgrounds for entries.
            let picture = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam)
            let pictured = try await h.graphQL(
                "mutation($i: ProfileInput!) { updateProfile(input: $i) { avatar avatarMedia { id } entryBackgrounds displayName } }",
                ["i": .object([
                    "avatar": .string("fox"), "avatarMediaId": picture["id"]!,
                    "entryBackgrounds": .list([.string("sunset"), .string("stripes")]),
                ])], token: sam)
            #expect(pictured["data"]?["updateProfile"] == .object([
                "avatar": .string("fox"), "avatarMedia": .object(["id": picture["id"]!]),
                "entryBackgrounds": .list([.string("sunset"), .string("stripes")]), "displayName": .string("Sammy"),
            ]), "\(pictured.json)")
            // Their own icons are now the moods a check-in takes.
            let purring = try await h.graphQL(#"mutation { checkIn(mood: "Purring") { mood } }"#, token: sam)
            #expect(purring["data"]?["checkIn"]?["mood"] == .string("Purring"))
        }
    }
}
