import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepArchive
@testable import StorykeepJournals
@testable import StorykeepTags

@Suite("Journal: entries written, read, paged, filtered, searched and shown by calendar")
struct JournalStoreTests {
    @Test func anEntryIsWrittenWithItsTagsAndMediaInOrder() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            let tags = TagStore(tx)
            let (school, music) = (try await tags.createTag(name: "school"), try await tags.createTag(name: "Music"))
            let media = MediaStore(tx)
            let photo = try await media.upload(SampleMedia.png, declaredType: "image/png", maxBytes: 1000)
            let voice = try await media.upload(SampleMedia.m4a, declaredType: "audio/mp4", maxBytes: 1000)
            let created = try await JournalStore(tx).createEntry(EntryInput(
                day: .november(20), kind: .text, text: "Band practice went well", mood: "Happy",
                background: "stars", suggestion: "What made you smile today?",
                tagIDs: [school.id, music.id, school.id], mediaIDs: [voice.id, photo.id]))
            #expect(created.day == .november(20) && created.kind == .text && created.archivedAt == nil)
            #expect(created.text == "Band practice went well" && created.mood == "Happy" && created.background == "stars")
            #expect(created.suggestion == "What made you smile today?")
            #expect(try await tx.tags(of: created.id) == [music, school])
            #expect(created.media.map(\.id) == [voice.id, photo.id])
            #expect(created.media.map(\.contentType) == ["audio/mp4", "image/png"])
            #expect(created.media[1].byteSize == SampleMedia.png.count && created.media[1].sha256.count == 32)
            #expect(try await JournalStore(tx).entry(id: created.id) == created)
        }
    }

    @Test func anUpdateReplacesFieldsTagsAndMedia() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            let store = JournalStore(tx)
            let (a, b) = (try await TagStore(tx).createTag(name: "a"), try await TagStore(tx).createTag(name: "b"))
            let one = try await MediaStore(tx).upload(SampleMedia.jpeg, declaredType: nil, maxBytes: 1000)
            let two = try await MediaStore(tx).upload(SampleMedia.png, declaredType: nil, maxBytes: 1000)
            let entry = try await store.createEntry(
                EntryInput(day: .november(1), kind: .text, text: "first", tagIDs: [a.id], mediaIDs: [one.id, two.id]))
            // A TEXT entry becomes an IMAGE entry with the photos the other way round.
            let updated = try await store.updateEntry(
                id: entry.id, EntryInput(day: .november(2), kind: .image, text: nil, tagIDs: [b.id], mediaIDs: [two.id, one.id]))
            #expect(updated.day == .november(2) && updated.kind == .image && updated.text == nil)
            #expect(try await tx.tags(of: updated.id) == [b] && updated.media.map(\.id) == [two.id, one.id])
            #expect(updated.createdAt == entry.createdAt && updated.updatedAt > entry.updatedAt)
            // The search text follows the tags.
            #expect(try await store.search("a", first: 10).items.isEmpty)
            #expect(try await store.search("b", first: 10).items.map(\.item.id) == [entry.id])
            await #expect(throws: JournalError.notFound(id: a.id)) { _ = try await store.updateEntry(id: a.id, EntryInput(day: .november(1), kind: .text)) }
        }
    }

    @Test func badInputIsRefusedNamingTheFieldAndChangesNothing() async throws {
        try await JournalDatabase.run { db in
            let alexPhoto = try await db.asPerson(db.tenant.alexContext) { tx throws in
                try await MediaStore(tx).upload(SampleMedia.png, declaredType: "image/png", maxBytes: 1000)
            }
            let alexTag = try await db.asPerson(db.tenant.alexContext) { tx throws in try await TagStore(tx).createTag(name: "alex's") }
            try await db.asSam { tx throws in
                let store = JournalStore(tx)
                let tag = try await TagStore(tx).createTag(name: "mine")
                let photo = try await MediaStore(tx).upload(SampleMedia.png, declaredType: "image/png", maxBytes: 1000)
                let valid = EntryInput(day: .november(3), kind: .image, tagIDs: [tag.id], mediaIDs: [photo.id])
                var input = valid
                input.day = nil
                await expectBadInput("date") { _ = try await store.createEntry(input) }
                input = valid
                input.kind = nil
                await expectBadInput("kind") { _ = try await store.createEntry(input) }
                input = valid
                input.tagIDs = [tag.id, UUID()]
                await expectBadInput("tagIds") { _ = try await store.createEntry(input) }
                input.tagIDs = [alexTag.id]
                await expectBadInput("tagIds") { _ = try await store.createEntry(input) }
                input = valid
                input.mediaIDs = [photo.id, alexPhoto.id]
                await expectBadInput("mediaIds") { _ = try await store.createEntry(input) }
                input = valid
                input.text = String(repeating: "é", count: TextLimit.entryText.range.upperBound + 1)
                await expectBadInput("text") { _ = try await store.createEntry(input) }
                input = valid
                input.mood = ""
                await expectBadInput("mood") { _ = try await store.createEntry(input) }
                input = EntryInput(day: .november(3), kind: .mood)
                await expectBadInput("mood") { _ = try await store.createEntry(input) }
                // Nothing was written, and the transaction is still usable.
                #expect(try await tx.query("select count(*) from entries")[0].decode(Int.self, at: 0) == 0)
                #expect(try await tx.query("select count(*) from entry_tags")[0].decode(Int.self, at: 0) == 0)
                let entry = try await store.createEntry(valid)
                // A file belongs to one entry at most.
                await expectBadInput("mediaIds") {
                    _ = try await store.createEntry(EntryInput(day: .november(4), kind: .image, mediaIDs: [photo.id]))
                }
                // An update refused changes nothing either.
                await expectBadInput("tagIds") {
                    _ = try await store.updateEntry(id: entry.id, EntryInput(day: .november(9), kind: .text, tagIDs: [UUID()]))
                }
                #expect(try await store.entry(id: entry.id) == entry)
            }
        }
    }

    @Test func pagesAreNewestFirstStableAndCostTheSameWhateverTheirSize() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            let counting = CountingDatabase(base: tx)
            let store = JournalStore(counting)
            let tag = try await TagStore(tx).createTag(name: "football")
            var written: [Entry] = []
            // Several entries a day, written out of day order; every other one tagged, with a file.
            for index in 0..<23 {
                let photo = try await MediaStore(tx).upload(SampleMedia.jpeg, declaredType: nil, maxBytes: 1000)
                written.append(try await store.createEntry(EntryInput(
                    day: .november(1 + (index * 7) % 10), kind: index % 3 == 0 ? .drawing : .text, text: "entry \(index)",
                    tagIDs: index % 2 == 0 ? [tag.id] : [], mediaIDs: [photo.id])))
            }
            let expected = written.sorted { ($0.day, $0.createdAt) > ($1.day, $1.createdAt) }.map(\.id)
            _ = counting.counter.take()
            for size in [1, 5, 23, 100] {
                var seen: [UUID] = []
                var after: EntryPosition?
                repeat {
                    let page = try await store.entries(first: size, after: after)
                    #expect(counting.counter.take() == 2, "page of \(size): entries, media (the tags are the tags module's: one more)")
                    #expect(page.items.allSatisfy { $0.item.media.count == 1 })
                    seen += page.items.map(\.item.id)
                    after = page.hasNextPage ? page.endPosition : nil
                } while after != nil
                #expect(seen == expected, "pages of \(size)")
            }
            let tagsOf = try await TagStore(tx).tags(ofEntries: written.map(\.id))
            let tagged = try await store.entries(first: 100, filter: EntryFilter(tagIDs: [tag.id]))
            #expect(tagged.items.map(\.item.id) == expected.filter { id in tagsOf[id] == [tag] })
            #expect(try await store.entries(first: 100, filter: EntryFilter(tagIDs: [], kinds: [])).items.count == 23)
            let drawings = try await store.entries(first: 100, filter: EntryFilter(kinds: [.drawing]))
            #expect(drawings.items.count == 8 && drawings.items.allSatisfy { $0.item.kind == .drawing })
            let range = try await store.entries(first: 100, filter: EntryFilter(from: .november(3), to: .november(4)))
            #expect(!range.items.isEmpty && range.items.allSatisfy { (PostgresDate.november(3)...PostgresDate.november(4)).contains($0.item.day) })
            let combined = try await store.entries(
                first: 100, filter: EntryFilter(tagIDs: [tag.id], kinds: [.text], from: .november(2), to: .november(8), text: "entry"))
            #expect(combined.items.map(\.item.id) == expected.filter { id in
                let entry = written.first { $0.id == id }!
                return tagsOf[id] == [tag] && entry.kind == .text && entry.day >= .november(2) && entry.day <= .november(8)
            })
            expectBadCursor("bm90IGEgY3Vyc29y", of: EntryPosition.self)
            await expectBadInput("first") { _ = try await store.entries(first: 101) }
        }
    }

    @Test func searchFindsWordsOfTheTextAndTagNamesInAnyLanguage() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            let store = JournalStore(tx)
            let tag = try await TagStore(tx).createTag(name: "family time")
            let welsh = try await store.createEntry(EntryInput(day: .november(5), kind: .text, text: "Roedd hi'n ddiwrnod da gyda Nain"))
            let polish = try await store.createEntry(EntryInput(day: .november(6), kind: .text, text: "Dzisiaj grałem w piłkę"))
            let tagged = try await store.createEntry(EntryInput(day: .november(7), kind: .audio, tagIDs: [tag.id]))
            #expect(try await store.search("NAIN", first: 10).items.map(\.item.id) == [welsh.id])
            #expect(try await store.search("piłkę", first: 10).items.map(\.item.id) == [polish.id])
            #expect(try await store.search("family", first: 10).items.map(\.item.id) == [tagged.id])
            #expect(try await store.search("\"family time\"", first: 10).items.map(\.item.id) == [tagged.id])
            #expect(try await store.search("nain OR piłkę", first: 10).items.map(\.item.id) == [polish.id, welsh.id])
            #expect(try await store.search("nain -da", first: 10).items.isEmpty)
            #expect(try await store.search("!!", first: 10).items.isEmpty)
            await expectBadInput("query") { _ = try await store.search("  ", first: 10) }
        }
    }

    @Test func theCalendarCountsEachDayAndItsMoods() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            let store = JournalStore(tx)
            _ = try await CheckInStore(tx).checkIn(day: .november(2), mood: "Calm")
            _ = try await store.createEntry(EntryInput(day: .november(2), kind: .text, mood: "Happy"))
            _ = try await store.createEntry(EntryInput(day: .november(2), kind: .text))
            _ = try await store.createEntry(EntryInput(day: .november(30), kind: .image, mood: "Tired"))
            _ = try await store.createEntry(EntryInput(day: PostgresDate(year: 2026, month: 12, day: 1), kind: .text))
            let deleted = try await store.createEntry(EntryInput(day: .november(15), kind: .text, mood: "Sad"))
            try await JournalStore(tx).deleteEntry(id: deleted.id, now: Date())
            let month = try await store.calendar(month: "2026-11")
            #expect(month.count == 30 && month.first?.day == .november(1) && month.last?.day == .november(30))
            #expect(month[1] == CalendarDay(day: .november(2), entryCount: 3, moods: ["Calm", "Happy"]))
            #expect(month[29] == CalendarDay(day: .november(30), entryCount: 1, moods: ["Tired"]))
            #expect(month.map(\.entryCount).reduce(0, +) == 4)
            #expect(try await store.calendar(month: "2028-02").count == 29)
            #expect(try await store.calendar(month: "2026-12").map(\.entryCount).reduce(0, +) == 1)
            for bad in ["2026-13", "2026-1", "november", ""] {
                await expectBadInput("month") { _ = try await store.calendar(month: bad) }
            }
        }
    }
}
