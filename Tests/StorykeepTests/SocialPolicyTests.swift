import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore

// Issue 13's privacy attack as direct SQL under the app role, with each person's context set
// (Migrations/0032-0034): the policies hold without the resolvers. Sam posts for the agency and
// for friends; Fay is his friend; Bo is blocked by Sam; Nia is nobody's friend; Pia's profile is
// private; Wes is a social worker (not taking part); Stu is suspended; Ada moderates; Olly is of
// another agency.
@Suite("Social: the policies alone")
struct SocialPolicyTests {
    struct Agency {
        let tenant: TestTenant
        let sam: UUID, fay: UUID, bo: UUID, nia: UUID, pia: UUID, wes: UUID, stu: UUID, ada: UUID
        func young(_ id: UUID) -> AccountContext { .person(tenantID: tenant.id, personID: id, role: .youngPerson) }
        var admin: AccountContext { .person(tenantID: tenant.id, personID: ada, role: .agencyAdmin) }
        var worker: AccountContext { .person(tenantID: tenant.id, personID: wes, role: .socialWorker) }
    }

    static func agency(_ db: TestPools, modules: [TenantModule] = [.social]) async throws -> Agency {
        let tenant = try await db.makeTenant { $0.modules = modules }
        let ids = try await db.insertPeople(
            ["sam", "fay", "bo", "nia", "pia", "stu"].map { tenant.newPerson(.youngPerson, $0) }
                + [tenant.newPerson(.socialWorker, "wes"), tenant.newPerson(.agencyAdmin, "ada")], into: tenant)
        let a = Agency(tenant: tenant, sam: ids[0], fay: ids[1], bo: ids[2], nia: ids[3], pia: ids[4], wes: ids[6], stu: ids[5], ada: ids[7])
        for (id, name) in [(a.sam, "Sky"), (a.fay, "Fay"), (a.bo, "Bo"), (a.nia, "Nia"), (a.pia, "Pia"), (a.stu, "Stu")] {
            try await db.asPerson(a.young(id)) { tx in
                try await tx.execute(
                    """
                    insert into social_profiles (tenant_id, person_id, display_name, private, discoverable, staff)
                    values (current_tenant_id(), current_person_id(), $1, $2, true, false)
                    """, name, id == a.pia)
            }
        }
        let post = "insert into social_posts (tenant_id, author_id, text, visibility) values (current_tenant_id(), current_person_id(), $1, $2::social_post_visibility)"
        try await db.asPerson(a.young(a.sam)) { tx in
            try await tx.execute(post, "sam agency", "AGENCY")
            try await tx.execute(post, "sam friends", "FRIENDS")
            try await tx.execute(
                "insert into social_friendships (tenant_id, requester_id, addressee_id) values (current_tenant_id(), current_person_id(), $1)", a.fay)
            try await tx.execute("insert into social_blocks (tenant_id, blocker_id, blocked_id) values (current_tenant_id(), current_person_id(), $1)", a.bo)
        }
        try await db.asPerson(a.young(a.fay)) { tx in
            try await tx.execute("update social_friendships set accepted_at = clock_timestamp() where addressee_id = current_person_id()")
        }
        try await db.asPerson(a.young(a.pia)) { tx in try await tx.execute(post, "pia agency", "AGENCY") }
        try await db.asPerson(a.young(a.bo)) { tx in try await tx.execute(post, "bo agency", "AGENCY") }
        try await db.asPerson(a.admin) { tx in
            try await tx.execute(
                """
                insert into social_suspensions (tenant_id, person_id, until, reason, suspended_by)
                values (current_tenant_id(), $1, clock_timestamp() + interval '1 day', 'a break', current_person_id())
                """, a.stu)
        }
        return a
    }

    /// The texts of the posts `context` reads.
    static func posts(_ db: TestPools, _ context: AccountContext) async throws -> [String] {
        try await db.asPerson(context) { tx in
            try await tx.query("select text from social_posts order by text").map { try $0.decode(String.self, at: 0) }
        }
    }

    @Test func eachReadsOnlyThePostsTheyMay() async throws {
        try await TestPools.run { db in
            let a = try await Self.agency(db)
            #expect(try await Self.posts(db, a.young(a.sam)) == ["sam agency", "sam friends"])
            #expect(try await Self.posts(db, a.young(a.fay)) == ["bo agency", "sam agency", "sam friends"])
            #expect(try await Self.posts(db, a.young(a.bo)) == ["bo agency"])
            #expect(try await Self.posts(db, a.young(a.nia)) == ["bo agency", "sam agency"])
            #expect(try await Self.posts(db, a.young(a.pia)) == ["bo agency", "pia agency", "sam agency"])
            #expect(try await Self.posts(db, a.worker) == [])
            #expect(try await Self.posts(db, a.admin) == ["bo agency", "pia agency", "sam agency", "sam friends"])
            let other = try await db.makeTenant { $0.modules = [.social] }
            let olly = try await db.insertPeople([other.newPerson(.youngPerson, "olly")], into: other)[0]
            #expect(try await Self.posts(db, .person(tenantID: other.id, personID: olly, role: .youngPerson)) == [])
            #expect(try await Self.posts(db, .person(tenantID: other.id, personID: a.ada, role: .agencyAdmin)) == [])
            // Profiles: blocked both ways, nothing for those who do not take part.
            let profiles = { (context: AccountContext) in
                try await db.asPerson(context) { tx in
                    try await tx.query("select display_name from social_profiles order by display_name").map { try $0.decode(String.self, at: 0) }
                }
            }
            #expect(try await profiles(a.young(a.bo)) == ["Bo", "Fay", "Nia", "Pia", "Stu"])
            #expect(try await profiles(a.young(a.sam)) == ["Fay", "Nia", "Pia", "Sky", "Stu"])
            #expect(try await profiles(a.worker) == [])
        }
    }

