import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 14, the audit trail: append-only in the database; written for logins, admin actions, an
// adult's reads of shared entries and a client's pulls; read by admins (auditLog) and, about their
// own entries, by the young person (Entry.readBy, Entry.exportedAt). Over HTTP with a real PostgreSQL.

@Suite("Audit trail over HTTP")
struct AuditHTTPTests {
    static let log = """
        query($f: AuditFilter, $first: Int, $after: String) {
          auditLog(filter: $f, first: $first, after: $after) {
            edges { node { id occurredAt actorPersonId actorClientId action subjectPersonId subjectId } } pageInfo { hasNextPage endCursor }
          }
        }
        """

    @Test func theTrailIsAppendOnlyForTheAppRoleAndEvenTheOwner() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            _ = try await h.cmsClient(admin: ada)
            let admin = AccountContext.person(tenantID: h.tenant.id, personID: ada.id, role: .agencyAdmin).settings
            #expect(await h.app.attempt(admin, "select id from audit_events where action = 'cmsClient.created'", []) == .rows(1))
            // The app role has no UPDATE or DELETE.
            #expect(await h.app.attempt(admin, "update audit_events set action = 'x.y'", []) == .failed("42501"))
            #expect(await h.app.attempt(admin, "delete from audit_events", []) == .failed("42501"))
            // The owner, who could, is refused by the trigger.
            let owner = AccountContext.tenantOperator(tenantID: h.tenant.id).settings
            #expect(await h.owner.attempt(owner, "update audit_events set action = 'x.y'", []) == .failed("42501"))
            #expect(await h.owner.attempt(owner, "delete from audit_events", []) == .failed("42501"))
            #expect(await h.owner.attempt(owner, "truncate audit_events", []) == .failed("42501"))
            // Nobody writes in another's name.
            let forged = "insert into audit_events (tenant_id, actor_person_id, action) values (current_tenant_id(), $1, 'login.succeeded')"
            #expect(await h.app.attempt(admin, forged, [UUID()]) == .failed("42501"))
            #expect(await h.app.attempt(admin, "select id from audit_events where action = 'cmsClient.created'", []) == .rows(1), "nothing changed")
        }
    }

    @Test func loginsAdminActionsReadsAndPullsAreRecordedAndShownToWhomTheyConcern() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let agency = try await SharingAgency(h)
            let (ada, sam, wendy) = (agency.admin, agency.a, agency.w)
            let cms = try await h.cmsClient(admin: ada)
            let token = try await h.clientToken(cms)
            _ = try await h.login(sam.loginName, "not my password")
            _ = try await h.logIn(sam)
            let words = "a unique word: zephyrquill"
            let entry = try await h.write(words, as: sam)
            try await h.share(entry, with: [wendy], as: sam)
            _ = try await h.sharedWithMe(sam, as: wendy)
            _ = try await h.pull(token, after: nil) { !$0.items.isEmpty }
            let created = try await h.data(
                "mutation($i: CreatePersonInput!) { createPerson(input: $i) { person { id } } }", "createPerson",
                ["i": .object(["role": .string("YOUNG_PERSON"), "displayName": .string("Newcomer"), "username": .string("newcomer-\(h.tenant.slug.suffix(8))")])],
                as: ada)

            func events(_ filter: GraphQLObject, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> [GraphQLValue] {
                try await h.data(Self.log, "auditLog", ["f": .object(filter), "first": .int(100)], as: ada, sourceLocation: sourceLocation).nodes
            }
            let actions = Set(try await events([:]).compactMap { $0["action"]?.stringValue })
            #expect(actions.isSuperset(of: [
                "person.created", "assignment.started", "cmsClient.created", "login.failed", "login.succeeded", "share.read",
                "export.delivered",
            ]), "\(actions)")
            let read = try await events(["action": .string("share.read")])
            #expect(read.count == 1)
            #expect(read.first?["actorPersonId"] == wendy.idValue && read.first?["subjectPersonId"] == sam.idValue)
            #expect(read.first?["subjectId"] == entry)
            let pulled = try await events(["actorId": .string(cms.id)])
            #expect(pulled.map { $0["action"] } == [.string("export.delivered")])
            #expect(pulled.first?["subjectId"] == entry && pulled.first?["actorPersonId"] == .null)
            let made = try await events(["action": .string("person.created")])
            #expect(made.count == 1 && made.first?["actorPersonId"] == ada.idValue && made.first?["subjectPersonId"] == created["person"]?["id"])
            let failed = try await events(["action": .string("login.failed"), "subjectPersonId": sam.idValue])
            #expect(failed.count == 1 && failed.first?["actorPersonId"] == .null)
            let assigned = try await events(["action": .string("assignment.started"), "actorId": ada.idValue])
            #expect(assigned.count == 3)
            #expect(try await events(["from": .string("2099-01-01T00:00:00Z")]) == [])
            let paged = try await h.data(Self.log, "auditLog", ["first": .int(2)], as: ada)
            #expect(paged.nodes.count == 2 && paged["pageInfo"]?["hasNextPage"] == .bool(true))
            let next = try await h.data(Self.log, "auditLog", ["first": .int(100), "after": paged["pageInfo"]!["endCursor"]!], as: ada)
            #expect(Set(next.nodes.compactMap { $0["id"] }).isDisjoint(with: paged.nodes.compactMap { $0["id"] }))

            // The young person sees who read it and when it went to their record; nobody else does.
            let mine = try await h.data(
                "query($id: ID!) { entry(id: $id) { readBy { readerId readerName firstReadAt lastReadAt } exportedAt } }", "entry",
                ["id": entry], as: sam)
            #expect(mine["readBy"]?.listValue?.map { $0["readerId"] } == [wendy.idValue])
            #expect(mine["readBy"]?.listValue?.first?["readerName"] == .string("Wendy Walker"))
            #expect(mine["exportedAt"]?.stringValue != nil)
            let hers = try await h.data(
                "query($y: ID!) { sharedWithMe(youngPersonId: $y) { edges { node { entry { readBy { readerId } exportedAt } } } } }",
                "sharedWithMe", ["y": sam.idValue], as: wendy)
            #expect(hers.nodes.first?["entry"] == .object(["readBy": .list([]), "exportedAt": .null]))

            // Ids and actions only: the entry's words are nowhere in the trail.
            let rows = try await h.owner.transaction(settings: AccountContext.tenantOperator(tenantID: h.tenant.id).settings) { tx in
                try await tx.query("select string_agg(row_to_json(a)::text, ' ') from audit_events a")[0].decode(String.self, at: 0)
            }
            #expect(!rows.contains("zephyrquill") && !rows.contains(sam.loginName))
        }
    }

    @Test func onlyAdminsReadTheTrailAndBadFiltersAreRefused() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            for person in [try await h.person(.socialWorker, "wes"), try await h.person(.youngPerson, "sam")] {
                #expect(try await h.graphQL(Self.log, token: person.token).errorCode == "FORBIDDEN")
            }
            let token = try await h.clientToken(try await h.cmsClient(admin: ada))
            #expect(try await h.graphQL(Self.log, token: token).errorCode == "FORBIDDEN")
            for (filter, field) in [(["from": GraphQLValue.string("yesterday")], "filter.from"), (["actorId": .string("x")], "filter.actorId")]
                as [(GraphQLObject, String)]
            {
                let refused = try await h.graphQL(Self.log, ["f": .object(filter)], token: ada.token)
                #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorExtensions?["field"] == .string(field), "\(refused.json)")
            }
            let tooMany = try await h.graphQL(Self.log, ["first": .int(101)], token: ada.token)
            #expect(tooMany.errorCode == "BAD_USER_INPUT" && tooMany.errorExtensions?["field"] == .string("first"))
        }
    }
}
