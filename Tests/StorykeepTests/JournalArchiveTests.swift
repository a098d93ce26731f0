import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepArchive
@testable import StorykeepCore
@testable import StorykeepJournals
@testable import StorykeepTags

private let day: TimeInterval = 86_400
private let retention = Duration.seconds(30 * 86_400)

@Suite("Journal: the archive of deleted entries, restore and purge")
struct JournalArchiveTests {
    @Test func aDeletedEntryLeavesTheJournalSearchAndCalendarAndComesBackWhole() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            let store = JournalStore(tx)
            let archive = ArchiveStore(tx)
            let tag = try await TagStore(tx).createTag(name: "holiday")
            let photo = try await MediaStore(tx).upload(SampleMedia.jpeg, declaredType: "image/jpeg", maxBytes: 1000)
            let entry = try await store.createEntry(EntryInput(
                day: .november(8), kind: .image, text: "beach day", mood: "Happy", tagIDs: [tag.id], mediaIDs: [photo.id]))
            let other = try await store.createEntry(EntryInput(day: .november(9), kind: .text, text: "beach again"))
            let deletedAt = Date(timeIntervalSince1970: 1_795_000_000)
            try await store.deleteEntry(id: entry.id, now: deletedAt)
            #expect(try await store.entry(id: entry.id) == nil)
            #expect(try await store.entries(first: 10).items.map(\.item.id) == [other.id])
            #expect(try await store.search("beach", first: 10).items.map(\.item.id) == [other.id])
            #expect(try await store.search("holiday", first: 10).items.isEmpty)
            #expect(try await store.calendar(month: "2026-11")[7].entryCount == 0)
            await #expect(throws: JournalError.notFound(id: entry.id)) { try await store.deleteEntry(id: entry.id, now: deletedAt) }
            // Its file cannot be taken for another entry while it waits.
            await expectBadInput("mediaIds") {
                _ = try await store.createEntry(EntryInput(day: .november(9), kind: .image, mediaIDs: [photo.id]))
            }

            let listed = try await archive.archive(first: 10, retention: retention)
            #expect(listed.items.count == 1 && !listed.hasNextPage)
            #expect(listed.items[0].item.entry.id == entry.id && listed.items[0].item.entry.archivedAt == deletedAt)
            #expect(try await tx.tags(of: entry.id) == [tag] && listed.items[0].item.entry.media == [photo])
            #expect(listed.items[0].item.purgeAt == deletedAt.addingTimeInterval(30 * day))

