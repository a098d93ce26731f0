import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
import StorykeepSeed
@testable import StorykeepJournals
@testable import StorykeepProfile

private let tenantIcons = [MoodIcon(emoji: "😄", label: "Happy"), MoodIcon(emoji: "😢", label: "Sad")]

/// Prompts as a tenant file has them.
private func prompts(_ json: String) throws -> [Prompt] {
    try JSONDecoder().decode([Prompt].self, from: Data(json.utf8))
}

@Suite("Journal: the person's profile and smart suggestions")
struct JournalProfileTests {
    @Test func aProfileStartsFromTheDefaultsAndKeepsWhatIsNotChanged() async throws {
        try await JournalDatabase.run { db in
            try await db.asSam { tx throws in
                let profiles = ProfileStore(tx)
                #expect(try await profiles.profile(defaultMoodIcons: tenantIcons) == Profile(
                    displayName: "Sam", avatar: nil, avatarMediaID: nil, colours: [:], moodIcons: tenantIcons, entryBackgrounds: []))
                let picture = try await MediaStore(tx).upload(SampleMedia.png, declaredType: "image/png", maxBytes: 1000)
                let mine = [MoodIcon(emoji: "🥳", label: "Buzzing"), MoodIcon(emoji: "😶", label: "Meh")]
                let updated = try await profiles.updateProfile(
                    ProfileChanges(displayName: "  Sammy ", avatar: "fox", colours: ["primary": "#5B3CC4", "background": "#fff8e7ff"], moodIcons: mine),
                    defaultMoodIcons: tenantIcons)
                #expect(updated == Profile(
                    displayName: "Sammy", avatar: "fox", avatarMediaID: nil, colours: ["primary": "#5B3CC4", "background": "#fff8e7ff"],
                    moodIcons: mine, entryBackgrounds: []))
                let again = try await profiles.updateProfile(
                    ProfileChanges(avatarMediaID: picture.id, entryBackgrounds: ["stars", "#ffd6e0"]), defaultMoodIcons: tenantIcons)
                #expect(again.displayName == "Sammy" && again.moodIcons == mine && again.avatarMediaID == picture.id)
                #expect(again.entryBackgrounds == ["stars", "#ffd6e0"] && again.colours["primary"] == "#5B3CC4")
            }
            // Alex still has the defaults.
            try await db.asPerson(db.tenant.alexContext) { tx throws in
                #expect(try await ProfileStore(tx).profile(defaultMoodIcons: tenantIcons).displayName == "Alex")
            }
        }
    }

    @Test func badProfileInputIsRefusedNamingTheField() async throws {
        try await JournalDatabase.run { db in
            let alexPicture = try await db.asPerson(db.tenant.alexContext) { tx throws in
                try await MediaStore(tx).upload(SampleMedia.png, declaredType: "image/png", maxBytes: 1000).id
            }
            try await db.asSam { tx throws in
                let profiles = ProfileStore(tx)
                let voice = try await MediaStore(tx).upload(SampleMedia.m4a, declaredType: "audio/mp4", maxBytes: 1000)
                let refusals: [(ProfileChanges, String)] = [
                    (ProfileChanges(displayName: " "), "displayName"),
                    (ProfileChanges(displayName: String(repeating: "x", count: 101)), "displayName"),
                    (ProfileChanges(avatar: ""), "avatar"),
                    (ProfileChanges(avatarMediaID: alexPicture), "avatarMediaId"),
                    (ProfileChanges(avatarMediaID: voice.id), "avatarMediaId"),
                    (ProfileChanges(colours: ["primary": "red"]), "colours"),
                    (ProfileChanges(colours: ["primary": "#12345"]), "colours"),
                    (ProfileChanges(colours: ["bad key": "#123456"]), "colours"),
                    (ProfileChanges(moodIcons: []), "moodIcons"),
                    (ProfileChanges(moodIcons: [MoodIcon(emoji: "😄😢", label: "Two")]), "moodIcons"),
                    (ProfileChanges(moodIcons: [MoodIcon(emoji: "😄", label: " ")]), "moodIcons"),
                    (ProfileChanges(moodIcons: [MoodIcon(emoji: "😄", label: "Happy"), MoodIcon(emoji: "🙂", label: "happy")]), "moodIcons"),
                    (ProfileChanges(entryBackgrounds: [""]), "entryBackgrounds"),
                    (ProfileChanges(entryBackgrounds: Array(repeating: "stars", count: 51)), "entryBackgrounds"),
                ]
                for (changes, field) in refusals {
                    await expectBadInput(field) { _ = try await profiles.updateProfile(changes, defaultMoodIcons: tenantIcons) }
                }
                #expect(try await tx.query("select count(*) from profiles")[0].decode(Int.self, at: 0) == 0)
            }
        }
    }

    @Test func suggestionsFitTheMoodAndAvoidTheRecentlyAnswered() async throws {
        let all = try prompts("""
            [{"text": "What made you smile today?", "moods": ["Happy"]},
             {"text": "Who would you like to talk to?", "moods": ["Sad"]},
             {"text": "Draw your day"}, {"text": "What are you looking forward to?"}, {"text": "Describe your room"}]
            """)
        // The seed's generator: a fixed sequence, so that a random choice is reproducible.
        var generator = SeedRandom(seed: 42)
        let happy = Suggestions.choose(count: 3, from: all, mood: "Happy", recent: [], using: &generator)
        #expect(happy.count == 3 && Set(happy.map(\.text)).count == 3 && !happy.contains { $0.text.english.hasPrefix("Who") })
        let fresh = Suggestions.choose(
            count: 3, from: all, mood: "Sad", recent: ["Draw your day", "Describe your room"], using: &generator)
        #expect(fresh.count == 3 && fresh.last?.text == "Describe your room")
        #expect(Set(fresh.prefix(2).map(\.text)) == ["What are you looking forward to?", "Who would you like to talk to?"])
        #expect(Suggestions.choose(count: 10, from: all, mood: nil, recent: [], using: &generator).count == 5)

        try await JournalDatabase.run { db in
            try await db.asSam { tx throws in
                let store = JournalStore(tx)
                for (index, prompt) in ["Draw your day", "Describe your room", "Draw your day", "What made you smile today?"].enumerated() {
                    _ = try await store.createEntry(EntryInput(day: .november(index + 1), kind: .text, suggestion: prompt))
                }
                _ = try await store.createEntry(EntryInput(day: .november(9), kind: .text))
                #expect(try await Suggestions.recentlyAnswered(limit: 2, on: tx) == ["What made you smile today?", "Draw your day"])
                #expect(try await Suggestions.recentlyAnswered(limit: 5, on: tx) == [
                    "What made you smile today?", "Draw your day", "Describe your room",
                ])
            }
            try await db.asPerson(db.tenant.alexContext) { tx throws in
                #expect(try await Suggestions.recentlyAnswered(limit: 5, on: tx).isEmpty)
            }
        }
    }
}
