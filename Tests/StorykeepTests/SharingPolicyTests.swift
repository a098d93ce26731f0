import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore

// Issue 11's privacy attack as direct SQL under the app role, with each person's context set
// (Migrations/0012_sharing.sql): the policies hold without the resolvers. Sam (A) shares one entry
// with Wendy (W); Carl (C, Sam's carer), Ivy (W2, Alex's worker), Vera (W3, a worker of nobody's),
// Alex (B), the admin, the operator and another agency's people read nothing of Sam's; Wendy
// reads exactly that entry, its file and its tag, until Sam unshares, the assignment ends or the
// entry is archived, and again after a restore.

/// Sam's journal, written in Sam's context: e1 (tag t1, file m1), e2 (tag t2, file m2), e3
/// (archived), and the share of e1 with Wendy.
private struct SamsJournal {
    let e1: UUID, e2: UUID, e3: UUID, t1: UUID, t2: UUID, m1: UUID, m2: UUID

    init(_ db: CaseloadDatabase) async throws {
        let ids = try await db.asPerson(db.tenant.sam) { tx throws in
            try await tx.query(
                """
                with t as (
                    insert into tags (tenant_id, owner_id, name)
                    select current_tenant_id(), current_person_id(), n from unnest(array['football', 'secret']) as n
                    returning id, name
                ), m as (
                    insert into media (tenant_id, owner_id, content_type, bytes)
                    select current_tenant_id(), current_person_id(), 'image/png', convert_to(n, 'UTF8') from unnest(array['one', 'two']) as n
                    returning id, bytes
                ), e as (
                    insert into entries (tenant_id, author_id, day, kind, body, archived_at)
                    select current_tenant_id(), current_person_id(), '2026-11-20', 'TEXT', n,
                           case when n = 'gone' then now() end
                    from unnest(array['shared', 'secret', 'gone']) as n
                    returning id, body
                )
                select (select id from e where body = 'shared'), (select id from e where body = 'secret'),
                       (select id from e where body = 'gone'), (select id from t where name = 'football'),
                       (select id from t where name = 'secret'), (select id from m where bytes = 'one'),
                       (select id from m where bytes = 'two')
                """
            )[0]
        }
        (e1, e2, e3) = (try ids.decode(UUID.self, at: 0), try ids.decode(UUID.self, at: 1), try ids.decode(UUID.self, at: 2))
        (t1, t2) = (try ids.decode(UUID.self, at: 3), try ids.decode(UUID.self, at: 4))
        (m1, m2) = (try ids.decode(UUID.self, at: 5), try ids.decode(UUID.self, at: 6))
        let (e1, e2, t1, t2, m1, m2) = (e1, e2, t1, t2, m1, m2)
        try await db.asPerson(db.tenant.sam) { tx throws in
            try await tx.execute(
                """
                insert into entry_tags (tenant_id, entry_id, tag_id, author_id)
                values (current_tenant_id(), $1, $3, current_person_id()), (current_tenant_id(), $2, $4, current_person_id())
                """, e1, e2, t1, t2)
            try await tx.execute(
                """
                insert into entry_media (tenant_id, entry_id, media_id, author_id, position)
                values (current_tenant_id(), $1, $3, current_person_id(), 0), (current_tenant_id(), $2, $4, current_person_id(), 0)
                """, e1, e2, m1, m2)
        }
    }

    /// Every id of Sam's that `context` reads, by table (`entries`, `entry_media`, `media`,
    /// `entry_tags`, `tags`, `shares`).
    func visible(_ db: CaseloadDatabase, _ context: AccountContext) async throws -> [String: Set<UUID>] {
        let queries = [
            "entries": "select id from entries", "entry_media": "select media_id from entry_media", "media": "select id from media",
            "entry_tags": "select tag_id from entry_tags", "tags": "select id from tags", "shares": "select entry_id from shares",
        ]
        let mine: Set<UUID> = [e1, e2, e3, t1, t2, m1, m2]
        return try await db.pools.app.transaction(settings: context.settings) { tx throws in
            var seen: [String: Set<UUID>] = [:]
            for (table, sql) in queries {
                seen[table] = Set(try await tx.query(sql).map { try $0.decode(UUID.self, at: 0) }).intersection(mine)
            }
            return seen
        }
    }