            let restored = try await archive.restoreEntry(id: entry.id)
            var expected = entry
            expected.archivedAt = nil
            #expect(restored == expected)
            #expect(try await store.search("holiday", first: 10).items.map(\.item.id) == [entry.id])
            #expect(try await archive.archive(first: 10, retention: retention).items.isEmpty)
            await #expect(throws: JournalError.notFound(id: entry.id)) { _ = try await archive.restoreEntry(id: entry.id) }
        }
    }

    @Test func theArchiveIsPagedMostRecentlyDeletedFirst() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            let start = Date(timeIntervalSince1970: 1_795_000_000)
            var ids: [UUID] = []
            for index in 0..<7 {
                let entry = try await JournalStore(tx).createEntry(EntryInput(day: .november(1 + index), kind: .text))
                // Two deleted at the same moment: the id orders them.
                try await JournalStore(tx).deleteEntry(id: entry.id, now: start.addingTimeInterval(Double(min(index, 5)) * 60))
                ids.append(entry.id)
            }
            let counting = CountingDatabase(base: tx)
            var seen: [UUID] = []
            var after: ArchivePosition?
            repeat {
                let page = try await ArchiveStore(counting).archive(first: 3, after: after, retention: retention)
                #expect(counting.counter.take() == 2, "entries, media (the tags are the tags module's: one more)")
                seen += page.items.map(\.item.entry.id)
                after = page.hasNextPage ? page.endPosition : nil
            } while after != nil
            let lastTwo = ids[5...6].sorted { $0.uuidString.lowercased() > $1.uuidString.lowercased() }
            #expect(seen == lastTwo + ids[0..<5].reversed())
            expectBadCursor("x", of: ArchivePosition.self)
        }
    }

    @Test func thePurgeRemovesWhatOutlivedTheRetentionWithItsMediaAndNothingElse() async throws {
        try await JournalDatabase.run { db in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let other = try await db.otherTenant()
            let (old, recent, live, oldPhoto, livePhoto) = try await db.asSam { tx throws in
                let store = JournalStore(tx)
                let tag = try await TagStore(tx).createTag(name: "kept")
                var made: [Entry] = []
                var photos: [MediaInfo] = []
                for index in 0..<3 {
                    photos.append(try await MediaStore(tx).upload(SampleMedia.png, declaredType: nil, maxBytes: 1000))
                    made.append(try await store.createEntry(
                        EntryInput(day: .november(index + 1), kind: .image, tagIDs: [tag.id], mediaIDs: [photos[index].id])))
                }
                try await JournalStore(tx).deleteEntry(id: made[0].id, now: now.addingTimeInterval(-31 * day))
                try await JournalStore(tx).deleteEntry(id: made[1].id, now: now.addingTimeInterval(-29 * day))
                return (made[0], made[1], made[2], photos[0], photos[2])
            }
            // Another tenant's old archive is not this tenant's purge's business.
            let stranger = try await db.asPerson(other.samContext) { tx throws in
                let entry = try await JournalStore(tx).createEntry(EntryInput(day: .november(1), kind: .text))
                try await JournalStore(tx).deleteEntry(id: entry.id, now: now.addingTimeInterval(-100 * day))
                return entry
            }
            let outcome = try await db.app.transaction { tx throws in
                try await ArchivePurge.purge(tenantID: db.tenant.id, olderThan: retention, now: now, on: tx)
            }
            #expect(outcome == ArchivePurge.Outcome(entries: 1, media: 1))
            try await db.asSam { tx throws in
                #expect(try await ArchiveStore(tx).archive(first: 10, retention: retention).items.map(\.item.entry.id) == [recent.id])
                #expect(try await JournalStore(tx).entry(id: live.id) == live)
                #expect(try await MediaStore(tx).media(ids: [oldPhoto.id, livePhoto.id]).map(\.id) == [livePhoto.id])
                #expect(try await tx.query("select count(*) from entry_tags where entry_id = $1", old.id)[0].decode(Int.self, at: 0) == 0)
                await #expect(throws: JournalError.notFound(id: old.id)) { _ = try await ArchiveStore(tx).restoreEntry(id: old.id) }
            }
            try await db.asPerson(other.samContext) { tx throws in
                #expect(try await ArchiveStore(tx).archive(first: 10, retention: retention).items.map(\.item.entry.id) == [stranger.id])
            }
            // Purging again finds nothing more.
            let again = try await db.app.transaction { tx throws in
                try await ArchivePurge.purge(tenantID: db.tenant.id, olderThan: retention, now: now, on: tx)
            }
            #expect(again == ArchivePurge.Outcome(entries: 0, media: 0))
        }
    }

    @Test func everyTenantIsPurgedWithItsOwnRetention() async throws {
        try await JournalDatabase.run { db in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let other = try await db.otherTenant()
            var tenants: [Tenant] = []
            var archived: [UUID] = []
            for (tenant, days) in [(db.tenant, 7), (other, 30)] {
                let decoder = JSONDecoder()
                decoder.userInfo = StorykeepModules.tenantFileFormat.userInfo
                let file = try decoder.decode(TenantFile.self, from: Data("""
                    {"slug": "purge-\(tenant.id.uuidString.prefix(8).lowercased())", "displayName": "Purge", "timeZone": "Europe/London",
                     "termsVersion": "1", "modules": ["archive"], "moodIcons": [{"emoji": "🙂", "label": "Okay"}],
                     "archive": {"retentionDays": \(days)}}
                    """.utf8))
                tenants.append(Tenant(id: tenant.id, enabled: true, file: file))
                archived.append(try await db.asPerson(tenant.samContext) { tx throws in
                    let entry = try await JournalStore(tx).createEntry(EntryInput(day: .november(1), kind: .text))
                    try await JournalStore(tx).deleteEntry(id: entry.id, now: now.addingTimeInterval(-10 * day))
                    return entry.id
                })
            }
            var reported: [(UUID, ArchivePurge.Outcome)] = []
            let total = try await ArchivePurge.purge(tenants, pool: db.app, now: now) { reported.append(($0.id, $1)) }
            #expect(total == ArchivePurge.Outcome(entries: 1, media: 0))
            #expect(reported.map(\.0) == [db.tenant.id, other.id] && reported.map(\.1.entries) == [1, 0])
            for (tenant, expected) in [(db.tenant, [UUID]()), (other, [archived[1]])] {
                try await db.asPerson(tenant.samContext) { tx throws in
                    #expect(try await ArchiveStore(tx).archive(first: 10, retention: retention).items.map(\.item.entry.id) == expected)
                }
            }
        }
    }

    /// Waits (up to 20 s, for a loaded machine) until a transaction waits for the lock of the
    /// transaction `xid`, as pg_locks says.
    private func waitForLockWaiter(on xid: String, _ db: JournalDatabase) async throws {
        for _ in 0..<2000 {
            let waiting = try await db.owner.transaction { tx throws in
                try await tx.query(
                    "select count(*) from pg_locks where not granted and locktype = 'transactionid' and transactionid::text = $1",
                    xid)[0].decode(Int.self, at: 0)
            }
            if waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("nobody came to wait for transaction \(xid)")
    }

    @Test func aRestoreRacingThePurgeKeepsTheEntry() async throws {
        try await JournalDatabase.run { db in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let (entry, photo) = try await db.asSam { tx throws in
                let photo = try await MediaStore(tx).upload(SampleMedia.png, declaredType: nil, maxBytes: 1000)
                let entry = try await JournalStore(tx).createEntry(EntryInput(day: .november(1), kind: .image, mediaIDs: [photo.id]))
                try await JournalStore(tx).deleteEntry(id: entry.id, now: now.addingTimeInterval(-40 * day))
                return (entry, photo)
            }
            // The restore has updated the row and not committed yet when the purge, which read the
            // entry as archived, comes to delete it: the purge waits, then re-checks and leaves it.
            let tenant = db.tenant.id
            let purge = try await db.asSam { tx throws in
                _ = try await ArchiveStore(tx).restoreEntry(id: entry.id)
                let xid = try await tx.query("select pg_current_xact_id()::text")[0].decode(String.self, at: 0)
                let purge = Task {
                    try await db.app.transaction { tx throws in
                        try await ArchivePurge.purge(tenantID: tenant, olderThan: retention, now: now, on: tx)
                    }
                }
                try await waitForLockWaiter(on: xid, db)
                return purge
            }
            #expect(try await purge.value == ArchivePurge.Outcome(entries: 0, media: 0))
            try await db.asSam { tx throws in
                #expect(try await JournalStore(tx).entry(id: entry.id)?.media == [photo])
            }
        }
    }

    @Test func aPurgeRacingARestoreWinsCleanly() async throws {
        try await JournalDatabase.run { db in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let entry = try await db.asSam { tx throws in
                let entry = try await JournalStore(tx).createEntry(EntryInput(day: .november(1), kind: .text))
                try await JournalStore(tx).deleteEntry(id: entry.id, now: now.addingTimeInterval(-40 * day))
                return entry
            }
            // The other way round: the purge deleted the row first; the restore waits, then finds
            // nothing to restore and says so.
            let sam = db.tenant.samContext
            let restore = try await db.app.transaction { tx throws in
                #expect(try await ArchivePurge.purge(tenantID: db.tenant.id, olderThan: retention, now: now, on: tx).entries == 1)
                let xid = try await tx.query("select pg_current_xact_id()::text")[0].decode(String.self, at: 0)
                let restore = Task {
                    try await db.app.transaction(settings: sam.settings) { tx throws in
                        _ = try await ArchiveStore(tx).restoreEntry(id: entry.id)
                    }
                }
                try await waitForLockWaiter(on: xid, db)
                return restore
            }
            await #expect(throws: JournalError.notFound(id: entry.id)) { try await restore.value }
        }
    }
}
