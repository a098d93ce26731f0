import Foundation
import Postgres
import Testing

import Storykeep
@testable import StorykeepArchive
@testable import StorykeepJournals
@testable import StorykeepTags

@Suite("Journal: a person's own tags")
struct JournalTagTests {
    @Test func namesAreTrimmedOneTo99CharactersAndUniqueWhateverTheCase() async throws {
        try await JournalDatabase.run { db in
            try await db.asSam { tx throws in
                let tags = TagStore(tx)
                for bad in ["", "   ", "\n\t", String(repeating: "x", count: 100), String(repeating: "é", count: 100)] {
                    await expectBadInput("name") { _ = try await tags.createTag(name: bad) }
                }
                let longest = try await tags.createTag(name: String(repeating: "é", count: 99))
                #expect(longest.name.unicodeScalars.count == 99)
                let music = try await tags.createTag(name: "  Music ")
                #expect(music.name == "Music")
                for same in ["music", "MUSIC", " music"] {
                    await expectBadInput("name") { _ = try await tags.createTag(name: same) }
                }
                let ecole = try await tags.createTag(name: "École")
                await expectBadInput("name") { _ = try await tags.createTag(name: "école") }
                let emoji = try await tags.createTag(name: "⚽️ football")
                // In alphabetical order, whatever the case and accents.
                #expect(try await tags.tags() == [emoji, ecole, longest, music])
            }
            // Another person may have the same names.
            try await db.asPerson(db.tenant.alexContext) { tx throws in
                #expect(try await TagStore(tx).createTag(name: "music").name == "music")
            }
            // The database holds the rules too.
            for (name, constraint) in [(String(repeating: "x", count: 100), "23514"), (" padded ", "23514"), ("", "23514"), ("MUSIC", "23505")] {
                let outcome = await db.attempt(
                    db.tenant.samContext.settings,
                    "insert into tags (tenant_id, owner_id, name) values (current_tenant_id(), current_person_id(), $1)", name)
                #expect(outcome == .failed(constraint), "\(name)")
            }
        }
    }

    @Test func aRenamedTagIsFoundByItsNewName() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            let tags = TagStore(tx)
            let store = JournalStore(tx)
            let tag = try await tags.createTag(name: "footy")
            let other = try await tags.createTag(name: "friends")
            let entry = try await store.createEntry(EntryInput(day: .november(3), kind: .text, tagIDs: [tag.id, other.id]))
            let archived = try await store.createEntry(EntryInput(day: .november(4), kind: .text, tagIDs: [tag.id]))
            try await JournalStore(tx).deleteEntry(id: archived.id, now: Date())
            await expectBadInput("name") { _ = try await tags.renameTag(id: tag.id, to: "Friends") }
            await expectBadInput("name") { _ = try await tags.renameTag(id: tag.id, to: " ") }
            await #expect(throws: JournalError.notFound(id: entry.id)) { _ = try await tags.renameTag(id: entry.id, to: "x") }
            #expect(try await tags.renameTag(id: tag.id, to: "Football") == Storykeep.Tag(id: tag.id, name: "Football"))
            #expect(try await tags.renameTag(id: tag.id, to: "football").name == "football")
            #expect(try await store.search("footy", first: 10).items.isEmpty)
            #expect(try await store.search("football", first: 10).items.map(\.item.id) == [entry.id])
            #expect(try await store.search("football friends", first: 10).items.map(\.item.id) == [entry.id])
            #expect(try await tx.tags(of: entry.id).map(\.name) == ["football", "friends"])
            // The archived entry carries the new name when it comes back.
            _ = try await ArchiveStore(tx).restoreEntry(id: archived.id)
            #expect(try await store.search("football", first: 10).items.map(\.item.id) == [archived.id, entry.id])
        }
    }

    @Test func aDeletedTagLeavesItsEntriesWhichStay() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            let tags = TagStore(tx)
            let store = JournalStore(tx)
            let worries = try await tags.createTag(name: "worries")
            let school = try await tags.createTag(name: "school")
            let entry = try await store.createEntry(
                EntryInput(day: .november(3), kind: .text, text: "maths", tagIDs: [worries.id, school.id]))
            try await tags.deleteTag(id: worries.id)
            #expect(try await tags.tags() == [school])
            #expect(try await tx.tags(of: entry.id) == [school])
            #expect(try await store.search("worries", first: 10).items.isEmpty)
            #expect(try await store.search("school maths", first: 10).items.map(\.item.id) == [entry.id])
            #expect(try await store.entries(first: 10, filter: EntryFilter(tagIDs: [worries.id])).items.isEmpty)
            await #expect(throws: JournalError.notFound(id: worries.id)) { try await tags.deleteTag(id: worries.id) }
            // Its name is free again.
            #expect(try await tags.createTag(name: "Worries").name == "Worries")
        }
    }
}
