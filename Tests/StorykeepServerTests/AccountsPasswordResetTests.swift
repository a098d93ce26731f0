import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 16, item 2, over HTTP: an agency admin alone cannot become someone who has a password. A
// reset takes a request and a second member of staff's approval; the approver gets the code; the
// person is told in `me`; every step is kept.

private enum Reset {
    static let request = """
        mutation($id: ID!, $r: String!) { requestPasswordReset(personId: $id, reason: $r) {
          id state reason requestedBy requestedAt expiresAt person { id } } }
        """
    static let approve = """
        mutation($id: ID!) { approvePasswordReset(requestId: $id) {
          activationCode activationCodeExpiresAt person { id } passwordReset { id state requestedBy decidedBy decidedAt } } }
        """
    static let refuse = "mutation($id: ID!, $n: String) { refusePasswordReset(requestId: $id, note: $n) { id state decidedBy note } }"
    static let issue = "mutation($id: ID!) { issueActivationCode(personId: $id) { activationCode } }"
    static let list = """
        query($p: ID, $s: PasswordResetState) { passwordResetRequests(personId: $p, state: $s) {
          id state requestedBy decidedBy completedAt } }
        """
    static let notices = "{ me { activatedAt passwordResets { requestedBy requestedAt approvedBy approvedAt completedAt } } }"
}

extension AccountsHarness {
    /// A young person the operator added, who has set their password: them, and their token.
    func activeYoungPerson(_ username: String, email: String? = nil) async throws -> (PersonRecord, String) {
        let issued = try await createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: username, email: email))
        return (issued.person, try await activate(issued.code.displayText, password: "my own password"))
    }

    /// `requestPasswordReset` for `person` with `token`: the request's id (the test fails without one).
    func requestReset(of person: PersonRecord, token: String, reason: String = "Sam phoned: he forgot it") async throws -> String {
        let response = try await graphQL(Reset.request, ["id": .string(person.id.uuidString), "r": .string(reason)], token: token)
        return try #require(response["data"]?["requestPasswordReset"]?["id"]?.stringValue, "\(response.json)")
    }

    func approveReset(_ requestID: String, token: String) async throws -> GraphQLValue {
        try await graphQL(Reset.approve, ["id": .string(requestID)], token: token)
    }

    /// The states of `person`'s requests, newest first, as an admin with `token` lists them.
    func resetStates(of person: PersonRecord, token: String) async throws -> [String] {
        let response = try await graphQL(Reset.list, ["p": .string(person.id.uuidString)], token: token)
        return try #require(response["data"]?["passwordResetRequests"]?.listValue, "\(response.json)").compactMap { $0["state"]?.stringValue }
    }

    /// How many codes for `person` could still be used, as the tenant's operator counts them.
    func liveCodes(of person: PersonRecord) async throws -> Int {
        try await app.transaction(settings: AccountContext.tenantOperator(tenantID: tenant.id).settings) { tx in
            try await tx.query(
                "select count(*) from activation_codes where person_id = $1 and used_at is null and expires_at > now()", person.id
            )[0].decode(Int.self, at: 0)
        }
    }
}