    /// What Wendy reads while the share stands: e1, its file and its tag, and the share.
    var sharedE1: [String: Set<UUID>] {
        ["entries": [e1], "entry_media": [m1], "media": [m1], "entry_tags": [t1], "tags": [t1], "shares": [e1]]
    }

    static let nothing: [String: Set<UUID>] = [
        "entries": [], "entry_media": [], "media": [], "entry_tags": [], "tags": [], "shares": [],
    ]
}

extension CaseloadDatabase {
    /// Shares `entry` of Sam's with `sharee` as Sam, in their current assignment, with a statement
    /// of SQL.
    func share(_ entry: UUID, with sharee: UUID) async throws {
        try await asPerson(tenant.sam) { tx throws in
            let shared = try await tx.execute(
                """
                insert into shares (tenant_id, entry_id, author_id, sharee_id, assignment_id)
                select current_tenant_id(), $1, current_person_id(), $2, a.id from assignments a
                where a.young_person_id = current_person_id() and a.adult_id = $2 and a.until is null
                """, entry, sharee)
            #expect(shared == 1)
        }
    }

    /// Takes `sharing` out of the tenant's `modules`, or puts it back, as `storykeep tenant apply`
    /// of its file would (the owner writes tenants.config).
    func switchSharing(on: Bool) async throws {
        let modules = on ? "(config -> 'modules') || '[\"sharing\"]'" : "(config -> 'modules') - 'sharing'"
        try await pools.owner.transaction { tx throws in
            let changed = try await tx.execute(
                "update tenants set config = jsonb_set(config, '{modules}', \(modules)) where tenant_id = $1", tenant.id)
            #expect(changed == 1)
        }
    }

    /// Runs one statement as Sam.
    func asSam(_ sql: String, _ parameters: (any PostgresEncodable)?...) async throws {
        try await asPerson(tenant.sam) { tx throws in _ = try await tx.query(sql, parameters: parameters) }
    }

    /// A social worker of nobody's, added as the operator: their id.
    func unassignedWorker() async throws -> UUID {
        try await pools.app.transaction(settings: tenant.operatorContext.settings) { tx throws in
            try await tx.query(
                """
                insert into people (tenant_id, role, email, display_name)
                values (current_tenant_id(), 'SOCIAL_WORKER', 'vera-' || gen_random_uuid() || '@example.org', 'Vera Vine')
                returning id
                """)[0].decode(UUID.self, at: 0)
        }
    }
}

@Suite("Sharing: row-level security of shares and the widened journal")
struct SharingPolicyTests {
    @Test func onlyTheSharedWorkerReadsAndOnlyWhatWasShared() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            let wendyAssignment = try await db.assignTeams().samWendy
            let vera = try await db.unassignedWorker()
            let j = try await SamsJournal(db)
            try await db.share(j.e1, with: t.wendy)
            let other = try await db.otherTenant()
            let wendy = t.context(t.wendy)

            #expect(try await j.visible(db, wendy) == j.sharedE1)
            let others: [(String, AccountContext)] = [
                ("C", t.context(t.carl)), ("W2", t.context(t.ivy)), ("B", t.context(t.alex)), ("the admin", t.context(t.admin)),
                ("W3", .person(tenantID: t.id, personID: vera, role: .socialWorker)), ("the operator", t.operatorContext),
                ("another agency's admin", other.context(other.admin)),
                ("another agency claiming Wendy", .person(tenantID: other.id, personID: t.wendy, role: .socialWorker)),
                ("anonymous", .anonymous(tenantID: t.id)),
            ]
            for (who, context) in others {
                #expect(try await j.visible(db, context) == SamsJournal.nothing, "\(who)")
            }
            let sams = try await j.visible(db, t.context(t.sam))
            #expect(sams["entries"] == [j.e1, j.e2, j.e3] && sams["media"] == [j.m1, j.m2] && sams["tags"] == [j.t1, j.t2])

            // Unshared: nothing, at once; the row stays, for Sam. Shared again: a new row.
            try await db.asSam("update shares set unshared_at = clock_timestamp() where entry_id = $1", j.e1)
            #expect(try await j.visible(db, wendy) == SamsJournal.nothing)
            #expect(try await db.ids(t.sam, "select entry_id from shares") == [j.e1])
            try await db.share(j.e1, with: t.wendy)
            #expect(try await j.visible(db, wendy) == j.sharedE1)

