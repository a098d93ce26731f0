import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 16, item 6: lengths are counted in Unicode code points, as PostgreSQL counts them. Text of
// combining characters ("e" + U+0301, one character on screen, two code points) that fits a limit
// in characters but not in code points is BAD_USER_INPUT naming the field; text that fits in code
// points is kept. Never INTERNAL_SERVER_ERROR.

@Suite("Text lengths in code points, over HTTP")
struct TextLengthHTTPTests {
    /// `count` combined characters: `count` Swift Characters, twice as many code points.
    static func combined(_ count: Int) -> String { String(repeating: "e\u{301}", count: count) }

    /// Just over `limit` in code points, well within it in characters.
    static func over(_ limit: TextLimit) -> String { combined(limit.range.upperBound / 2 + 1) }
    /// Exactly at `limit`'s upper bound in code points (odd bounds end with one plain letter).
    static func within(_ limit: TextLimit) -> String {
        combined(limit.range.upperBound / 2) + (limit.range.upperBound % 2 == 1 ? "e" : "")
    }

    @Test func combiningCharactersAreCountedAsCodePointsEverywhere() async throws {
        try await withAccounts(tenants: 1, tweak: JournalHTTP.tenant) { h in
            let (sam, _) = try await h.youngPerson("sam")
            let admin = try await h.admin()
            var cases: [(what: String, field: String, response: GraphQLValue)] = []
            func expectRefused(_ field: String, _ response: GraphQLValue, _ what: String) {
                cases.append((what, field, response))
                #expect(response.errorCode == "BAD_USER_INPUT", "\(what): \(response.json)")
                #expect(response.errorExtensions?["field"] == .string(field), "\(what): \(response.json)")
            }
            func expectKept(_ response: GraphQLValue, _ what: String) {
                cases.append((what, "", response))
                #expect(response["errors"] == nil, "\(what): \(response.json)")
            }

            // People: the issue's own case first, a name of 150 characters and 300 code points.
            let createPerson = "mutation($i: CreatePersonInput!) { createPerson(input: $i) { person { displayName email externalRef } } }"
            func person(_ changes: GraphQLObject) -> GraphQLObject {
                var input: GraphQLObject = ["role": .string("CARER"), "displayName": .string("Cara"), "email": .string("cara\(UUID().uuidString.prefix(6))@x.example")]
                for (key, value) in changes.entries { input[key] = value }
                return ["i": .object(input)]
            }
            expectRefused("input.displayName", try await h.graphQL(createPerson, person(["displayName": .string(Self.combined(150))]), token: admin), "the issue's name")
            expectRefused("input.displayName", try await h.graphQL(createPerson, person(["displayName": .string(Self.over(.personDisplayName))]), token: admin), "person's name")
            expectRefused("input.externalRef", try await h.graphQL(createPerson, person(["externalRef": .string(Self.over(.externalRef))]), token: admin), "case reference")
            let longEmail = Self.combined(123) + "@x.example"  // 133 characters, 256 code points
            expectRefused("input.email", try await h.graphQL(createPerson, person(["email": .string(longEmail)]), token: admin), "email")
            let kept = try await h.graphQL(
                createPerson,
                person(["displayName": .string(Self.within(.personDisplayName)), "externalRef": .string(Self.within(.externalRef)),
                        "email": .string(Self.combined(100) + "@y.example")]), token: admin)
            expectKept(kept, "a person at the limits")
            #expect(kept["data"]?["createPerson"]?["person"]?["displayName"] == .string(Self.within(.personDisplayName)))

            // Logging in with a name longer than any can be.
            let login = try await h.login(Self.combined(128), "whatever it is")
            expectRefused("username", login, "login name")

            // Entries, check-ins, tags.
            let createEntry = "mutation($i: EntryInput!) { createEntry(input: $i) { id text background suggestion } }"
            func entry(_ field: String, _ value: String, day: Int) -> GraphQLObject {
                ["i": .object(["date": .string("2026-10-\(10 + day)"), "kind": .string("TEXT"), field: .string(value)])]
            }
            for (day, (field, limit)) in [("text", TextLimit.entryText), ("background", TextLimit.background), ("suggestion", TextLimit.suggestion)].enumerated() {
                expectRefused("input.\(field)", try await h.graphQL(createEntry, entry(field, Self.over(limit), day: day), token: sam), "entry \(field)")
                let stored = try await h.graphQL(createEntry, entry(field, Self.within(limit), day: day), token: sam)
                expectKept(stored, "entry \(field) at the limit")
                #expect(stored["data"]?["createEntry"]?[field] == .string(Self.within(limit)))
            }
            expectRefused("input.mood", try await h.graphQL(
                createEntry, ["i": .object(["date": .string("2026-10-20"), "kind": .string("MOOD"), "mood": .string(Self.over(.mood))])],
                token: sam), "entry mood")
            let checkIn = "mutation($m: String!, $n: String) { checkIn(mood: $m, note: $n) { id } }"
            expectRefused("mood", try await h.graphQL(checkIn, ["m": .string(Self.over(.mood))], token: sam), "check-in mood")
            expectRefused("note", try await h.graphQL(checkIn, ["m": .string("Happy"), "n": .string(Self.over(.entryText))], token: sam), "check-in note")
            expectKept(try await h.graphQL(checkIn, ["m": .string("Happy"), "n": .string(Self.within(.entryText))], token: sam), "check-in note at the limit")

            let createTag = "mutation($n: String!) { createTag(name: $n) { id name } }"
            expectRefused("name", try await h.graphQL(createTag, ["n": .string(Self.over(.tagName))], token: sam), "tag name")
            let tag = try await h.graphQL(createTag, ["n": .string(Self.within(.tagName))], token: sam)
            expectKept(tag, "tag name at the limit")
            let tagID = try #require(tag["data"]?["createTag"]?["id"])
            expectRefused("name", try await h.graphQL(
                "mutation($id: ID!, $n: String!) { renameTag(id: $id, name: $n) { id } }", ["id": tagID, "n": .string(Self.over(.tagName))],
                token: sam), "tag renamed")

            // The profile; a mood label at the limit is then a mood to check in with.
            let updateProfile = "mutation($i: ProfileInput!) { updateProfile(input: $i) { displayName avatar entryBackgrounds moodIcons { label } } }"
            for (field, limit) in [("displayName", TextLimit.profileDisplayName), ("avatar", TextLimit.avatar)] {
                expectRefused("input.\(field)", try await h.graphQL(updateProfile, ["i": .object([field: .string(Self.over(limit))])], token: sam), "profile \(field)")
            }
            expectRefused("input.entryBackgrounds", try await h.graphQL(
                updateProfile, ["i": .object(["entryBackgrounds": .list([.string("stars"), .string(Self.over(.background))])])], token: sam),
                "a background")
            func icons(_ label: String) -> GraphQLObject {
                ["i": .object(["moodIcons": .list([.object(["emoji": .string("🙂"), "label": .string(label)])])])]
            }
            expectRefused("input.moodIcons", try await h.graphQL(updateProfile, icons(Self.over(.mood)), token: sam), "a mood label")
            let profile = try await h.graphQL(
                updateProfile,
                ["i": .object([
                    "displayName": .string(Self.within(.profileDisplayName)), "avatar": .string(Self.within(.avatar)),
                    "entryBackgrounds": .list([.string(Self.within(.background))]),
                    "moodIcons": .list([.object(["emoji": .string("🙂"), "label": .string(Self.within(.mood))])]),
                ])], token: sam)
            expectKept(profile, "a profile at the limits")
            #expect(profile["data"]?["updateProfile"]?["displayName"] == .string(Self.within(.profileDisplayName)))
            let moodEntry = try await h.graphQL(
                createEntry, ["i": .object(["date": .string("2026-10-21"), "kind": .string("MOOD"), "mood": .string(Self.within(.mood)),
                                            "background": .string(Self.within(.background))])], token: sam)
            expectKept(moodEntry, "an entry with a mood and background at the limit")

            // A password's minimum length (10) is counted the same way: five combined characters are ten.
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Pat", username: "pat-\(UUID().uuidString.prefix(6))"))
            let activated = try await h.graphQL(
                "mutation($c: String!, $p: String!) { activateAccount(code: $c, password: $p) { token } }",
                ["c": .string(issued.code.displayText), "p": .string(Self.combined(5))])
            expectKept(activated, "a password of ten code points")

            #expect(cases.allSatisfy { $0.response.errorCode != "INTERNAL_SERVER_ERROR" })
            #expect(cases.count >= 25)
            try await h.client.execute(uri: "/health/live", method: .get) { #expect($0.status == .ok) }
        }
    }

    /// Patterns read code points too, as the database's do: an "@" followed by a combining accent
    /// is one character on screen but still an "@", so this address has two.
    @Test func formatsAreJudgedByCodePoints() async throws {
        try await withAccounts(tenants: 1) { h in
            let admin = try await h.admin()
            let createPerson = "mutation($i: CreatePersonInput!) { createPerson(input: $i) { person { id } } }"
            for (field, input) in [
                ("input.email", ["role": "CARER", "displayName": "Cara", "email": "ab@\u{301}cd@x.example"]),
                ("input.email", ["role": "CARER", "displayName": "Cara", "email": "ab \u{301}cd@x.example"]),
                ("input.username", ["role": "YOUNG_PERSON", "displayName": "Yan", "username": "abc\u{301}d"]),
            ] {
                let response = try await h.graphQL(createPerson, ["i": .object(GraphQLObject(uniqueKeys: Array(input.keys), values: input.values.map(GraphQLValue.string)))], token: admin)
                #expect(response.errorCode == "BAD_USER_INPUT", "\(input): \(response.json)")
                #expect(response.errorExtensions?["field"] == .string(field), "\(input): \(response.json)")
            }
        }
    }
}