    @Test func writesAreHeldToTheirPeople() async throws {
        try await TestPools.run { db in
            let a = try await Self.agency(db)
            let samsPost = try await db.asPerson(a.young(a.sam)) { tx in
                try await tx.query("select id from social_posts where text = 'sam agency'")[0].decode(UUID.self, at: 0)
            }
            let comment = "insert into social_comments (tenant_id, post_id, author_id, text) values (current_tenant_id(), $1, current_person_id(), 'hi')"
            let post = "insert into social_posts (tenant_id, author_id, text, visibility) values (current_tenant_id(), current_person_id(), 'x', 'AGENCY')"
            #expect(await db.app.attempt(a.young(a.nia).settings, comment, [samsPost]) == .rows(1))
            #expect(await db.app.attempt(a.young(a.bo).settings, comment, [samsPost]) == .failed("42501"))
            #expect(await db.app.attempt(a.young(a.stu).settings, comment, [samsPost]) == .failed("42501"))
            #expect(await db.app.attempt(a.young(a.stu).settings, post, []) == .failed("42501"))
            #expect(await db.app.attempt(a.worker.settings, post, []) == .failed("42501"))
            // Nobody writes in another's name, nor publishes past a moderator.
            #expect(
                await db.app.attempt(
                    a.young(a.nia).settings,
                    "insert into social_posts (tenant_id, author_id, text, visibility) values (current_tenant_id(), $1, 'x', 'AGENCY')", [a.sam])
                    == .failed("42501"))
            #expect(await db.app.attempt(a.young(a.nia).settings, "update social_posts set text = 'mine' where id = $1", [samsPost]) == .rows(0))
            #expect(
                await db.app.attempt(
                    a.young(a.sam).settings, "update social_posts set status = 'REMOVED' where id = $1", [samsPost], namingConstraint: true)
                    == .failed("23514 social_content_guard"))
            #expect(await db.app.attempt(a.admin.settings, "update social_posts set status = 'REMOVED' where id = $1", [samsPost]) == .rows(1))
            #expect(
                await db.app.attempt(a.admin.settings, "update social_posts set text = 'edited by admin' where id = $1", [samsPost], namingConstraint: true)
                    == .failed("23514 social_content_guard"))
            // Reports: the reported person never reads them.
            try await db.asPerson(a.young(a.nia)) { tx in
                try await tx.execute(
                    "insert into social_reports (tenant_id, reporter_id, post_id, reason) values (current_tenant_id(), current_person_id(), $1, 'SPAM')",
                    samsPost)
            }
            #expect(await db.app.attempt(a.young(a.sam).settings, "select from social_reports", []) == .rows(0))
            #expect(await db.app.attempt(a.admin.settings, "select from social_reports", []) == .rows(1))
        }
    }

    @Test func aReshareNeverWidensWhoReadsItsOriginal() async throws {
        try await TestPools.run { db in
            let a = try await Self.agency(db)
            let forFriends = try await db.asPerson(a.young(a.sam)) { tx in
                try await tx.query("select id from social_posts where text = 'sam friends'")[0].decode(UUID.self, at: 0)
            }
            let reshare = """
                insert into social_posts (tenant_id, author_id, visibility, reshare, reshare_of)
                values (current_tenant_id(), current_person_id(), $2::social_post_visibility, true, $1)
                """
            #expect(await db.app.attempt(a.young(a.fay).settings, reshare, [forFriends, "AGENCY"], namingConstraint: true)
                == .failed("23514 social_posts_reshare_audience"))
            #expect(await db.app.attempt(a.young(a.fay).settings, reshare, [forFriends, "FRIENDS"]) == .rows(1))
            // Nia, no friend of Sam's, and Bo, blocked: nothing to reshare.
            for person in [a.nia, a.bo] {
                #expect(await db.app.attempt(a.young(person).settings, reshare, [forFriends, "FRIENDS"], namingConstraint: true)
                    == .failed("23514 social_posts_reshare_guard"))
            }
        }
    }

    @Test func switchingTheModuleOffClosesEverything() async throws {
        try await TestPools.run { db in
            let a = try await Self.agency(db)
            try await db.owner.transaction { tx in
                try await tx.execute("update tenants set config = jsonb_set(config, '{modules}', '[]') where tenant_id = $1", a.tenant.id)
            }
            #expect(try await Self.posts(db, a.young(a.fay)) == [])
            #expect(try await Self.posts(db, a.admin) == [])
            #expect(await db.app.attempt(a.young(a.fay).settings, "select from social_profiles where person_id <> current_person_id()", []) == .rows(0))
        }
    }
}
