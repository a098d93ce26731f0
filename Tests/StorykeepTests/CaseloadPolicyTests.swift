import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCaseload
@testable import StorykeepCore

// Who sees whom once adults are assigned (Migrations/0010_caseload.sql), tried as direct SQL under
// the app role with each person's context set: the policies hold without the resolvers.

@Suite("Caseload: row-level security of assignments, people and profiles")
struct CaseloadPolicyTests {
    /// Profiles for Sam, Wendy and Alex, each written in their own context.
    private func profiles(_ db: CaseloadDatabase) async throws {
        for (person, name) in [(db.tenant.sam, "Sammy"), (db.tenant.wendy, "Wen"), (db.tenant.alex, "Lex")] {
            try await db.asPerson(person) { tx throws in
                try await tx.execute(
                    "insert into profiles (tenant_id, person_id, display_name, avatar) values (current_tenant_id(), current_person_id(), $1, '🦊')",
                    name)
            }
        }
    }

    @Test func aCurrentAssignmentShowsItsTwoPeopleToEachOtherAndNoOneElse() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await profiles(db)
            try await db.assign(t.sam, t.wendy, .socialWorker)
            try await db.assign(t.sam, t.carl, .carer)
            try await db.assign(t.alex, t.ivy, .otherProfessional)

            let people = "select id from people"
            let profiles = "select person_id from profiles"
            // The adults see their young people, not each other, not the other young person.
            #expect(try await db.ids(t.wendy, people) == [t.wendy, t.sam])
            #expect(try await db.ids(t.wendy, profiles) == [t.wendy, t.sam])
            #expect(try await db.ids(t.carl, people) == [t.carl, t.sam])
            #expect(try await db.ids(t.carl, profiles) == [t.sam])
            #expect(try await db.ids(t.ivy, people) == [t.ivy, t.alex])
            #expect(try await db.ids(t.ivy, profiles) == [t.alex])
            // Young people see their team, not each other, not the other's team.
            #expect(try await db.ids(t.sam, people) == [t.sam, t.wendy, t.carl])
            #expect(try await db.ids(t.sam, profiles) == [t.sam, t.wendy])
            #expect(try await db.ids(t.alex, people) == [t.alex, t.ivy])
            #expect(try await db.ids(t.alex, profiles) == [t.alex])
            // Unassigned people see themselves; admins see every person and no profile.
            #expect(try await db.ids(t.dan, people) == [t.dan])
            #expect(try await db.ids(t.dan, profiles) == [])
            #expect(try await db.ids(t.admin, people) == Set(t.roles.keys))
            #expect(try await db.ids(t.admin, profiles) == [])
            // Each party sees their own assignments; others none.
            let assignments = "select adult_id from assignments"
            #expect(try await db.ids(t.sam, assignments) == [t.wendy, t.carl])
            #expect(try await db.ids(t.wendy, assignments) == [t.wendy])
            #expect(try await db.ids(t.alex, assignments) == [t.ivy])
            #expect(try await db.ids(t.dan, assignments) == [])
            #expect(try await db.ids(t.admin, assignments) == [t.wendy, t.carl, t.ivy])

