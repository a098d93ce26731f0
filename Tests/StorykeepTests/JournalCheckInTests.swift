import Foundation
import Postgres
import Testing

import Storykeep
@testable import StorykeepArchive
@testable import StorykeepJournals

@Suite("Journal: the daily mood check-in and its skips")
struct JournalCheckInTests {
    @Test func aSecondCheckInTheSameDayUpdatesTheFirst() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            let checkIns = CheckInStore(tx)
            #expect(try await checkIns.status(day: .november(22)) == .pending)
            let first = try await checkIns.checkIn(day: .november(22), mood: "Worried", note: "test at school")
            #expect(first.kind == .mood && first.mood == "Worried" && first.text == "test at school" && first.day == .november(22))
            #expect(try await checkIns.status(day: .november(22)) == .done(entryID: first.id, mood: "Worried"))
            let second = try await checkIns.checkIn(day: .november(22), mood: "Happy")
            #expect(second.id == first.id && second.mood == "Happy" && second.text == "test at school")
            #expect(second.createdAt == first.createdAt && second.updatedAt > first.updatedAt)
            let third = try await checkIns.checkIn(day: .november(22), mood: "Calm", note: "it went fine")
            #expect(third.id == first.id && third.text == "it went fine")
            // Another day is another check-in.
            let tomorrow = try await checkIns.checkIn(day: .november(23), mood: "Tired")
            #expect(tomorrow.id != first.id)
            #expect(try await JournalStore(tx).entries(first: 10, filter: EntryFilter(kinds: [.mood])).items.count == 2)
            await expectBadInput("mood") { _ = try await checkIns.checkIn(day: .november(24), mood: "") }
        }
    }

    @Test func checkInsAtTheSameMomentLeaveOneEntry() async throws {
        try await JournalDatabase.run { db in
            try await withThrowingTaskGroup(of: UUID.self) { group in
                for mood in ["Happy", "Sad", "Calm"] {
                    group.addTask {
                        try await db.asSam { tx throws in try await CheckInStore(tx).checkIn(day: .november(22), mood: mood).id }
                    }
                }
                var ids = Set<UUID>()
                for try await id in group { ids.insert(id) }
                #expect(ids.count == 1)
            }
            try await db.asSam { tx throws in
                let count = try await tx.query("select count(*) from entries where kind = 'MOOD' and day = '2026-11-22'")
                #expect(try count[0].decode(Int.self, at: 0) == 1)
            }
        }
    }

    @Test func theDatabaseHoldsOneLiveCheckInADay() async throws {
        try await JournalDatabase.run { db in
            let first = try await db.asSam { tx throws in try await CheckInStore(tx).checkIn(day: .november(22), mood: "Okay") }
            // Written by hand, a second one is refused by the unique index.
            let duplicate = await db.attempt(
                db.tenant.samContext.settings,
                "insert into entries (tenant_id, author_id, day, kind, mood) values (current_tenant_id(), current_person_id(), '2026-11-22', 'MOOD', 'Sad')")
            #expect(duplicate == .failed("23505"))
            try await db.asSam { tx throws in
                // Through the store, a MOOD entry for that day is refused naming the date.
                await expectBadInput("date") {
                    _ = try await JournalStore(tx).createEntry(EntryInput(day: .november(22), kind: .mood, mood: "Sad"))
                }
                let other = try await JournalStore(tx).createEntry(EntryInput(day: .november(21), kind: .mood, mood: "Sad"))
                await expectBadInput("date") {
                    _ = try await JournalStore(tx).updateEntry(id: other.id, EntryInput(day: .november(22), kind: .mood, mood: "Sad"))
                }
                // Once deleted, the day is free again; the archived check-in cannot then come back.
                try await JournalStore(tx).deleteEntry(id: first.id, now: Date())
                #expect(try await CheckInStore(tx).status(day: .november(22)) == .pending)
                let again = try await CheckInStore(tx).checkIn(day: .november(22), mood: "Calm")
                #expect(again.id != first.id)
                await expectBadInput("id") { _ = try await ArchiveStore(tx).restoreEntry(id: first.id) }
            }
        }
    }

    @Test func todayIsTheTenantsDay() throws {
        let london = try #require(TimeZone(identifier: "Europe/London"))
        let auckland = try #require(TimeZone(identifier: "Pacific/Auckland"))
        // 2026-05-31T23:30:00Z is 00:30 on 1 June in London (BST) and 11:30 on 1 June in Auckland.
        let lateMay = Date(timeIntervalSince1970: 1_780_270_200)
        #expect(PostgresDate(lateMay, in: london) == PostgresDate(year: 2026, month: 6, day: 1))
        #expect(PostgresDate(lateMay, in: TimeZone(identifier: "UTC")!) == PostgresDate(year: 2026, month: 5, day: 31))
        #expect(PostgresDate(lateMay, in: auckland) == PostgresDate(year: 2026, month: 6, day: 1))
        // In winter London is on UTC.
        let december = Date(timeIntervalSince1970: 1_798_675_200)  // 2026-12-31T00:00:00Z
        #expect(PostgresDate(december.addingTimeInterval(-1), in: london) == PostgresDate(year: 2026, month: 12, day: 30))
    }

    @Test func aSkipIsRememberedForThatDay() async throws {
        try await JournalDatabase.run { db in
            try await db.asSam { tx throws in
                let checkIns = CheckInStore(tx)
                try await checkIns.skip(day: .november(22))
                try await checkIns.skip(day: .november(22))
                #expect(try await checkIns.status(day: .november(22)) == .skipped)
                #expect(try await checkIns.status(day: .november(23)) == .pending)
                // Checking in later that day still counts.
                let entry = try await checkIns.checkIn(day: .november(22), mood: "Okay")
                #expect(try await checkIns.status(day: .november(22)) == .done(entryID: entry.id, mood: "Okay"))
            }
            // Alex's day is Alex's.
            try await db.asPerson(db.tenant.alexContext) { tx throws in
                #expect(try await CheckInStore(tx).status(day: .november(22)) == .pending)
            }
        }
    }
}
