import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore
@testable import StorykeepNotifications

// Notifications (Migrations/0011_notifications.sql) as direct SQL under the app role and through
// `Notifications.notify`: a recipient alone reads theirs, the actor is whoever acts, nobody deletes.

@Suite("Notifications: the table's policies and notify")
struct NotificationPolicyTests {
    private let insert = """
        insert into notifications (tenant_id, recipient_id, kind, title, actor_id)
        values (current_tenant_id(), $1, 'test', 'A test', $2)
        """

    @Test func theRecipientAloneReadsAndMarksThem() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.asPerson(t.admin) { tx throws in
                try await Notifications.notify(
                    [t.sam], kind: "assignmentStarted", title: "Wendy is now your social worker",
                    subject: NotificationSubject(kind: "person", id: t.wendy), in: tx)
            }
            let mine = try await db.asPerson(t.sam) { tx throws in try await NotificationStore(tx).notifications(first: 10) }
            #expect(mine.items.map(\.item.title) == ["Wendy is now your social worker"])
            #expect(mine.items.first?.item.actorID == t.admin)
            #expect(mine.items.first?.item.subject == NotificationSubject(kind: "person", id: t.wendy))
            let id = try #require(mine.items.first?.item.id)
            // Nobody else, the actor and an admin included, reads it, marks it or removes it.
            for person in [t.admin, t.wendy, t.alex] {
                #expect(await db.attempt(t.context(person), "select * from notifications where id = $1", id) == .rows(0))
                #expect(await db.attempt(t.context(person), "update notifications set read_at = now() where id = $1", id) == .rows(0))
                #expect(await db.attempt(t.context(person), "delete from notifications where id = $1", id) == .failed(insufficientPrivilege))
            }
            #expect(await db.attempt(t.operatorContext, "select * from notifications") == .rows(0))
            let other = try await db.otherTenant()
            #expect(await db.attempt(other.context(other.admin), "select * from notifications") == .rows(0))
            #expect(
                await db.attempt(AccountContext.person(tenantID: other.id, personID: t.sam, role: .youngPerson), "select * from notifications")
                    == .rows(0))
            // The recipient marks it read and changes nothing else of it, nor deletes it.
            let sam = t.context(t.sam)
            #expect(await db.attempt(sam, "update notifications set read_at = now() where id = $1", id) == .rows(1))
            for change in ["title = 'Changed'", "kind = 'other'", "recipient_id = $2", "created_at = now()"] {
                #expect(
                    await db.attempt(sam, "update notifications set \(change) where id = $1 and $2::uuid is not null", id, t.alex)
                        == .failed(insufficientPrivilege), "\(change)")
            }
            #expect(await db.attempt(sam, "delete from notifications where id = $1", id) == .failed(insufficientPrivilege))
        }
    }

    @Test func theActorIsWhoeverActs() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            // In one's own name, to anyone of the tenant; the server's work (the operator) in nobody's.
            #expect(await db.attempt(t.context(t.alex), insert, t.sam, t.alex) == .rows(1))
            #expect(await db.attempt(t.operatorContext, insert, t.sam, nil) == .rows(1))
            // Never in another's name, nor in nobody's for a person, an admin included.
            #expect(await db.attempt(t.context(t.alex), insert, t.sam, t.wendy) == .failed(insufficientPrivilege))
            #expect(await db.attempt(t.context(t.alex), insert, t.sam, nil) == .failed(insufficientPrivilege))
            #expect(await db.attempt(t.context(t.admin), insert, t.sam, t.wendy) == .failed(insufficientPrivilege))
            #expect(await db.attempt(t.context(t.admin), insert, t.sam, nil) == .failed(insufficientPrivilege))
            #expect(await db.attempt(AccountContext.anonymous(tenantID: t.id), insert, t.sam, nil) == .failed(insufficientPrivilege))
            // Nor to another tenant's person.
            let other = try await db.otherTenant()
            #expect(await db.attempt(t.context(t.alex), insert, other.sam, t.alex) == .failed("23503 notifications_tenant_id_recipient_id_fkey"))
            // Kinds and subjects have a form.
            let badKind = await db.attempt(
                t.context(t.alex),
                "insert into notifications (tenant_id, recipient_id, kind, title, actor_id) values (current_tenant_id(), $1, 'Share received', 'x', $2)",
                t.sam, t.alex)
            #expect(badKind == .failed("23514 notifications_kind_format"))
            let halfSubject = await db.attempt(
                t.context(t.alex),
                "insert into notifications (tenant_id, recipient_id, kind, title, actor_id, subject_kind) values (current_tenant_id(), $1, 'test', 'x', $2, 'entry')",
                t.sam, t.alex)
            #expect(halfSubject == .failed("23514 notifications_subject"))
        }
    }

    @Test func notifyIsOneStatementForEveryRecipient() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.asPerson(t.wendy) { tx throws in
                let counting = CountingDatabase(base: tx)
                try await Notifications.notify([t.sam, t.alex, t.sam, t.carl], kind: "test", title: "Hello", in: counting)
                #expect(counting.counter.take() == 1)
                try await Notifications.notify([], kind: "test", title: "Nobody", in: counting)
                #expect(counting.counter.take() == 0)
            }
            for person in [t.sam, t.alex, t.carl] {
                let unread = try await db.asPerson(person) { tx throws in try await NotificationStore(tx).unreadCount() }
                #expect(unread == 1, "each recipient once")
            }
        }
    }

    @Test func aLongTitleIsCutAtACharacterNotRefused() async throws {
        #expect(Notifications.clipped("  Hello  ") == "Hello")
        #expect(Notifications.clipped(" ") == "…")
        let exact = String(repeating: "a", count: Notifications.maxTitleLength)
        #expect(Notifications.clipped(exact) == exact)
        // "e" and a combining accent: one character, two code points, never split.
        let long = String(repeating: "e\u{301}", count: 150)
        let cut = Notifications.clipped(long)
        #expect(cut.unicodeScalars.count <= Notifications.maxTitleLength)
        #expect(cut == String(repeating: "e\u{301}", count: 99) + "…")
        try await CaseloadDatabase.run { db in
            try await db.asPerson(db.tenant.admin) { tx throws in
                try await Notifications.notify([db.tenant.sam], kind: "test", title: long, in: tx)
            }
            let stored = try await db.asPerson(db.tenant.sam) { tx throws in try await NotificationStore(tx).notifications(first: 1) }
            #expect(stored.items.map(\.item.title) == [cut])
        }
    }
}