@Suite("Accounts over HTTP: password resets take two members of staff")
struct AccountsPasswordResetTests {
    @Test func aLoneAdminCannotObtainAUsableCodeForAnActiveYoungPerson() async throws {
        try await withAccounts { h in
            let ada = try await h.admin()
            let email = "sam.alone@\(h.tenant.slug).example"
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-alone", email: email))
            let samToken = try await h.activate(issued.code.displayText, password: "my own password")
            let sam = issued.person
            let samID = GraphQLValue.string(sam.id.uuidString)

            // issueActivationCode: no code for someone who has a password.
            let reissued = try await h.graphQL(Reset.issue, ["id": samID], token: ada)
            #expect(reissued.errorCode == "BAD_USER_INPUT", "\(reissued.json)")
            #expect(reissued.errorExtensions?["field"] == .string("personId"))
            #expect(reissued["data"] == .null)
            // createPerson with Sam's username or email, in any case, makes nobody.
            let create = "mutation($i: CreatePersonInput!) { createPerson(input: $i) { activationCode } }"
            for (key, value) in [("username", "SAM-ALONE"), ("email", email.uppercased())] {
                let input: GraphQLObject = ["role": .string("YOUNG_PERSON"), "displayName": .string("Sam"), key: .string(value)]
                let twin = try await h.graphQL(create, ["i": .object(input)], token: ada)
                #expect(twin.errorCode == "BAD_USER_INPUT", "\(key): \(twin.json)")
                #expect(twin["data"] == .null)
            }
            // Nor can she add a second admin to approve with.
            let sock = try await h.graphQL(
                create, ["i": .object(["role": .string("AGENCY_ADMIN"), "displayName": .string("Sock"), "email": .string("sock@example.org")])],
                token: ada)
            #expect(sock.errorCode == "FORBIDDEN", "\(sock.json)")

            // Asking gives no code: the request has none to select.
            let codeless = try await h.graphQL(
                "mutation($id: ID!) { requestPasswordReset(personId: $id, reason: \"x\") { activationCode } }", ["id": samID], token: ada)
            #expect(codeless["data"] == nil && codeless.errorMessage != nil, "\(codeless.json)")
            let first = try await h.requestReset(of: sam, token: ada)
            // She cannot approve her own request...
            let own = try await h.approveReset(first, token: ada)
            #expect(own.errorCode == "FORBIDDEN", "\(own.json)")
            #expect(own["data"] == .null)
            // Nor through a social worker she adds, activates herself and assigns to Sam: an
            // assigned social worker does not decide resets.
            let worker = try await h.graphQL(
                create, ["i": .object(["role": .string("SOCIAL_WORKER"), "displayName": .string("Puppet"), "email": .string("puppet@example.org")])],
                token: ada)
            let workerCode = try #require(worker["data"]?["createPerson"]?["activationCode"]?.stringValue, "\(worker.json)")
            let workerToken = try await h.activate(workerCode, password: "a puppet's password")
            let workerID = try #require(
                try await h.graphQL("{ me { id } }", token: workerToken)["data"]?["me"]?["id"], "the worker's id")
            let assigned = try await h.graphQL(
                "mutation($y: ID!, $a: ID!) { assignAdult(youngPersonId: $y, adultId: $a, relationship: SOCIAL_WORKER) { id } }",
                ["y": samID, "a": workerID], token: ada)
            #expect(assigned["data"]?["assignAdult"]?["id"] != nil, "\(assigned.json)")
            let byWorker = try await h.approveReset(first, token: workerToken)
            #expect(byWorker.errorCode == "FORBIDDEN", "\(byWorker.json)")
            #expect(try await h.graphQL(Reset.list, ["p": samID], token: workerToken).errorCode == "FORBIDDEN")
            // ...nor one she refused, nor approve with issueActivationCode after asking.
            let second = try await h.requestReset(of: sam, token: ada)
            let refused = try await h.graphQL(Reset.refuse, ["id": .string(second), "n": .string("asked twice")], token: ada)
            #expect(refused["data"]?["refusePasswordReset"]?["state"] == .string("REFUSED"), "\(refused.json)")
            #expect(try await h.approveReset(second, token: ada).errorCode == "BAD_USER_INPUT")
            #expect(try await h.graphQL(Reset.issue, ["id": samID], token: ada).errorCode == "BAD_USER_INPUT")
            // The code Sam was given when he was added is spent.
            let spent = try await h.graphQL(
                "mutation($c: String!) { activateAccount(code: $c, password: \"the admin's choice\") { token } }",
                ["c": .string(issued.code.displayText)])
            #expect(spent.errorExtensions?["field"] == .string("code"))

            // So no code for Sam can be used, both requests are on record, and Sam is untouched.
            #expect(try await h.liveCodes(of: sam) == 0)
            #expect(try await h.resetStates(of: sam, token: ada) == ["REFUSED", "PENDING"])
            #expect(try await h.graphQL("{ me { id } }", token: samToken)["data"]?["me"]?["id"] == .string(sam.id.uuidString.lowercased()))
            #expect(try await h.login("sam-alone", "my own password")["data"]?["login"]?["token"]?.stringValue != nil)
        }
    }

    @Test func anOnboardingCodeIssuedAsThePersonActivatesOpensNothing() async throws {
        try await withAccounts { h in
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-race"))
            // An admin's issueActivationCode passes its checks while Sam has no password yet, and
            // Sam activates with his first code before it commits. (His activation waits for that
            // commit to touch his row of `people`, which the new code's foreign key holds.)
            let late = try ActivationCode.generate()
            let activation = try await h.app.transaction(settings: AccountContext.tenantOperator(tenantID: h.tenant.id).settings) { tx in
                _ = try await tx.execute(
                    """
                    insert into activation_codes (tenant_id, person_id, code_hash, expires_at)
                    values (current_tenant_id(), $1, $2, now() + interval '1 day')
                    """, issued.person.id, late.storageHash)
                return Task { try await h.activate(issued.code.displayText, password: "my own password") }
            }
            _ = try await activation.value
            // The late code is live in the table, but for someone who has a password now it opens nothing.
            #expect(try await h.liveCodes(of: issued.person) == 1)
            let refused = try await h.graphQL(
                "mutation($c: String!) { activateAccount(code: $c, password: \"the admin's choice\") { token } }",
                ["c": .string(late.displayText)])
            #expect(refused.errorCode == "BAD_USER_INPUT", "\(refused.json)")
            #expect(refused.errorExtensions?["field"] == .string("code"))
            #expect(try await h.login("sam-race", "the admin's choice").errorCode == "UNAUTHENTICATED")
            #expect(try await h.login("sam-race", "my own password")["data"]?["login"]?["token"]?.stringValue != nil)
        }
    }

    @Test func twoAdminsResetAPasswordAndThePersonIsToldAtTheirNextLogin() async throws {
        try await withAccounts { h in
            let (ada, bea) = (try await h.admin(), try await h.admin("Bea"))
            let (sam, oldSession) = try await h.activeYoungPerson("sam-reset")
            var me = try await h.graphQL(Reset.notices, token: oldSession)
            #expect(me["data"]?["me"]?["passwordResets"] == .list([]), "\(me.json)")
            #expect(me["data"]?["me"]?["activatedAt"]?.stringValue != nil)

            let requestID = try await h.requestReset(of: sam, token: ada)
            let approved = try await h.approveReset(requestID, token: bea)
            let payload = try #require(approved["data"]?["approvePasswordReset"], "\(approved.json)")
            let code = try #require(payload["activationCode"]?.stringValue)
            #expect(payload["person"]?["id"] == .string(sam.id.uuidString.lowercased()))
            #expect(payload["passwordReset"]?["state"] == .string("APPROVED"))
            #expect(payload["passwordReset"]?["requestedBy"] == .string("Ada"))
            #expect(payload["passwordReset"]?["decidedBy"] == .string("Bea"))
            // Nothing has changed for Sam yet: the code is his to use.
            #expect(try await h.graphQL("{ me { id } }", token: oldSession)["data"]?["me"] != .null)
            // It is decided: approving again, or refusing now, is refused.
            #expect(try await h.approveReset(requestID, token: try await h.admin("Cy")).errorExtensions?["field"] == .string("requestId"))
            #expect(try await h.graphQL(Reset.refuse, ["id": .string(requestID)], token: ada).errorCode == "BAD_USER_INPUT")

            // Sam sets a new password with the code: his old session ends, and so does the old password.
            _ = try await h.activate(code, password: "a brand new password")
            #expect(try await h.graphQL("{ me { id } }", token: oldSession).errorCode == "UNAUTHENTICATED")
            #expect(try await h.login("sam-reset", "my own password").errorCode == "UNAUTHENTICATED")
            let login = try await h.login("sam-reset", "a brand new password")
            let token = try #require(login["data"]?["login"]?["token"]?.stringValue, "\(login.json)")
            // At his next login `me` tells him who asked, who approved, and when.
            me = try await h.graphQL(Reset.notices, token: token)
            let notices = try #require(me["data"]?["me"]?["passwordResets"]?.listValue, "\(me.json)")
            #expect(notices.count == 1)
            #expect(notices.first?["requestedBy"] == .string("Ada"))
            #expect(notices.first?["approvedBy"] == .string("Bea"))
            for key in ["requestedAt", "approvedAt", "completedAt"] {
                #expect(notices.first?[key]?.stringValue?.hasSuffix("Z") == true, "\(key)")
            }
            // The staff see it completed; the code is spent; the notice is Sam's alone.
            #expect(try await h.resetStates(of: sam, token: bea) == ["COMPLETED"])
            let again = try await h.graphQL(
                "mutation($c: String!) { activateAccount(code: $c, password: \"another password\") { token } }", ["c": .string(code)])
            #expect(again.errorExtensions?["field"] == .string("code"))
            let people = try await h.graphQL("{ people(role: YOUNG_PERSON) { edges { node { passwordResets { approvedBy } } } } }", token: ada)
            #expect(people["data"]?["people"]?["edges"]?.listValue?.first?["node"]?["passwordResets"] == .null, "\(people.json)")
            #expect(try await h.graphQL(Reset.notices, token: ada)["data"]?["me"]?["passwordResets"] == .list([]))
        }
    }

    @Test func aRequestIsApprovedByNeitherTheRequesterNorThePersonConcerned() async throws {
        try await withAccounts { h in
            let (ada, bea, cy) = (try await h.admin(), try await h.admin("Bea"), try await h.admin("Cy"))
            let adaRecord = try #require(
                try await h.graphQL("{ me { id } }", token: ada)["data"]?["me"]?["id"]?.stringValue.flatMap(UUID.init(uuidString:)))
            // Not for one's own password...
            let ownRequest = try await h.graphQL(
                Reset.request, ["id": .string(adaRecord.uuidString), "r": .string("I forgot")], token: ada)
            #expect(ownRequest.errorExtensions?["field"] == .string("personId"), "\(ownRequest.json)")
            // ...and when Bea asks for Ada's, neither Bea nor Ada approves it; Cy does.
            let asked = try await h.graphQL(
                Reset.request, ["id": .string(adaRecord.uuidString), "r": .string("Ada is locked out")], token: bea)
            let requestID = try #require(asked["data"]?["requestPasswordReset"]?["id"]?.stringValue, "\(asked.json)")
            for token in [bea, ada] {
                let refused = try await h.approveReset(requestID, token: token)
                #expect(refused.errorCode == "FORBIDDEN", "\(refused.json)")
            }
            let approved = try await h.approveReset(requestID, token: cy)
            #expect(approved["data"]?["approvePasswordReset"]?["passwordReset"]?["decidedBy"] == .string("Cy"), "\(approved.json)")
        }
    }

    @Test func unknownExpiredOrDecidedRequestsAndBadInputAreRefused() async throws {
        try await withAccounts(tenants: 2) { h in
            let (ada, bea) = (try await h.admin(), try await h.admin("Bea"))
            let (sam, _) = try await h.activeYoungPerson("sam-refused")
            // Request ids: not one, nobody's, another tenant's.
            let malformed = try await h.approveReset("not-an-id", token: bea)
            #expect(malformed.errorCode == "BAD_USER_INPUT")
            #expect(malformed.errorExtensions?["field"] == .string("requestId"))
            #expect(try await h.approveReset(UUID().uuidString, token: bea).errorCode == "NOT_FOUND")
            let requestID = try await h.requestReset(of: sam, token: ada)
            let elsewhere = try await h.admin("Dee", tenant: h.tenants[1])
            let foreign = try await h.graphQL(Reset.approve, ["id": .string(requestID)], token: elsewhere, tenant: h.tenants[1])
            #expect(foreign.errorCode == "NOT_FOUND", "\(foreign.json)")
            let foreignList = try await h.graphQL(Reset.list, token: elsewhere, tenant: h.tenants[1])
            #expect(foreignList["data"]?["passwordResetRequests"] == .list([]))

            // Undecided past its 72 hours, it expires: neither approved nor refused any more.
            try await h.owner.transaction(settings: AccountContext.tenantOperator(tenantID: h.tenant.id).settings) { tx in
                _ = try await tx.execute(
                    """
                    update password_reset_requests set requested_at = requested_at - interval '73 hours', expires_at = expires_at - interval '73 hours'
                    where id = $1
                    """, UUID(uuidString: requestID))
            }
            for response in [try await h.approveReset(requestID, token: bea), try await h.graphQL(Reset.refuse, ["id": .string(requestID)], token: bea)] {
                #expect(response.errorCode == "BAD_USER_INPUT", "\(response.json)")
                #expect(response.errorExtensions?["field"] == .string("requestId"))
            }
            #expect(try await h.resetStates(of: sam, token: ada) == ["EXPIRED"])
            #expect(try await h.liveCodes(of: sam) == 0)

            // Asking needs a person who has a password, and a reason.
            let newcomer = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "New", username: "sam-new"))
            for (id, reason, field) in [
                (UUID().uuidString, "why", "personId"), ("nobody", "why", "personId"), (newcomer.person.id.uuidString, "why", "personId"),
                (sam.id.uuidString, "  ", "reason"), (sam.id.uuidString, String(repeating: "x", count: 501), "reason"),
            ] {
                let refused = try await h.graphQL(Reset.request, ["id": .string(id), "r": .string(reason)], token: ada)
                #expect(refused.errorCode == "BAD_USER_INPUT", "\(id) \(reason.prefix(5)): \(refused.json)")
                #expect(refused.errorExtensions?["field"] == .string(field))
            }
            // The newcomer gets an onboarding code instead.
            let onboarding = try await h.graphQL(Reset.issue, ["id": .string(newcomer.person.id.uuidString)], token: ada)
            #expect(onboarding["data"]?["issueActivationCode"]?["activationCode"]?.stringValue != nil, "\(onboarding.json)")
            let tooMany = try await h.graphQL("{ passwordResetRequests(first: 0) { id } }", token: ada)
            #expect(tooMany.errorExtensions?["field"] == .string("first"))
            #expect(try await h.resetStates(of: sam, token: ada) == ["EXPIRED"])
        }
    }

    @Test func aFailedResetMutationChangesNothing() async throws {
        try await withAccounts { h in
            let (ada, bea) = (try await h.admin(), try await h.admin("Bea"))
            let (sam, _) = try await h.activeYoungPerson("sam-undone")
            let requestID = try await h.requestReset(of: sam, token: ada)
            // The approval runs, then the refusal of a request that does not exist fails: the whole
            // request is undone, and no code is shown.
            let undone = try await h.graphQL(
                """
                mutation($id: ID!) {
                  a: approvePasswordReset(requestId: $id) { activationCode }
                  b: refusePasswordReset(requestId: "00000000-0000-0000-0000-000000000000") { id }
                }
                """, ["id": .string(requestID)], token: bea)
            #expect(undone.errorCode == "NOT_FOUND", "\(undone.json)")
            #expect(undone["data"] == .null)
            #expect(try await h.resetStates(of: sam, token: ada) == ["PENDING"])
            #expect(try await h.liveCodes(of: sam) == 0)
            // Two requests, the second without a reason: neither is recorded.
            let twice = try await h.graphQL(
                """
                mutation($id: ID!) {
                  a: requestPasswordReset(personId: $id, reason: "first") { id }
                  b: requestPasswordReset(personId: $id, reason: "") { id }
                }
                """, ["id": .string(sam.id.uuidString)], token: ada)
            #expect(twice.errorExtensions?["field"] == .string("reason"), "\(twice.json)")
            #expect(try await h.resetStates(of: sam, token: ada) == ["PENDING"])
            // The request is still there to approve.
            #expect(try await h.approveReset(requestID, token: bea)["data"]?["approvePasswordReset"]?["activationCode"] != nil)
        }
    }
}
