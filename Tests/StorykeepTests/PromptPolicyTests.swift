import Foundation
import GraphQL
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore
@testable import StorykeepPrompts

// Prompts from adults (Migrations/0013_prompts.sql) tried as direct SQL under the app role with
// each person's context set, and through PromptStore: who sees a prompt, who sends and closes one,
// and the limit of open prompts, held by the database without the resolvers.

extension CaseloadDatabase {
    /// Sends `text` from `adult` to `youngPerson` through PromptStore, in the adult's context: the
    /// prompt's id.
    @discardableResult
    func sendPrompt(_ youngPerson: UUID, from adult: UUID, _ text: String = "How was the match?") async throws -> UUID {
        try await asPerson(adult) { tx in try await PromptStore(tx).send(to: youngPerson, text: text, limit: 5).id }
    }

    /// A new TEXT entry of `person`'s journal, written through the journal: its id.
    func entry(of person: UUID) async throws -> UUID {
        try await asPerson(person) { tx in
            try await JournalStore(tx).createEntry(EntryInput(day: PostgresDate("2026-11-20"), kind: .text, text: "My answer")).id
        }
    }

    /// Sets the tenant's `adultPrompts.maxOpenPerYoungPerson` in its stored file, as
    /// `storykeep tenant apply` would.
    func limitOpenPrompts(to most: Int) async throws {
        try await pools.owner.transaction { tx in
            try await tx.execute(
                "update tenants set config = jsonb_set(config, '{adultPrompts}', jsonb_build_object('maxOpenPerYoungPerson', $2::int)) where tenant_id = $1",
                tenant.id, most)
        }
    }
}

@Suite("Prompts: row-level security, closing once, the limit of open prompts")
struct PromptPolicyTests {
    static let prompts = "select id from adult_prompts"

    @Test func aPromptIsSeenByItsYoungPersonAndByItsAdultWhileTheyLookAfterThem() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            let wendys = try await db.assignTeams().samWendy
            let fromWendy = try await db.sendPrompt(t.sam, from: t.wendy)
            let fromCarl = try await db.sendPrompt(t.sam, from: t.carl)
            let toAlex = try await db.sendPrompt(t.alex, from: t.ivy)

            #expect(try await db.ids(t.sam, Self.prompts) == [fromWendy, fromCarl])
            #expect(try await db.ids(t.alex, Self.prompts) == [toAlex])
            // Each adult their own, not the other adult's of the same young person.
            #expect(try await db.ids(t.wendy, Self.prompts) == [fromWendy])
            #expect(try await db.ids(t.carl, Self.prompts) == [fromCarl])
            #expect(try await db.ids(t.ivy, Self.prompts) == [toAlex])
            // Not an admin, not a worker assigned to no one.
            #expect(try await db.ids(t.admin, Self.prompts) == [])
            #expect(try await db.ids(t.dan, Self.prompts) == [])
            #expect(try await db.ids(t.admin, "select young_person_id from adult_prompt_inboxes") == [])

