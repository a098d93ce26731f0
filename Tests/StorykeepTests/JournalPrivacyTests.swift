import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepArchive
@testable import StorykeepCore
@testable import StorykeepJournals
@testable import StorykeepTags

/// Sam's journal: a live entry with a tag and a photo, a check-in, a skip, a profile and an
/// archived entry with a voice note, all with the word "secret" in them.
private struct SamsJournal {
    let entry: Entry, checkIn: Entry, archived: Entry
    let tag: Storykeep.Tag, photo: MediaInfo, voice: MediaInfo

    init(_ db: JournalDatabase) async throws {
        (entry, checkIn, archived, tag, photo, voice) = try await db.asSam { tx throws in
            let tag = try await TagStore(tx).createTag(name: "secret")
            let photo = try await MediaStore(tx).upload(SampleMedia.png, declaredType: "image/png", maxBytes: 1000)
            let voice = try await MediaStore(tx).upload(SampleMedia.m4a, declaredType: "audio/mp4", maxBytes: 1000)
            let store = JournalStore(tx)
            let entry = try await store.createEntry(EntryInput(
                day: .november(10), kind: .image, text: "my secret diary", mood: "Worried", tagIDs: [tag.id], mediaIDs: [photo.id]))
            let checkIn = try await CheckInStore(tx).checkIn(day: .november(11), mood: "Sad", note: "secret feelings")
            try await CheckInStore(tx).skip(day: .november(12))
            let archived = try await store.createEntry(EntryInput(
                day: .november(13), kind: .audio, text: "secret voice note", tagIDs: [tag.id], mediaIDs: [voice.id]))
            try await JournalStore(tx).deleteEntry(id: archived.id, now: Date())
            try await tx.execute(
                """
                insert into profiles (tenant_id, person_id, display_name, colours, mood_icons)
                values (current_tenant_id(), current_person_id(), 'Sammy', '{"primary": "#5b3cc4"}', '[{"emoji": "🤫", "label": "Secret"}]')
                """)
            return (entry, checkIn, archived, tag, photo, voice)
        }
    }
}

private let journalTables = ["entries", "media", "entry_media", "tags", "entry_tags", "check_in_skips", "profiles"]

extension JournalDatabase {
    /// Runs one statement in `settings`, in a transaction rolled back afterwards, and reports its
    /// outcome.
    func attempt(_ settings: [String: String], _ sql: String, _ parameters: (any PostgresEncodable)?...) async -> Outcome {
        await app.attempt(settings, sql, parameters)
    }

    /// Rows of each journal table visible in `settings`.
    func visibleCounts(_ settings: [String: String]) async throws -> [String: Int] {
        try await app.transaction(settings: settings) { tx throws in
            var counts: [String: Int] = [:]
            for table in journalTables {
                counts[table] = try await tx.query("select count(*) from \(table)")[0].decode(Int.self, at: 0)
            }
            return counts
        }
    }
}

