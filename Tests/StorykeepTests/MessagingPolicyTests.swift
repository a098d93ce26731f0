import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore

// Issue 13's privacy attack on messages as direct SQL under the app role, with each person's
// context set (Migrations/0042_messaging.sql): the policies hold without the resolvers. The people
// are SocialPolicyTests': Sam and Fay are friends and talk; Bo is blocked by Sam; Nia is nobody's
// friend; Stu is suspended; Wes is Sam's social worker here, Una an unrelated one; Ada moderates;
// Olly is of another agency.
@Suite("Messaging: the policies alone")
struct MessagingPolicyTests {
    struct World {
        let a: SocialPolicyTests.Agency
        let una: UUID
        let conversation: UUID
        let message: UUID
    }

    static let start = """
        insert into messaging_conversations (tenant_id, person_a, person_b)
        values (current_tenant_id(), least(current_person_id(), $1), greatest(current_person_id(), $1))
        """
    static let send = """
        insert into messaging_messages (tenant_id, conversation_id, sender_id, recipient_id, text)
        values (current_tenant_id(), $1, current_person_id(), $2, 'psst')
        """

    static func world(_ db: TestPools) async throws -> World {
        let a = try await SocialPolicyTests.agency(db, modules: [.social, .messaging])
        let una = try await db.insertPeople([a.tenant.newPerson(.socialWorker, "una")], into: a.tenant)[0]
        try await db.assign(a.sam, a.wes, .socialWorker, by: a.admin)
        let (conversation, message) = try await db.asPerson(a.young(a.sam)) { tx in
            let conversation = try await tx.query(Self.start + " returning id", a.fay)[0].decode(UUID.self, at: 0)
            let message = try await tx.query(Self.send + " returning id", conversation, a.fay)[0].decode(UUID.self, at: 0)
            return (conversation, message)
        }
        return World(a: a, una: una, conversation: conversation, message: message)
    }

    /// How many conversations and messages `context` reads.
    static func reads(_ db: TestPools, _ context: AccountContext) async throws -> [Int] {
        try await db.asPerson(context) { tx in
            [try await tx.query("select count(*) from messaging_conversations")[0].decode(Int.self, at: 0),
             try await tx.query("select count(*) from messaging_messages")[0].decode(Int.self, at: 0)]
        }
    }

