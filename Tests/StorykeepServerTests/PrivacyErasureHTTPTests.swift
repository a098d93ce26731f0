import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

/// The right to erasure over HTTP: every refusal changes nothing; an erasure leaves nothing of the
/// person anywhere in the database (the catalog scan) but the one audit event saying it happened.
@Suite struct PrivacyErasureHTTPTests {
    /// A young person with something in every module, and people around them who keep their own
    /// records of them.
    struct Life {
        let ada: TestPerson, zeb: TestPerson, wendy: TestPerson, carl: TestPerson
        /// A word found in nothing but Zeb's entries.
        let word: String

        init(_ h: AccountsHarness) async throws {
            word = "quokkaberry" + UUID().uuidString.prefix(6).lowercased()
            ada = try await h.cast(.ada)
            zeb = try await h.person(.youngPerson, "zeb", displayName: "Zebedee Quillfeather", loginName: "zq" + word.suffix(6))
            (wendy, carl) = try await (h.cast(.wendy), h.cast(.carl))
            try await h.assign(zeb, wendy, .socialWorker, admin: ada)
            try await h.assign(zeb, carl, .carer, admin: ada)
            let picture = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: zeb.token)
            let tag = try await h.tag("\(word) tag", as: zeb)
            let entry = try await h.write("My \(word) day", tags: [tag], media: [try #require(picture["id"])], as: zeb)
            let other = try await h.write("Another \(word) thing", as: zeb)
            _ = try await h.data("mutation($id: ID!) { deleteEntry(id: $id) }", "deleteEntry", ["id": other], as: zeb)
            let shares = try await h.share(entry, with: [wendy, carl], message: "read this \(word)", as: zeb)
            _ = try await h.data(SharingHTTP.reply, "replyToShare", ["s": try #require(shares.first { $0["person"]?["id"] == wendy.idValue }?["id"]), "t": .string("Thanks Zebedee")], as: wendy)
            try await h.sendPrompt("How was school, Zebedee?", to: zeb, from: wendy)
            let alert = try await h.raiseAlert("help \(word)", as: zeb)
            _ = try await h.data(SafetyHTTP.acknowledge, "acknowledgeSafetyAlert", ["id": try #require(alert["id"]), "n": .string("on it")], as: wendy)
            _ = try await h.data("mutation($m: String!) { checkIn(mood: $m) { id } }", "checkIn", ["m": .string("Okay")], as: zeb)
            _ = try await h.data(PrivacyHTTP.requestMyData, "requestMyData", as: zeb)
            _ = try await h.buildDataExports()
            _ = try await h.login(zeb.loginName, "not the password")
            // A passkey, and a registration begun and left (its challenge).
            try await SoftAuthenticator().register(h, zeb, name: "\(word) phone")
            _ = try await h.data(SoftAuthenticator.beginRegistration, "beginPasskeyRegistration", as: zeb)
        }
    }

    @Test func anAdminsErasureLeavesNothingButOneAuditEvent() async throws {
        try await withAccounts(tweak: PrivacyHTTP.tenant) { h in
            let life = try await Life(h)
            let zeb = life.zeb
            let before = try await PrivacyScan.find([zeb.id.lowercased, zeb.loginName, "Zebedee Quillfeather", life.word], in: h.tenant.id, owner: h.owner)
            #expect(before.count > 15, "the scan finds Zeb everywhere first: \(before)")

            let erased = try await h.data(PrivacyHTTP.erasePerson, "erasePerson", ["p": zeb.idValue, "c": .string("Zebedee Quillfeather")], as: life.ada)
            #expect(erased["personId"] == zeb.idValue)

            let after = try await PrivacyScan.find([zeb.id.lowercased, zeb.loginName, "Zebedee Quillfeather", life.word], in: h.tenant.id, owner: h.owner)
            #expect(after == ["audit_events.subject_person_id (privacy.erased)"])
            // Their session is over; the people who looked after them go on, with their own records.
            #expect(try await h.graphQL("{ me { id } }", token: zeb.token).errorCode == "UNAUTHENTICATED")
            #expect(try await h.graphQL("{ me { id } }", token: life.wendy.token)["data"]?["me"]?["id"] == life.wendy.idValue)
            let log = try await h.data(
                "query($p: ID!) { auditLog(filter: { subjectPersonId: $p }) { edges { node { action actorPersonId } } } }", "auditLog",
                ["p": zeb.idValue], as: life.ada)
            #expect(log.nodes.map { $0["action"]?.stringValue } == ["privacy.erased"])
            #expect(log.nodes.first?["actorPersonId"] == life.ada.idValue)
        }
    }

    @Test func erasingAWorkerKeepsTheYoungPersonsRecords() async throws {
        try await withAccounts(tweak: PrivacyHTTP.tenant) { h in
            let ada = try await h.cast(.ada)
            let sam = try await h.person(.youngPerson, "sam")
            let walt = try await h.person(.socialWorker, "walt", displayName: "Walter Quenby")
            try await h.assign(sam, walt, .socialWorker, admin: ada)
            let entry = try await h.write("Sam's own entry", as: sam)
            try await h.share(entry, with: [walt], as: sam)
            let alert = try await h.raiseAlert("Sam needs help", as: sam)
            _ = try await h.data(SafetyHTTP.acknowledge, "acknowledgeSafetyAlert", ["id": try #require(alert["id"])], as: walt)

            _ = try await h.data(PrivacyHTTP.erasePerson, "erasePerson", ["p": walt.idValue, "c": .string("Walter Quenby")], as: ada)

            let found = try await PrivacyScan.find([walt.id.lowercased, walt.loginName, "Walter Quenby"], in: h.tenant.id, owner: h.owner)
            #expect(found == ["audit_events.subject_person_id (privacy.erased)"])
            // Sam keeps the entry and the alert, acknowledged by nobody named.
            #expect(try await h.data(SharingHTTP.entry, "entry", ["id": entry], as: sam)["text"]?.stringValue == "Sam's own entry")
            let mine = try await h.data(SafetyHTTP.mine, "mySafetyAlerts", as: sam)
            #expect(mine.listValue?.first?["status"]?.stringValue == "ACKNOWLEDGED")
        }
    }

    @Test func theCaseManagementSystemIsToldToDropAnErasedPersonsEntries() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let agency = try await SharingAgency(h)
            let token = try await h.clientToken(try await h.cmsClient(admin: agency.admin))
            let shared = try await h.write("For the record", as: agency.a)
            try await h.share(shared, with: [agency.w], as: agency.a)
            let first = try await h.pull(token, after: nil) { $0.items.contains { $0["entryId"] == shared } }
            #expect(first.ops == ["UPSERT \(shared.stringValue!)"])

            _ = try await h.data(PrivacyHTTP.erasePerson, "erasePerson", ["p": agency.a.idValue, "c": .string("Sam")], as: agency.admin)
            let after = try await h.pull(token, after: first.cursor) { !$0.items.isEmpty }
            #expect(after.ops == ["TOMBSTONE \(shared.stringValue!)"])
        }
    }

    @Test func anErasedPersonsLiveSocketClosesAsForARevokedToken() async throws {
        try await withAccounts(setup: .live, tweak: PrivacyHTTP.tenant) { h in
            let ada = try await h.cast(.ada)
            let sam = try await h.person(.youngPerson, "sam", displayName: "Sam Quill")
            try await withLiveEvents(h) {
                let before = h.engine.services.live.count
                let client = LiveSocketTests.client(try LiveSocketTests.url(h), sam.token, "subscription { notificationAdded { title } }")
                try await LiveSocketTests.waitForStreams(h, 2, after: before)
                _ = try await h.data(PrivacyHTTP.erasePerson, "erasePerson", ["p": sam.idValue, "c": .string("Sam Quill")], as: ada)
                let (status, output) = try await client.value
                #expect(status == 0, "\(output)")
                #expect(output == "closed 4403\n", "\(output)")
            }
        }
    }

    @Test func everyRefusalChangesNothing() async throws {
        try await withAccounts(tenants: 2, tweak: PrivacyHTTP.tenant) { h in
            let ada = try await h.cast(.ada)
            let sam = try await h.person(.youngPerson, "sam", displayName: "Sam Quill")
            let wendy = try await h.cast(.wendy)
            let foreignAdmin = try await h.cast(.fay, tenant: h.tenants[1])
            _ = try await h.write("still here", as: sam)
            let seen = try await PrivacyScan.find([sam.id.lowercased], in: h.tenant.id, owner: h.owner)

            let wrong = try await h.graphQL(PrivacyHTTP.erasePerson, ["p": sam.idValue, "c": .string("sam quill")], token: ada.token)
            #expect(wrong.errorCode == "BAD_USER_INPUT")
            #expect(wrong.errorExtensions?["field"]?.stringValue == "confirm")
            #expect(try await h.graphQL(PrivacyHTTP.erasePerson, ["p": sam.idValue, "c": .string("Sam Quill")], token: wendy.token).errorCode == "FORBIDDEN")
            #expect(try await h.graphQL(PrivacyHTTP.erasePerson, ["p": sam.idValue, "c": .string("Sam Quill")], token: sam.token).errorCode == "FORBIDDEN")
            let other = try await h.graphQL(PrivacyHTTP.erasePerson, ["p": sam.idValue, "c": .string("Sam Quill")], token: foreignAdmin.token, tenant: h.tenants[1])
            #expect(other.errorCode == "NOT_FOUND")
            let own = try await h.graphQL(PrivacyHTTP.erasePerson, ["p": ada.idValue, "c": .string("Ada Admin")], token: ada.token)
            #expect(own.errorExtensions?["field"]?.stringValue == "personId")
            // Self-erasure is off by default.
            #expect(try await h.graphQL(PrivacyHTTP.deleteMyAccount, ["c": .string(sam.loginName)], token: sam.token).errorCode == "FORBIDDEN")

            #expect(try await PrivacyScan.find([sam.id.lowercased], in: h.tenant.id, owner: h.owner) == seen)
            #expect(try await h.graphQL("{ me { id } }", token: sam.token)["data"]?["me"]?["id"] == sam.idValue)
        }
    }

    @Test func aPersonDeletesTheirOwnAccountWhereTheAgencyAllows() async throws {
        try await withAccounts(tweak: { index, file in
            PrivacyHTTP.tenant(index, &file)
            file.privacy.selfErasure = true
        }) { h in
            let life = try await Life(h)
            let zeb = life.zeb
            let wrong = try await h.graphQL(PrivacyHTTP.deleteMyAccount, ["c": .string("Zebedee Quillfeather")], token: zeb.token)
            #expect(wrong.errorExtensions?["field"]?.stringValue == "confirm")
            _ = try await h.data(PrivacyHTTP.deleteMyAccount, "deleteMyAccount", ["c": .string(zeb.loginName)], as: zeb)
            let found = try await PrivacyScan.find([zeb.id.lowercased, zeb.loginName, "Zebedee Quillfeather", life.word], in: h.tenant.id, owner: h.owner)
            #expect(found == ["audit_events.subject_person_id (privacy.erased)"])
            let log = try await h.data(
                "query($p: ID!) { auditLog(filter: { subjectPersonId: $p }) { edges { node { action actorPersonId } } } }", "auditLog",
                ["p": zeb.idValue], as: life.ada)
            #expect(log.nodes.map { $0["actorPersonId"] } == [.null])
        }
    }
}

/// Scans every table and every text, uuid and JSON column of the database, as the catalog lists
/// them (so tables added later are covered), for text, within one tenant's rows: as the owner, in
/// the context every restrictive policy admits (an erasure in progress, which only the owner can
/// be in: Migrations/0031_privacy_erasure.sql), in a transaction that is rolled back.
enum PrivacyScan {
    private struct RolledBack: Error { var found: [String] }

    /// Where any of `needles` occurs (case-insensitive) in a row of `tenant`: `table.column`, for
    /// each column that holds one; the erasure's own audit event is named `(privacy.erased)`.
    static func find(_ needles: [String], in tenant: UUID, owner: PostgresPool) async throws -> [String] {
        let patterns = needles.map { "%" + $0 + "%" }
        do {
            try await owner.transaction { tx in
                try await tx.execute(
                    "select set_config('storykeep.tenant_id', $1, true), set_config('storykeep.erasing', $2, true)",
                    tenant.uuidString, UUID().uuidString)
                let columns = try await tx.query("""
                    select c.table_name::text, c.column_name::text from information_schema.columns c
                    join pg_class r on r.relname = c.table_name::text and r.relnamespace = 'public'::regnamespace and r.relkind = 'r'
                    where c.table_schema = 'public'
                      and c.data_type in ('text', 'character varying', 'uuid', 'json', 'jsonb', 'tsvector', 'ARRAY', 'USER-DEFINED')
                      and exists (select from information_schema.columns t
                                  where t.table_schema = 'public' and t.table_name = c.table_name and t.column_name = 'tenant_id')
                    order by 1, 2
                    """).map { (try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1)) }
                var found: [String] = []
                for (table, column) in columns {
                    let erasure = table == "audit_events" ? "action = 'privacy.erased'" : "false"
                    let row = try await tx.query(
                        "select count(*) filter (where not (\(erasure))), count(*) filter (where \(erasure)) from \(table) "
                            + "where tenant_id = $1 and \(column)::text ilike any($2)", tenant, patterns)[0]
                    if try row.decode(Int.self, at: 0) > 0 { found.append("\(table).\(column)") }
                    if try row.decode(Int.self, at: 1) > 0 { found.append("\(table).\(column) (privacy.erased)") }
                }
                throw RolledBack(found: found)
            }
        } catch let done as RolledBack {
            return done.found
        }
        return []
    }
}