@Suite("Journal: privacy, tried as an attacker at the SQL level and through the stores")
struct JournalPrivacyTests {
    /// Everything an intruder in `settings` could try on Sam's journal: nothing is seen, nothing
    /// changes, nothing is added in Sam's name.
    private func expectNothing(
        _ db: JournalDatabase, _ journal: SamsJournal, _ settings: [String: String], _ who: String,
        refusedWith refusal: String = "42501", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let nothing = Outcome.rows(0)
        let ids: [UUID] = [journal.entry.id, journal.checkIn.id, journal.archived.id]
        let (tag, photo, sam) = (journal.tag.id, journal.photo.id, db.tenant.sam)
        let attempts: [(String, [(any PostgresEncodable)?])] = [
            ("select * from entries where id = any($1::uuid[])", [ids]),
            ("select * from entries where author_id = $1", [sam]),
            ("select * from entries where search @@ websearch_to_tsquery('simple', 'secret')", [nil]),
            ("select day, count(*) from entries where day between '2026-11-01' and '2026-11-30' group by day", [nil]),
            ("select * from media where id = $1", [photo]),
            ("select substring(bytes from 1 for 8) from media where owner_id = $1", [sam]),
            ("select * from tags where id = $1 or owner_id = $2", [tag, sam]),
            ("select * from entry_tags where tag_id = $1", [tag]),
            ("select * from entry_media where media_id = $1", [photo]),
            ("select * from check_in_skips where person_id = $1", [sam]),
            ("select * from profiles where person_id = $1", [sam]),
            ("update entries set body = 'pwned' where id = any($1::uuid[])", [ids]),
            ("update entries set archived_at = now() where author_id = $1", [sam]),
            ("delete from entries where id = any($1::uuid[])", [ids]),
            ("update tags set name = 'pwned' where id = $1", [tag]),
            ("delete from tags where id = $1", [tag]),
            ("delete from media where id = $1", [photo]),
            ("delete from entry_tags where tag_id = $1", [tag]),
            ("delete from entry_media where media_id = $1", [photo]),
            ("update profiles set display_name = 'pwned' where person_id = $1", [sam]),
        ]
        for (sql, parameters) in attempts {
            let parameters = parameters.compactMap { $0 }
            let outcome: Outcome
            switch parameters.count {
            case 0: outcome = await db.attempt(settings, sql)
            case 1: outcome = await db.attempt(settings, sql, parameters[0])
            default: outcome = await db.attempt(settings, sql, parameters[0], parameters[1])
            }
            #expect(outcome == nothing, "\(who): \(sql)", sourceLocation: sourceLocation)
        }
        // Writing into Sam's journal in Sam's name is refused by the policies (or, where the context
        // claims to be Sam in another tenant, by the keys: no such person there).
        for sql in [
            "insert into entries (tenant_id, author_id, day, kind, body) values (current_tenant_id(), $1, '2026-11-01', 'TEXT', 'forged')",
            "insert into tags (tenant_id, owner_id, name) values (current_tenant_id(), $1, 'forged')",
            "insert into media (tenant_id, owner_id, content_type, bytes) values (current_tenant_id(), $1, 'image/png', '\\x89')",
            "insert into check_in_skips (tenant_id, person_id, day) values (current_tenant_id(), $1, '2026-11-01')",
            "insert into profiles (tenant_id, person_id, display_name) values (current_tenant_id(), $1, 'forged')",
        ] {
            let outcome = await db.attempt(settings, sql, sam)
            #expect(outcome == .failed(refusal), "\(who): \(sql)", sourceLocation: sourceLocation)
        }
    }