            // Once Wendy no longer looks after Sam, she learns nothing more of her prompt; Sam keeps it.
            try await db.end(wendys)
            #expect(try await db.ids(t.wendy, Self.prompts) == [])
            #expect(try await db.ids(t.sam, Self.prompts) == [fromWendy, fromCarl])
            let mine = try await db.asPerson(t.sam) { tx in try await PromptStore(tx).received(open: true, first: 10) }
            #expect(mine.map(\.id) == [fromCarl, fromWendy])
            #expect(mine.map(\.adult?.displayName) == ["Carl Carter", nil], "Sam no longer sees Wendy")
        }
    }

    @Test func anotherTenantSeesNothingWhateverItClaims() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.assign(t.sam, t.wendy, .socialWorker)
            try await db.sendPrompt(t.sam, from: t.wendy)
            let other = try await db.otherTenant()
            for person in [other.admin, other.sam, other.wendy] {
                #expect(try await db.ids(person, Self.prompts, of: other) == [])
                #expect(try await db.ids(person, "select young_person_id from adult_prompt_inboxes", of: other) == [])
            }
            let claim = AccountContext.person(tenantID: other.id, personID: t.sam, role: .youngPerson)
            #expect(await db.attempt(claim, "select * from adult_prompts") == .rows(0))
            let asWendy = AccountContext.person(tenantID: other.id, personID: t.wendy, role: .socialWorker)
            #expect(
                await db.attempt(asWendy, "insert into adult_prompts (tenant_id, young_person_id, adult_id, text) values (current_tenant_id(), $1, $2, 'hi')", t.sam, t.wendy)
                    == .failed(insufficientPrivilege))
        }
    }

    @Test func onlyAnAdultWhoLooksAfterTheYoungPersonSendsAndInTheirOwnName() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            let wendys = try await db.assign(t.sam, t.wendy, .socialWorker)
            try await db.assign(t.alex, t.ivy, .socialWorker)
            let insert = "insert into adult_prompts (tenant_id, young_person_id, adult_id, text) values (current_tenant_id(), $1, $2, 'How are you?')"
            #expect(await db.attempt(t.context(t.wendy), insert, t.sam, t.wendy) == .rows(1))
            let refused: [(String, UUID, UUID, UUID)] = [
                ("a worker of another young person", t.ivy, t.sam, t.ivy),
                ("in another adult's name", t.wendy, t.sam, t.ivy),
                ("the young person", t.sam, t.sam, t.sam),
                ("another young person", t.alex, t.sam, t.alex),
                ("an admin", t.admin, t.sam, t.admin),
                ("a switched-off worker", t.dan, t.sam, t.dan),
            ]
            for (what, actor, young, adult) in refused {
                #expect(await db.attempt(t.context(actor), insert, young, adult) == .failed(insufficientPrivilege), "\(what)")
            }
            // Sent open: answered, dismissed or back-dated are not the sender's to say.
            for column in ["answered_at", "dismissed_at", "sent_at"] {
                let sql = "insert into adult_prompts (tenant_id, young_person_id, adult_id, text, \(column)) values (current_tenant_id(), $1, $2, 'x', now())"
                #expect(await db.attempt(t.context(t.wendy), sql, t.sam, t.wendy) == .failed(insufficientPrivilege), "\(column)")
            }
            try await db.end(wendys)
            #expect(await db.attempt(t.context(t.wendy), insert, t.sam, t.wendy) == .failed(insufficientPrivilege), "an ended assignment")
            // Through the store: the same young person, one answer for every reason.
            for (adult, young) in [(t.wendy, t.sam), (t.ivy, t.sam), (t.ivy, UUID()), (t.ivy, t.wendy)] {
                await #expect(throws: GraphQLError.self) { try await db.sendPrompt(young, from: adult) }
            }
        }
    }

    @Test func onlyTheYoungPersonClosesAPromptOnceAndWithAnEntryOfTheirOwn() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.assign(t.sam, t.wendy, .socialWorker)
            try await db.assign(t.alex, t.ivy, .socialWorker)
            let first = try await db.sendPrompt(t.sam, from: t.wendy)
            let second = try await db.sendPrompt(t.sam, from: t.wendy)
            let samsEntry = try await db.entry(of: t.sam)
            let alexsEntry = try await db.entry(of: t.alex)
            let dismiss = "update adult_prompts set dismissed_at = now() where id = $1"
            let answer = "update adult_prompts set answered_entry_id = $2, answered_at = now() where id = $1"

            for person in [t.wendy, t.alex, t.admin, t.ivy] {
                #expect(await db.attempt(t.context(person), dismiss, first) == .rows(0))
            }
            #expect(await db.attempt(t.context(t.sam), answer, first, alexsEntry) == .failed("23503 adult_prompts_answer_is_own_entry"))
            #expect(await db.attempt(t.context(t.sam), "update adult_prompts set answered_at = now() where id = $1", first) == .failed("23514 adult_prompts_closed"))
            #expect(await db.attempt(t.context(t.sam), "update adult_prompts set text = 'changed' where id = $1", first) == .failed(insufficientPrivilege))
            #expect(await db.attempt(t.context(t.sam), "delete from adult_prompts where id = $1", first) == .failed(insufficientPrivilege))

            try await db.asPerson(t.sam) { tx in try await tx.execute(answer, first, samsEntry) }
            try await db.asPerson(t.sam) { tx in try await tx.execute(dismiss, second) }
            // Closed, each stays as it closed.
            for sql in [
                "update adult_prompts set answered_at = null, answered_entry_id = null where id = $1",
                "update adult_prompts set dismissed_at = null where id = $1", dismiss,
            ] {
                for id in [first, second] {
                    #expect(await db.attempt(t.context(t.sam), sql, id) == .failed("23514 adult_prompts_closed"), "\(sql)")
                }
            }
            let answered = try await db.asPerson(t.sam) { tx in try await PromptStore(tx).received(open: false, first: 10) }
            #expect(answered.map(\.status) == [.dismissed, .answered])
            #expect(answered.last?.answeredEntryID == samsEntry)
            #expect(try await db.asPerson(t.sam) { tx in try await PromptStore(tx).received(open: true, first: 10) } == [])
        }
    }

    @Test func theLimitOfOpenPromptsHoldsAgainstConcurrentSenders() async throws {
        try await TestPools.run(app: 10, owner: 1) { pools in
            let db = CaseloadDatabase(pools: pools, tenant: try await CaseloadTenant(pools))
            let t = db.tenant
            try await db.assign(t.sam, t.wendy, .socialWorker)
            try await db.assign(t.sam, t.carl, .carer)
            try await db.limitOpenPrompts(to: 3)
            // Ten prompts at once, from two adults, each in a transaction of its own.
            let sent = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        do {
                            try await db.sendPrompt(t.sam, from: index % 2 == 0 ? t.wendy : t.carl, "Prompt \(index)")
                            return true
                        } catch let error as GraphQLError where error.extensions?["field"] == .string("youngPersonId") {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(sent == 3)
            #expect(try await db.ids(t.sam, PromptPolicyTests.prompts).count == 3)
            let count = "select open_prompts from adult_prompt_inboxes"
            #expect(try await db.asPerson(t.sam) { tx in try await tx.query(count)[0].decode(Int.self, at: 0) } == 3)

            // Without the store, the database refuses the fourth; the adults cannot lower the count.
            let insert = "insert into adult_prompts (tenant_id, young_person_id, adult_id, text) values (current_tenant_id(), $1, $2, 'one more')"
            #expect(await db.attempt(t.context(t.wendy), insert, t.sam, t.wendy) == .failed("23514 adult_prompts_open_limit"))
            for change in ["open_prompts = 0", "open_prompts = open_prompts - 1"] {
                #expect(
                    await db.attempt(t.context(t.wendy), "update adult_prompt_inboxes set \(change) where young_person_id = $1", t.sam)
                        == .failed("23514 adult_prompt_inboxes_counting"), "\(change)")
            }
            // Closing one makes room for one.
            let open = try await db.asPerson(t.sam) { tx in try await PromptStore(tx).received(open: true, first: 10) }
            _ = try await db.asPerson(t.sam) { tx in try await PromptStore(tx).dismiss(id: open[0].id) }
            #expect(try await db.asPerson(t.sam) { tx in try await tx.query(count)[0].decode(Int.self, at: 0) } == 2)
            try await db.sendPrompt(t.sam, from: t.carl)
            await #expect(throws: GraphQLError.self) { try await db.sendPrompt(t.sam, from: t.wendy) }
        }
    }

    @Test func purgingTheEntryThatAnsweredAPromptKeepsTheAnswer() async throws {
        try await CaseloadDatabase.run { db in
            let t = db.tenant
            try await db.assign(t.sam, t.wendy, .socialWorker)
            let prompt = try await db.sendPrompt(t.sam, from: t.wendy)
            let entry = try await db.entry(of: t.sam)
            let answer = try await db.asPerson(t.sam) { tx in try await PromptStore(tx).answer(id: prompt, with: entry) }
            #expect(answer?.adultID == t.wendy)
            #expect(answer?.adultLooksAfter == true)
            // Answered with it already: nothing to do (an entry updated with the same input).
            #expect(try await db.asPerson(t.sam) { tx in try await PromptStore(tx).answer(id: prompt, with: entry) } == nil)

            try await db.asPerson(t.sam) { tx in try await JournalStore(tx).deleteEntry(id: entry, now: Date()) }
            let purged = try await db.pools.app.transaction { tx in
                try await ArchivePurge.purge(tenantID: t.id, olderThan: .seconds(0), now: Date().addingTimeInterval(60), on: tx)
            }
            #expect(purged.entries == 1)
            let kept = try await db.asPerson(t.sam) { tx in try await PromptStore(tx).received(open: nil, first: 10) }
            #expect(kept.map(\.status) == [.answered])
            #expect(kept.first?.answeredEntryID == nil)
            #expect(try await db.ids(t.wendy, "select id from adult_prompts where answered_at is not null") == [prompt])
        }
    }

    @Test func theTenantFileSetsTheLimit() throws {
        let file = { (yaml: String) throws(TenantFileError) in try TenantFiles.decode(minimalTenantYAML + yaml, file: "tenants/sample.yaml") }
        #expect(try file("").adultPrompts.maxOpenPerYoungPerson == 5)
        #expect(try file("\nadultPrompts: { maxOpenPerYoungPerson: 50 }\n").adultPrompts.maxOpenPerYoungPerson == 50)
        for bad in ["0", "51", "many"] {
            #expect(throws: TenantFileError.self) { try file("\nadultPrompts: { maxOpenPerYoungPerson: \(bad) }\n") }
        }
        do {
            _ = try file("\nadultPrompts: { maxOpen: 3 }\n")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.keyPath == "adultPrompts.maxOpen")
        }
    }
}