            // What the caseload reads through those policies: the name each may see.
            let team = try await db.asPerson(t.sam) { tx throws in try await Caseload(tx).currentAdults(of: t.sam) }
            #expect(team.map(\.adult.displayName) == ["Wen", "Carl Carter"])
            #expect(team.map(\.relationship) == [.socialWorker, .carer])
            let young = try await db.asPerson(t.wendy) { tx throws in try await Caseload(tx).currentYoungPeople(of: t.wendy) }
            #expect(young.map(\.youngPerson.displayName) == ["Sammy"])
            #expect(young.map(\.youngPerson.avatar) == ["🦊"])
            let history = try await db.asPerson(t.admin) { tx throws in try await Caseload(tx).history(of: t.sam) }
            #expect(Set(history.map(\.youngPerson.displayName)) == ["Sam Smith"], "admins read names from the agency's records")
        }
    }

    @Test func anotherTenantsPeopleSeeNothingWhateverTheyClaim() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await profiles(db)
            try await db.assign(t.sam, t.wendy, .socialWorker)
            let other = try await db.otherTenant()
            for table in ["people", "profiles", "assignments"] {
                let column = table == "people" ? "id" : table == "profiles" ? "person_id" : "young_person_id"
                let sql = "select \(column) from \(table)"
                #expect(try await db.ids(other.admin, sql, of: other).isDisjoint(with: t.roles.keys), "\(table)")
                #expect(try await db.ids(other.sam, sql, of: other).isDisjoint(with: t.roles.keys), "\(table)")
            }
            // Another tenant's context claiming Wendy's id: nothing of Sam's.
            let claim = AccountContext.person(tenantID: other.id, personID: t.wendy, role: .socialWorker)
            #expect(await db.attempt(claim, "select * from people where id = $1", t.sam) == .rows(0))
            #expect(await db.attempt(claim, "select * from profiles where person_id = $1", t.sam) == .rows(0))
            #expect(await db.attempt(claim, "select * from assignments") == .rows(0))
            // An assignment across tenants is refused (the role check finds no such person here;
            // the composite keys would refuse it too).
            let across = await db.attempt(
                other.context(other.admin),
                "insert into assignments (tenant_id, young_person_id, adult_id, relationship, assigned_by) values (current_tenant_id(), $1, $2, 'SOCIAL_WORKER', $3)",
                t.sam, other.wendy, other.admin)
            #expect(across == .failed("23514 assignments_role_fit"))
        }
    }

    @Test func endingAnAssignmentNarrowsAtOnceAndAssigningAgainWidens() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await profiles(db)
            let first = try await db.assign(t.sam, t.wendy, .socialWorker)
            try await db.end(first)
            #expect(try await db.ids(t.wendy, "select id from people") == [t.wendy])
            #expect(try await db.ids(t.wendy, "select person_id from profiles") == [t.wendy])
            #expect(try await db.ids(t.sam, "select id from people") == [t.sam])
            // The ended assignment stays, for its parties and the admin.
            #expect(try await db.ids(t.wendy, "select id from assignments") == [first])
            let second = try await db.assign(t.sam, t.wendy, .otherProfessional)
            #expect(try await db.ids(t.wendy, "select id from people") == [t.wendy, t.sam])
            #expect(try await db.ids(t.admin, "select id from assignments") == [first, second])
        }
    }

    @Test func writingStaysTheirOwn() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await profiles(db)
            try await db.assign(t.sam, t.wendy, .socialWorker)
            // Wendy reads Sam's profile, and can change nothing of it or of Sam.
            let wendy = t.context(t.wendy)
            #expect(await db.attempt(wendy, "update profiles set display_name = 'pwned' where person_id = $1", t.sam) == .rows(0))
            #expect(await db.attempt(wendy, "update people set display_name = 'pwned' where id = $1", t.sam) == .rows(0))
            #expect(
                await db.attempt(
                    wendy, "insert into profiles (tenant_id, person_id, display_name) values (current_tenant_id(), $1, 'forged')", t.alex)
                    == .failed(insufficientPrivilege))
            #expect(await db.attempt(wendy, "delete from profiles where person_id = $1", t.sam) == .failed(insufficientPrivilege))
            // Sam's own profile is still Sam's to change.
            #expect(await db.attempt(t.context(t.sam), "update profiles set display_name = 'Sam I am' where person_id = $1", t.sam) == .rows(1))
        }
    }

    @Test func onlyAdminsAssignAndEndAndTheHistoryStays() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            let id = try await db.assign(t.sam, t.wendy, .socialWorker)
            let insert = """
                insert into assignments (tenant_id, young_person_id, adult_id, relationship, assigned_by)
                values (current_tenant_id(), $1, $2, $3::assignment_relationship, $4)
                """
            // Not an adult's to write, even one who sees both people; not a young person's.
            #expect(await db.attempt(t.context(t.wendy), insert, t.sam, t.ivy, "SOCIAL_WORKER", t.wendy) == .failed("23514 assignments_role_fit"))
            #expect(await db.attempt(t.context(t.carl), insert, t.sam, t.carl, "CARER", t.carl) == .failed("23514 assignments_role_fit"))
            #expect(await db.attempt(t.context(t.sam), insert, t.sam, t.wendy, "OTHER_PROFESSIONAL", t.sam) == .failed(insufficientPrivilege))
            let wendyAgain = await db.attempt(t.context(t.wendy), insert, t.sam, t.wendy, "OTHER_PROFESSIONAL", t.wendy)
            #expect(wendyAgain == .failed(insufficientPrivilege))
            for person in [t.wendy, t.sam] {
                #expect(await db.attempt(t.context(person), "update assignments set until = now(), ended_by = $2 where id = $1", id, person) == .rows(0))
            }
            // An admin assigns in their own name only, and ends in their own name only.
            #expect(await db.attempt(t.context(t.admin), insert, t.alex, t.wendy, "SOCIAL_WORKER", t.ivy) == .failed(insufficientPrivilege))
            #expect(
                await db.attempt(t.context(t.admin), "update assignments set until = now(), ended_by = $2 where id = $1", id, t.ivy)
                    == .failed(insufficientPrivilege))
            // Nobody deletes one or changes who, what or since.
            #expect(await db.attempt(t.context(t.admin), "delete from assignments where id = $1", id) == .failed(insufficientPrivilege))
            for change in ["relationship = 'CARER'", "since = now() - interval '1 year'", "adult_id = young_person_id", "assigned_by = null"] {
                #expect(
                    await db.attempt(t.context(t.admin), "update assignments set \(change) where id = $1", id) == .failed(insufficientPrivilege),
                    "\(change)")
            }
            // Once ended, it stays as it ended.
            try await db.end(id)
            #expect(
                await db.attempt(t.context(t.admin), "update assignments set until = null, ended_by = null where id = $1", id)
                    == .failed("23514 assignments_history"))
            #expect(
                await db.attempt(t.context(t.admin), "update assignments set until = now(), ended_by = current_person_id() where id = $1", id)
                    == .failed("23514 assignments_history"))
            // The operator (command line) assigns and ends too, naming nobody.
            #expect(await db.attempt(t.operatorContext, insert, t.alex, t.carl, "CARER", nil) == .rows(1))
        }
    }

    @Test func theDatabaseHoldsWhoFitsWhichRelationship() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            let admin = t.context(t.admin)
            let insert = """
                insert into assignments (tenant_id, young_person_id, adult_id, relationship, assigned_by)
                values (current_tenant_id(), $1, $2, $3::assignment_relationship, current_person_id())
                """
            let refused: [(String, UUID, UUID, String)] = [
                ("a young person to a young person", t.sam, t.alex, "CARER"),
                ("a young person as a social worker", t.sam, t.alex, "SOCIAL_WORKER"),
                ("a social worker as carer", t.sam, t.wendy, "CARER"),
                ("a carer as social worker", t.sam, t.carl, "SOCIAL_WORKER"),
                ("a carer as other professional", t.sam, t.carl, "OTHER_PROFESSIONAL"),
                ("an admin", t.sam, t.admin, "SOCIAL_WORKER"),
                ("an adult as the young person", t.wendy, t.ivy, "SOCIAL_WORKER"),
                ("a switched-off adult", t.sam, t.dan, "SOCIAL_WORKER"),
                ("nobody", t.sam, UUID(), "SOCIAL_WORKER"),
            ]
            for (what, young, adult, relationship) in refused {
                #expect(await db.attempt(admin, insert, young, adult, relationship) == .failed("23514 assignments_role_fit"), "\(what)")
            }
            #expect(await db.attempt(admin, insert, t.sam, t.sam, "SOCIAL_WORKER") == .failed("23514 assignments_role_fit"))
            // One current assignment per pair, whatever the relationship.
            try await db.assign(t.sam, t.wendy, .socialWorker)
            #expect(await db.attempt(admin, insert, t.sam, t.wendy, "OTHER_PROFESSIONAL") == .failed("23505 assignments_current"))
            #expect(await db.attempt(admin, insert, t.sam, t.ivy, "OTHER_PROFESSIONAL") == .rows(1))
            #expect(await db.attempt(admin, insert, t.sam, t.carl, "CARER") == .rows(1))
            // Nothing refused was kept.
            #expect(try await db.ids(t.admin, "select adult_id from assignments") == [t.wendy])
        }
    }
}