    /// What the stores give an intruder who is a person (`context`): nothing of Sam's.
    private func expectStoresGiveNothing(
        _ db: JournalDatabase, _ journal: SamsJournal, _ context: AccountContext,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await db.asPerson(context) { tx throws in
            let store = JournalStore(tx)
            #expect(try await store.entry(id: journal.entry.id) == nil, sourceLocation: sourceLocation)
            #expect(try await store.entries(ids: [journal.entry.id, journal.checkIn.id, journal.archived.id]).isEmpty)
            #expect(try await store.entries(first: 100).items.isEmpty, sourceLocation: sourceLocation)
            #expect(try await store.search("secret", first: 100).items.isEmpty, sourceLocation: sourceLocation)
            #expect(try await store.calendar(month: "2026-11").allSatisfy { $0.entryCount == 0 && $0.moods.isEmpty })
            #expect(try await CheckInStore(tx).status(day: .november(11)) == .pending, sourceLocation: sourceLocation)
            #expect(try await CheckInStore(tx).status(day: .november(12)) == .pending, sourceLocation: sourceLocation)
            #expect(try await MediaStore(tx).media(ids: [journal.photo.id, journal.voice.id]).isEmpty)
            #expect(try await MediaStore(tx).bytes(id: journal.photo.id) == nil, sourceLocation: sourceLocation)
            #expect(try await TagStore(tx).tags().isEmpty, sourceLocation: sourceLocation)
            #expect(try await ArchiveStore(tx).archive(first: 100, retention: .seconds(86_400)).items.isEmpty)
        }
        // Each write is refused as "not found", in a transaction of its own (a refusal leaves it usable,
        // but the next check must not depend on that).
        let writes: [(PostgresTransaction) async throws -> Void] = [
            { _ = try await JournalStore($0).updateEntry(id: journal.entry.id, EntryInput(day: .november(1), kind: .text)) },
            { try await JournalStore($0).deleteEntry(id: journal.entry.id, now: Date()) },
            { _ = try await ArchiveStore($0).restoreEntry(id: journal.archived.id) },
            { _ = try await TagStore($0).renameTag(id: journal.tag.id, to: "pwned") },
            { try await TagStore($0).deleteTag(id: journal.tag.id) },
        ]
        for write in writes {
            await #expect(sourceLocation: sourceLocation) {
                try await db.asPerson(context, write)
            } throws: { error in
                if case JournalError.notFound = error { return true }
                return false
            }
        }
    }

    /// Sam's journal as Sam left it.
    private func expectIntact(_ db: JournalDatabase, _ journal: SamsJournal, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await db.asSam { tx throws in
            #expect(try await JournalStore(tx).entry(id: journal.entry.id) == journal.entry, sourceLocation: sourceLocation)
            #expect(try await JournalStore(tx).entry(id: journal.checkIn.id) == journal.checkIn, sourceLocation: sourceLocation)
            #expect(try await TagStore(tx).tags() == [journal.tag], sourceLocation: sourceLocation)
            #expect(try await MediaStore(tx).bytes(id: journal.photo.id) == SampleMedia.png, sourceLocation: sourceLocation)
            #expect(try await ArchiveStore(tx).archive(first: 10, retention: .seconds(86_400)).items.map(\.item.entry.id) == [journal.archived.id])
            #expect(try await CheckInStore(tx).status(day: .november(12)) == .skipped, sourceLocation: sourceLocation)
        }
        #expect(try await db.visibleCounts(db.tenant.samContext.settings) == [
            "entries": 3, "media": 2, "entry_media": 2, "tags": 1, "entry_tags": 2, "check_in_skips": 1, "profiles": 1,
        ], sourceLocation: sourceLocation)
    }

    @Test func anotherYoungPersonOfTheAgencySeesAndChangesNothing() async throws {
        try await JournalDatabase.run { db in
            let journal = try await SamsJournal(db)
            let alex = db.tenant.alexContext
            #expect(try await db.visibleCounts(alex.settings).values.allSatisfy { $0 == 0 })
            try await expectNothing(db, journal, alex.settings, "Alex")
            try await expectStoresGiveNothing(db, journal, alex)
            // Nor can Alex use Sam's tag or file on an entry of Alex's own.
            try await db.asPerson(alex) { tx throws in
                await expectBadInput("tagIds") {
                    _ = try await JournalStore(tx).createEntry(EntryInput(day: .november(1), kind: .text, tagIDs: [journal.tag.id]))
                }
                await expectBadInput("mediaIds") {
                    _ = try await JournalStore(tx).createEntry(EntryInput(day: .november(1), kind: .image, mediaIDs: [journal.photo.id]))
                }
            }
            // Not even by writing the links by hand: the ownership keys refuse them, whoever they name.
            let alexEntry = try await db.asPerson(alex) { tx throws in
                try await JournalStore(tx).createEntry(EntryInput(day: .november(1), kind: .text)).id
            }
            for author in [db.tenant.alex, db.tenant.sam] {
                let link = await db.attempt(
                    alex.settings,
                    "insert into entry_tags (tenant_id, entry_id, tag_id, author_id) values (current_tenant_id(), $1, $2, $3)",
                    alexEntry, journal.tag.id, author)
                let file = await db.attempt(
                    alex.settings,
                    "insert into entry_media (tenant_id, entry_id, media_id, author_id, position) values (current_tenant_id(), $1, $2, $3, 5)",
                    alexEntry, journal.voice.id, author)
                #expect(link == .failed(author == db.tenant.alex ? "23503" : "42501"))
                // (In Alex's name, the file's one-entry-only index answers before its ownership key:
                // refused all the same, saying that this id, which Alex had to know, is attached.)
                #expect(file == .failed(author == db.tenant.alex ? "23505" : "42501"))
            }
            try await expectIntact(db, journal)
        }
    }

    @Test func anAgencyAdminSeesAndChangesNothing() async throws {
        try await JournalDatabase.run { db in
            let journal = try await SamsJournal(db)
            for (context, who) in [(db.tenant.adminContext, "admin"), (.tenantOperator(tenantID: db.tenant.id), "operator")] {
                #expect(try await db.visibleCounts(context.settings).values.allSatisfy { $0 == 0 }, "\(who)")
                try await expectNothing(db, journal, context.settings, who)
            }
            try await expectStoresGiveNothing(db, journal, db.tenant.adminContext)
            try await expectIntact(db, journal)
        }
    }

    @Test func anotherTenantSeesAndChangesNothing() async throws {
        try await JournalDatabase.run { db in
            let journal = try await SamsJournal(db)
            let other = try await db.otherTenant()
            for (context, who) in [(other.samContext, "other young person"), (other.adminContext, "other admin")] {
                #expect(try await db.visibleCounts(context.settings).values.allSatisfy { $0 == 0 }, "\(who)")
                try await expectNothing(db, journal, context.settings, who)
                try await expectStoresGiveNothing(db, journal, context)
            }
            // Even a context claiming to be Sam, in the other tenant, is nobody there.
            let impostor = AccountContext.person(tenantID: other.id, personID: db.tenant.sam, role: .youngPerson)
            #expect(try await db.visibleCounts(impostor.settings).values.allSatisfy { $0 == 0 })
            try await expectNothing(db, journal, impostor.settings, "Sam's id in another tenant", refusedWith: "23503")
            try await expectIntact(db, journal)
        }
    }

    @Test func withoutAPersonNothingIsVisible() async throws {
        try await JournalDatabase.run { db in
            let journal = try await SamsJournal(db)
            for settings in [[:], ["storykeep.tenant_id": db.tenant.id.uuidString]] {
                #expect(try await db.visibleCounts(settings).values.allSatisfy { $0 == 0 })
                try await expectNothing(db, journal, settings, "no person")
            }
            try await expectIntact(db, journal)
        }
    }

    @Test func onlyArchivedEntriesAreDeletedAndOnlyByTheirAuthor() async throws {
        try await JournalDatabase.run { db in
            let journal = try await SamsJournal(db)
            let sam = db.tenant.samContext.settings
            // A live entry, or a file of one, cannot be deleted outright, even by its author.
            #expect(await db.attempt(sam, "delete from entries where id = $1", journal.entry.id) == .rows(0))
            #expect(await db.attempt(sam, "delete from media where id = $1", journal.photo.id) == .rows(0))
            // An archived one can, by its author (the purge does it in their name).
            #expect(await db.attempt(sam, "delete from entries where id = $1", journal.archived.id) == .rows(1))
            #expect(await db.attempt(sam, "delete from media where id = $1", journal.voice.id) == .rows(1))
            // By nobody else (expectNothing tries the others).
            for context in [db.tenant.alexContext, db.tenant.adminContext, .tenantOperator(tenantID: db.tenant.id)] {
                #expect(await db.attempt(context.settings, "delete from entries where archived_at is not null") == .rows(0))
            }
            try await expectIntact(db, journal)
        }
    }
}