    @Test func onlyTheTwoReadAConversation() async throws {
        try await TestPools.run { db in
            let w = try await Self.world(db), a = w.a
            #expect(try await Self.reads(db, a.young(a.sam)) == [1, 1])
            #expect(try await Self.reads(db, a.young(a.fay)) == [1, 1])
            for context in [a.young(a.bo), a.young(a.nia), a.young(a.stu), a.worker, a.admin,
                            .person(tenantID: a.tenant.id, personID: w.una, role: .socialWorker)] {
                #expect(try await Self.reads(db, context) == [0, 0], "\(context)")
            }
            let other = try await db.makeTenant { $0.modules = [.social, .messaging] }
            let olly = try await db.insertPeople([other.newPerson(.youngPerson, "olly")], into: other)[0]
            #expect(try await Self.reads(db, .person(tenantID: other.id, personID: olly, role: .youngPerson)) == [0, 0])
            #expect(try await Self.reads(db, .person(tenantID: other.id, personID: a.ada, role: .agencyAdmin)) == [0, 0])
            // The admin reads a message once its recipient reported it, and only that one.
            try await db.asPerson(a.young(a.fay)) { tx in
                try await tx.execute("update messaging_messages set reported_at = clock_timestamp() where id = $1", w.message)
                try await tx.execute(
                    "insert into messaging_reports (tenant_id, message_id, reporter_id, reason) values (current_tenant_id(), $1, current_person_id(), 'SPAM')",
                    w.message)
            }
            #expect(try await Self.reads(db, a.admin) == [0, 1])
            #expect(await db.app.attempt(a.young(a.sam).settings, "select from messaging_reports", []) == .rows(0))
            // Nobody but the recipient marks a message reported; nobody reports one not sent to them.
            #expect(
                await db.app.attempt(a.young(a.sam).settings, "update messaging_messages set reported_at = now() where id = $1", [w.message])
                    == .rows(0))
            #expect(
                await db.app.attempt(
                    a.young(a.nia).settings,
                    "insert into messaging_reports (tenant_id, message_id, reporter_id, reason) values (current_tenant_id(), $1, current_person_id(), 'SPAM')",
                    [w.message]) == .failed("42501"))
        }
    }

    @Test func onlyFriendsAndTheTeamWriteAndNeverInAnothersName() async throws {
        try await TestPools.run { db in
            let w = try await Self.world(db), a = w.a
            let una = AccountContext.person(tenantID: a.tenant.id, personID: w.una, role: .socialWorker)
            // Starting a conversation: a friend or the team, not a stranger, the blocked or an unrelated adult.
            #expect(await db.app.attempt(a.worker.settings, Self.start, [a.sam]) == .rows(1))
            #expect(await db.app.attempt(a.young(a.nia).settings, Self.start, [a.sam]) == .failed("42501"))
            #expect(await db.app.attempt(a.young(a.bo).settings, Self.start, [a.sam]) == .failed("42501"))
            #expect(await db.app.attempt(a.young(a.sam).settings, Self.start, [a.bo]) == .failed("42501"))
            #expect(await db.app.attempt(una.settings, Self.start, [a.sam]) == .failed("42501"))
            // Writing into Sam and Fay's conversation: Fay yes; nobody else, nor as someone else.
            #expect(await db.app.attempt(a.young(a.fay).settings, Self.send, [w.conversation, a.sam]) == .rows(1))
            #expect(await db.app.attempt(a.young(a.nia).settings, Self.send, [w.conversation, a.sam]) == .failed("42501"))
            #expect(await db.app.attempt(a.worker.settings, Self.send, [w.conversation, a.sam]) == .failed("42501"))
            #expect(
                await db.app.attempt(
                    a.young(a.nia).settings,
                    "insert into messaging_messages (tenant_id, conversation_id, sender_id, recipient_id, text) values (current_tenant_id(), $1, $2, $3, 'x')",
                    [w.conversation, a.fay, a.sam]) == .failed("42501"))
            // Only the recipient marks read; the sender cannot fake a receipt, nor remove.
            #expect(await db.app.attempt(a.young(a.sam).settings, "update messaging_messages set read_at = now() where id = $1", [w.message]) == .rows(0))
            #expect(await db.app.attempt(a.young(a.fay).settings, "update messaging_messages set read_at = now() where id = $1", [w.message]) == .rows(1))
            #expect(
                await db.app.attempt(
                    a.young(a.fay).settings, "update messaging_messages set removed_at = now(), removal_reason = 'x' where id = $1", [w.message],
                    namingConstraint: true) == .failed("23514 messaging_messages_guard"))
        }
    }

    @Test func aSuspensionABlockAndSwitchingTheModuleOffCloseIt() async throws {
        try await TestPools.run { db in
            let w = try await Self.world(db), a = w.a
            // Stu, suspended, writes to his friend nothing.
            try await db.asPerson(a.young(a.stu)) { tx in
                try await tx.execute("insert into social_friendships (tenant_id, requester_id, addressee_id) values (current_tenant_id(), current_person_id(), $1)", a.fay)
            }
            try await db.asPerson(a.young(a.fay)) { tx in
                try await tx.execute("update social_friendships set accepted_at = clock_timestamp() where addressee_id = current_person_id() and requester_id = $1", a.stu)
            }
            let stuFay = try await db.asPerson(a.young(a.fay)) { tx in try await tx.query(Self.start + " returning id", a.stu)[0].decode(UUID.self, at: 0) }
            #expect(await db.app.attempt(a.young(a.stu).settings, Self.send, [stuFay, a.fay]) == .failed("42501"))
            // Fay blocks Sam: their conversation is gone for both.
            try await db.asPerson(a.young(a.fay)) { tx in
                try await tx.execute("insert into social_blocks (tenant_id, blocker_id, blocked_id) values (current_tenant_id(), current_person_id(), $1)", a.sam)
            }
            #expect(try await Self.reads(db, a.young(a.sam)) == [0, 0])
            #expect(try await Self.reads(db, a.young(a.fay)) == [1, 0])
            #expect(await db.app.attempt(a.young(a.sam).settings, Self.send, [w.conversation, a.fay]) == .failed("42501"))
            // Switched off: Fay's conversation with Stu is closed too.
            try await db.owner.transaction { tx in
                try await tx.execute("update tenants set config = jsonb_set(config, '{modules}', '[\"social\"]') where tenant_id = $1", a.tenant.id)
            }
            #expect(try await Self.reads(db, a.young(a.fay)) == [0, 0])
            #expect(await db.app.attempt(a.young(a.fay).settings, Self.send, [stuFay, a.stu]) == .failed("42501"))
        }
    }
}
