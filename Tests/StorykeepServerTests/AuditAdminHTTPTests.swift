import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 14, the audit trail of admin actions and logins: each recorded in the transaction of what
// it records (a refused mutation leaves no row), with the HTTP request's id; the tenant's own
// changes at the command line in its own trail. Over HTTP with a real PostgreSQL.

@Suite("Audit trail of admin actions and logins over HTTP")
struct AuditAdminHTTPTests {
    static let log = """
        query($f: AuditFilter) {
          auditLog(filter: $f, first: 100) { edges { node { action actorPersonId actorClientId subjectPersonId subjectId requestId } } }
        }
        """

    /// `filter`'s events, newest first, as the admin `admin` lists them.
    static func events(_ h: AccountsHarness, _ filter: GraphQLObject = [:], as admin: TestPerson) async throws -> [GraphQLValue] {
        try await h.data(log, "auditLog", ["f": .object(filter)], as: admin).nodes
    }

    /// The one event of `action` (the test fails if there is not exactly one).
    static func only(
        _ action: AuditAction, _ h: AccountsHarness, as admin: TestPerson, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> GraphQLValue {
        let found = try await events(h, ["action": .string(action.rawValue)], as: admin)
        #expect(found.count == 1, "\(action.rawValue): \(found)", sourceLocation: sourceLocation)
        return try #require(found.first, sourceLocation: sourceLocation)
    }

    /// How many rows the tenant's trail holds, as its operator counts them.
    static func count(_ h: AccountsHarness) async throws -> Int {
        try await h.owner.transaction(settings: AccountContext.tenantOperator(tenantID: h.tenant.id).settings) { tx in
            try await tx.query("select count(*) from audit_events")[0].decode(Int.self, at: 0)
        }
    }

    static let resetRequest = "mutation($id: ID!) { requestPasswordReset(personId: $id, reason: \"Forgot it\") { id } }"
    static let resetApprove = "mutation($id: ID!) { approvePasswordReset(requestId: $id) { activationCode } }"
    static let resetRefuse = "mutation($id: ID!) { refusePasswordReset(requestId: $id) { id } }"

    @Test func everyAdminActionOnPeopleIsRecordedAndARefusedOneLeavesNothing() async throws {
        try await withAccounts { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let bob = try await h.person(.agencyAdmin, "bob")
            let sam = try await h.person(.youngPerson, "sam")
            let wes = try await h.person(.socialWorker, "wes")
            let sol = try await h.person(.socialWorker, "sol")

            // createPerson, then issueActivationCode for them, then they activate their account.
            let created = try await h.data(
                "mutation($i: CreatePersonInput!) { createPerson(input: $i) { person { id } } }", "createPerson",
                ["i": .object(["role": .string("YOUNG_PERSON"), "displayName": .string("Nia"), "username": .string("nia-\(h.tenant.slug)")])],
                as: ada)
            let nia = try #require(created["person"]?["id"])
            let issued = try await h.data(
                "mutation($id: ID!) { issueActivationCode(personId: $id) { activationCode } }", "issueActivationCode", ["id": nia], as: ada)
            _ = try await h.activate(try #require(issued["activationCode"]?.stringValue), password: "nia's own long password")

            // A password reset asked by Ada, approved by Bob, completed by Sam; a second one refused.
            let reset = try #require(try await h.data(Self.resetRequest, "requestPasswordReset", ["id": sam.idValue], as: ada)["id"])
            let code = try await h.data(Self.resetApprove, "approvePasswordReset", ["id": reset], as: bob)["activationCode"]
            _ = try await h.activate(try #require(code?.stringValue), password: "sam's brand new password")
            let second = try #require(try await h.data(Self.resetRequest, "requestPasswordReset", ["id": sam.idValue], as: ada)["id"])
            _ = try await h.data(Self.resetRefuse, "refusePasswordReset", ["id": second], as: bob)
            _ = try await h.data("mutation($id: ID!) { disablePerson(personId: $id) { id } }", "disablePerson", ["id": wes.idValue], as: ada)

            let expected: [(AuditAction, actor: GraphQLValue, person: GraphQLValue, subject: GraphQLValue)] = [
                (.personCreated, ada.idValue, nia, .null),
                (.activationCodeIssued, ada.idValue, nia, .null),
                (.accountActivated, nia, nia, .null),
                (.passwordResetRequested, ada.idValue, sam.idValue, reset),
                (.passwordResetApproved, bob.idValue, sam.idValue, reset),
                (.passwordResetCompleted, sam.idValue, sam.idValue, reset),
                (.passwordResetRefused, bob.idValue, sam.idValue, second),
                (.personDisabled, ada.idValue, wes.idValue, .null),
            ]
            for (action, actor, person, subject) in expected {
                // person.created and account.activated also hold the test's own people, added by the operator.
                let rows = try await Self.events(h, ["action": .string(action.rawValue), "subjectPersonId": person], as: ada)
                    .filter { $0["actorPersonId"] == actor && $0["subjectId"] == subject }
                #expect(rows.count == 1, "\(action.rawValue): \(rows)")
                #expect(rows.first?["actorClientId"] == .null && rows.first?["requestId"]?.stringValue != nil, "\(action.rawValue)")
            }

            // Refused: nothing is recorded.
            let before = try await Self.count(h)
            let refusals: [(String, GraphQLObject, TestPerson, String)] = [
                ("mutation($id: ID!) { disablePerson(personId: $id) { id } }", ["id": ada.idValue], ada, "BAD_USER_INPUT"),
                ("mutation($id: ID!) { issueActivationCode(personId: $id) { activationCode } }", ["id": sam.idValue], ada, "BAD_USER_INPUT"),
                (Self.resetRequest, ["id": ada.idValue], ada, "BAD_USER_INPUT"),
                (Self.resetApprove, ["id": second], ada, "BAD_USER_INPUT"),
                (Self.resetRequest, ["id": sam.idValue], sol, "FORBIDDEN"),
                ("mutation($i: CreatePersonInput!) { createPerson(input: $i) { person { id } } }",
                 ["i": .object(["role": .string("CARER"), "displayName": .string("No email")])], ada, "BAD_USER_INPUT"),
            ]
            for (query, variables, person, code) in refusals {
                let response = try await h.graphQL(query, variables, token: person.token)
                #expect(response.errorCode == code, "\(query): \(response.json)")
            }
            // A mutation whose later field fails rolls back the rows its earlier fields wrote.
            let third = try await h.data(Self.resetRequest, "requestPasswordReset", ["id": nia], as: ada)["id"]
            let twice = try await h.graphQL(
                "mutation($id: ID!) { a: refusePasswordReset(requestId: $id) { id } b: refusePasswordReset(requestId: $id) { id } }",
                ["id": try #require(third)], token: bob.token)
            #expect(twice.errorCode == "BAD_USER_INPUT", "\(twice.json)")
            #expect(try await Self.count(h) == before + 1, "only the third request is recorded")
        }
    }

    @Test func assignmentsStartingAndEndingAreRecorded() async throws {
        try await withAccounts { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let wes = try await h.person(.socialWorker, "wes")
            let assignment = try #require(try await h.assign(sam, wes, .socialWorker, admin: ada)["id"])
            _ = try await h.data(CaseloadHTTP.endAssignment, "endAssignment", ["id": assignment], as: ada)
            for action in [AuditAction.assignmentStarted, .assignmentEnded] {
                let row = try await Self.only(action, h, as: ada)
                #expect(row["actorPersonId"] == ada.idValue && row["subjectPersonId"] == sam.idValue && row["subjectId"] == assignment)
            }
            // Ending it again is refused, and recorded nowhere.
            let before = try await Self.count(h)
            #expect(try await h.graphQL(CaseloadHTTP.endAssignment, ["id": assignment], token: ada.token).errorCode == "BAD_USER_INPUT")
            #expect(try await Self.count(h) == before)
        }
    }

    @Test func loginsAreRecordedAndAnUnknownNameIsNotKept() async throws {
        try await withAccounts { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let wes = try await h.person(.socialWorker, "wes")
            _ = try await h.data("mutation($id: ID!) { disablePerson(personId: $id) { id } }", "disablePerson", ["id": wes.idValue], as: ada)
            _ = try await h.logIn(sam)
            #expect(try await h.login(sam.loginName, "not sam's password").errorCode == "UNAUTHENTICATED")
            #expect(try await h.login(wes.loginName, wes.password).errorCode == "UNAUTHENTICATED", "switched off")
            let typed = "my-secret-password-in-the-wrong-box"
            #expect(try await h.login(typed, "anything").errorCode == "UNAUTHENTICATED")

            let succeeded = try await Self.events(h, ["action": .string("login.succeeded")], as: ada)
            #expect(succeeded.map { $0["subjectPersonId"] } == [sam.idValue] && succeeded.first?["actorPersonId"] == sam.idValue)
            let failed = try await Self.events(h, ["action": .string("login.failed")], as: ada)
            #expect(Set(failed.map { $0["subjectPersonId"] }) == [sam.idValue, wes.idValue, .null] && failed.count == 3, "\(failed)")
            #expect(failed.allSatisfy { $0["actorPersonId"] == .null && $0["requestId"]?.stringValue != nil })
            // The name typed for nobody is kept nowhere in the trail.
            let rows = try await h.owner.transaction(settings: AccountContext.tenantOperator(tenantID: h.tenant.id).settings) { tx in
                try await tx.query("select string_agg(row_to_json(a)::text, ' ') from audit_events a")[0].decode(String.self, at: 0)
            }
            #expect(!rows.contains(typed) && !rows.contains(sam.loginName))
        }
    }

    @Test func theRequestIdIsOnTheRowsItWrote() async throws {
        try await withAccounts { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let requestID = "support-ticket-42:req/\(UUID().uuidString.prefix(8))"
            let body = GraphQLValue.object([
                "query": .string("mutation($id: ID!) { requestPasswordReset(personId: $id, reason: \"Lost phone\") { id } }"),
                "variables": .object(["id": sam.idValue]),
            ]).json
            let headers: HTTPFields = [
                .contentType: "application/json", .authorization: "Bearer \(ada.token)", HTTPField.Name("X-Request-Id")!: requestID,
            ]
            try await h.client.execute(uri: "/t/\(h.tenant.slug)/graphql", method: .post, headers: headers, body: ByteBuffer(string: body)) {
                response in
                #expect(response.status == .ok && response.headers[HTTPField.Name("X-Request-Id")!] == requestID)
            }
            #expect(try await Self.only(.passwordResetRequested, h, as: ada)["requestId"] == .string(requestID))
            // One the server made: on the row too, and the same as answered.
            var answered: String?
            let login = GraphQLValue.object([
                "query": .string("mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }"),
                "variables": .object(["u": .string(sam.loginName), "p": .string(sam.password)]),
            ]).json
            try await h.client.execute(
                uri: "/t/\(h.tenant.slug)/graphql", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: login)
            ) { response in answered = response.headers[HTTPField.Name("X-Request-Id")!] }
            #expect(answered != nil)
            #expect(try await Self.only(.loginSucceeded, h, as: ada)["requestId"] == answered.map(GraphQLValue.string))
        }
    }

    @Test func tenantChangesAtTheCommandLineAreInTheTenantsOwnTrail() async throws {
        try await withAccounts { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let store = TenantStore(pool: h.owner)
            var file = h.tenant.file
            file.displayName = "Renamed agency"
            #expect(try await store.apply([file]) == [.updated(slug: h.tenant.slug, keys: ["displayName"])])
            #expect(try await store.apply([file]) == [.unchanged(slug: h.tenant.slug)])
            #expect(try await store.setEnabled(false, slug: h.tenant.slug))
            #expect(try await store.setEnabled(true, slug: h.tenant.slug))
            // A person added at the command line (`storykeep user create`).
            let added = try await h.owner.transaction(settings: AccountContext.tenantOperator(tenantID: h.tenant.id).settings) { tx in
                try await PeopleAdmin.createAsOperator(NewPerson(role: .youngPerson, displayName: "Cli", username: "cli-\(h.tenant.slug)"), in: tx)
            }
            let tenantID = GraphQLValue.string(h.tenant.id.uuidString.lowercased())
            for action in [AuditAction.tenantCreated, .tenantUpdated, .tenantDisabled, .tenantEnabled] {
                let row = try await Self.only(action, h, as: ada)
                #expect(row["subjectId"] == tenantID && row["actorPersonId"] == .null && row["requestId"] == .null, "\(action.rawValue)")
            }
            let person = try await Self.events(h, ["action": .string("person.created"), "subjectPersonId": added.person.idValue], as: ada)
            #expect(person.count == 1 && person.first?["actorPersonId"] == .null)
            // Another tenant's trail has none of this one's changes.
            let other = try await makeTenants(1)[0]
            #expect(try await h.owner.transaction(settings: AccountContext.tenantOperator(tenantID: other.id).settings) { tx in
                try await tx.query("select action from audit_events").map { try $0.decode(String.self, at: 0) }
            } == ["tenant.created"])
        }
    }
}

extension PersonRecord {
    /// The person's id as GraphQL sends it.
    fileprivate var idValue: GraphQLValue { .string(id.uuidString.lowercased()) }
}