            // The assignment ends: nothing. A new one does not revive the old share; a new share does.
            try await db.end(wendyAssignment)
            #expect(try await j.visible(db, wendy) == SamsJournal.nothing)
            try await db.assign(t.sam, t.wendy, .socialWorker)
            #expect(try await j.visible(db, wendy) == SamsJournal.nothing)
            try await db.asSam("update shares set unshared_at = clock_timestamp() where entry_id = $1 and unshared_at is null", j.e1)
            try await db.share(j.e1, with: t.wendy)
            #expect(try await j.visible(db, wendy) == j.sharedE1)

            // Archived: nothing, the share included. Restored: back.
            try await db.asSam("update entries set archived_at = now() where id = $1", j.e1)
            #expect(try await j.visible(db, wendy) == SamsJournal.nothing)
            #expect(try await db.ids(t.sam, "select entry_id from shares where entry_archived_at is not null") == [j.e1])
            try await db.asSam("update entries set archived_at = null where id = $1", j.e1)
            #expect(try await j.visible(db, wendy) == j.sharedE1)
            #expect(try await db.ids(t.sam, "select entry_id from shares where entry_archived_at is not null") == [])
        }
    }

    /// The agency switches sharing off (Migrations/0026): Wendy reads and changes nothing shared,
    /// and Sam shares nothing, at once; Sam still reads his shares. Back on, the standing share is
    /// back as it was: switching off is not unsharing.
    @Test func nothingSharedIsReadOrMadeWhileTheAgencyHasSharingOff() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.assignTeams()
            let j = try await SamsJournal(db)
            try await db.share(j.e1, with: t.wendy)
            let wendy = t.context(t.wendy)
            #expect(try await j.visible(db, wendy) == j.sharedE1)

            try await db.switchSharing(on: false)
            #expect(try await j.visible(db, wendy) == SamsJournal.nothing)
            #expect(await db.attempt(wendy, "update shares set seen_at = now() where entry_id = $1", j.e1) == .rows(0))
            #expect(try await db.ids(t.sam, "select entry_id from shares") == [j.e1])
            let share = """
                insert into shares (tenant_id, entry_id, author_id, sharee_id, assignment_id)
                select current_tenant_id(), $1, current_person_id(), a.adult_id, a.id from assignments a
                where a.young_person_id = current_person_id() and a.adult_id = $2 and a.until is null
                """
            #expect(await db.attempt(t.context(t.sam), share, j.e2, t.wendy) == .failed("42501"))

            try await db.switchSharing(on: true)
            #expect(try await j.visible(db, wendy) == j.sharedE1)
            #expect(await db.attempt(t.context(t.sam), share, j.e2, t.wendy) == .rows(1))
        }
    }

    @Test func eachSideChangesOnlyItsOwnPart() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            let samWendy = try await db.assign(t.sam, t.wendy, .socialWorker)
            let alexIvy = try await db.assign(t.alex, t.ivy, .socialWorker)
            try await db.assign(t.sam, t.carl, .carer)
            let j = try await SamsJournal(db)
            try await db.share(j.e1, with: t.wendy)
            let (sam, wendy, ivy) = (t.context(t.sam), t.context(t.wendy), t.context(t.ivy))

            // Wendy reads the entry and writes nothing of it.
            for sql in [
                "update entries set body = 'mine now' where id = $1", "delete from entry_media where entry_id = $1",
                "delete from entry_tags where entry_id = $1",
            ] {
                #expect(await db.attempt(wendy, sql, j.e1) == .rows(0), "\(sql)")
            }
            #expect(await db.attempt(wendy, "update tags set name = 'mine' where id = $1", j.t1) == .rows(0))
            #expect(await db.attempt(wendy, "delete from tags where id = $1", j.t1) == .rows(0))
            #expect(await db.attempt(wendy, "delete from media where id = $1", j.m1) == .rows(0))
            // Her part of the share: seen once, and the reply. Not unsharing, not the archive's copy.
            #expect(await db.attempt(wendy, "update shares set unshared_at = now() where entry_id = $1", j.e1) == .failed("23514 shares_guard"))
            #expect(await db.attempt(wendy, "update shares set entry_archived_at = now() where entry_id = $1", j.e1) == .failed("23514 shares_guard"))
            #expect(await db.attempt(wendy, "update shares set reply = 'Well done', replied_at = now(), seen_at = now() where entry_id = $1", j.e1) == .rows(1))
            try await db.asPerson(t.wendy) { tx throws in _ = try await tx.execute("update shares set seen_at = now() where entry_id = $1", j.e1) }
            #expect(await db.attempt(wendy, "update shares set seen_at = now() + interval '1 day' where entry_id = $1", j.e1) == .failed("23514 shares_guard"))
            // Not sharing for Sam, not for anyone.
            let insert = """
                insert into shares (tenant_id, entry_id, author_id, sharee_id, assignment_id, seen_at)
                values (current_tenant_id(), $1, $2, $3, $4, $5)
                """
            let none: Date? = nil
            #expect(await db.attempt(wendy, insert, j.e2, t.sam, t.wendy, samWendy, none) == .failed(insufficientPrivilege))
            #expect(await db.attempt(ivy, insert, j.e2, t.sam, t.ivy, alexIvy, none) == .failed(insufficientPrivilege))

            // Sam's part: sharing with his team only, in its current assignments, fresh, his own
            // entries; unsharing once.
            #expect(await db.attempt(sam, insert, j.e2, t.sam, t.ivy, alexIvy, none) == .failed(insufficientPrivilege))
            #expect(await db.attempt(sam, insert, j.e2, t.alex, t.wendy, samWendy, none) == .failed(insufficientPrivilege))
            #expect(await db.attempt(sam, insert, j.e2, t.sam, t.wendy, UUID(), none) == .failed(insufficientPrivilege))
            // Carl is in Sam's team, but the assignment named is Wendy's.
            #expect(
                await db.attempt(sam, insert, j.e2, t.sam, t.carl, samWendy, none)
                    == .failed("23503 shares_tenant_id_assignment_id_author_id_sharee_id_fkey"))
            let alexs = try await db.asPerson(t.alex) { tx throws in
                try await tx.query(
                    "insert into entries (tenant_id, author_id, day, kind) values (current_tenant_id(), current_person_id(), '2026-11-20', 'TEXT') returning id"
                )[0].decode(UUID.self, at: 0)
            }
            #expect(await db.attempt(sam, insert, alexs, t.sam, t.wendy, samWendy, none) == .failed("23503 shares_tenant_id_entry_id_author_id_fkey"))
            #expect(await db.attempt(sam, insert, j.e2, t.sam, t.wendy, samWendy, Date()) == .failed("23514 shares_guard"))
            #expect(await db.attempt(sam, insert, j.e1, t.sam, t.wendy, samWendy, none) == .failed("23505 shares_standing"))
            #expect(await db.attempt(sam, "update shares set seen_at = now() where entry_id = $1", j.e1) == .failed("23514 shares_guard"))
            #expect(await db.attempt(sam, "update shares set reply = 'forged', replied_at = now() where entry_id = $1", j.e1) == .failed("23514 shares_guard"))
            #expect(await db.attempt(sam, "update shares set entry_archived_at = now() where entry_id = $1", j.e1) == .failed("23514 shares_guard"))
            #expect(await db.attempt(sam, "delete from shares where entry_id = $1", j.e1) == .failed(insufficientPrivilege))
            try await db.asSam("update shares set unshared_at = now() where entry_id = $1", j.e1)
            #expect(await db.attempt(sam, "update shares set unshared_at = null where entry_id = $1", j.e1) == .failed("23514 shares_guard"))
            // A sharee switched off cannot be shared with, though still assigned.
            try await db.asPerson(t.admin) { tx throws in _ = try await tx.execute("update people set disabled_at = now() where id = $1", t.wendy) }
            #expect(await db.attempt(sam, insert, j.e2, t.sam, t.wendy, samWendy, none) == .failed(insufficientPrivilege))
            // The admin changes nothing of it either.
            #expect(await db.attempt(t.context(t.admin), "update shares set unshared_at = null where entry_id = $1", j.e1) == .rows(0))
        }
    }

    @Test func purgingAnEntryTakesItsSharesWithIt() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.assign(t.sam, t.wendy, .socialWorker)
            let j = try await SamsJournal(db)
            try await db.share(j.e1, with: t.wendy)
            try await db.asSam("update entries set archived_at = now() - interval '40 days' where id = $1", j.e1)
            try await db.asSam("delete from entries where id = $1 and archived_at is not null", j.e1)
            #expect(try await db.ids(t.sam, "select entry_id from shares") == [])
        }
    }
}
