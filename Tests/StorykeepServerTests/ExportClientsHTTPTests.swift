import Foundation
import GraphQL
import HTTPTypes
import HummingbirdTesting
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 14, case-management clients: agency admins create, rotate and revoke them; a client gets
// a short-lived token with the OAuth 2.0 client credentials grant (RFC 6749 §4.4) and reaches the
// export fields, and nothing else, with it. Over HTTP with a real PostgreSQL.

@Suite("Export: case-management clients over HTTP")
struct ExportClientsHTTPTests {
    @Test func anAdminCreatesListsRotatesAndRevokesClients() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let created = try await h.data(ExportHTTP.createClient, "createCmsClient", ["n": .string("  Mosaic production ")], as: ada)
            let secret = try #require(created["clientSecret"]?.stringValue)
            #expect(secret.count == 43)
            #expect(created["client"]?["name"] == .string("Mosaic production"))
            #expect(created["client"]?["rotatedAt"] == .null && created["client"]?["revokedAt"] == .null)
            let cms = TestClient(id: try #require(created["client"]?.id), secret: secret)
            let second = try await h.cmsClient("Liquidlogic test", admin: ada)
            #expect(try await h.data(ExportHTTP.clients, "cmsClients", as: ada).listValue?.map { $0["name"] } == [
                .string("Mosaic production"), .string("Liquidlogic test"),
            ])

            // The secret is kept only as a hash.
            let stored = try await h.owner.transaction(settings: AccountContext.tenantOperator(tenantID: h.tenant.id).settings) { tx in
                try await tx.query("select secret_hash from cms_clients where id = $1", UUID(uuidString: cms.id)!)[0].decode([UInt8].self, at: 0)
            }
            #expect(stored == Crypto.sha256(secret.utf8) && stored != Array(secret.utf8))

            // Rotated: both secrets work for the grace period (24 hours by default), then the old one stops.
            let rotated = try await h.data(ExportHTTP.rotate, "rotateCmsClientSecret", ["id": .string(cms.id)], as: ada)
            let newSecret = try #require(rotated["clientSecret"]?.stringValue)
            #expect(newSecret != secret && rotated["client"]?["rotatedAt"] != .null)
            #expect(rotated["client"]?["previousSecretValidUntil"] != .null)
            #expect(try await h.tokenRequest(for: cms).status == .ok)
            #expect(try await h.tokenRequest(for: cms, secret: newSecret).status == .ok)
            h.clock.advance(seconds: 24 * 3600 + 1)
            #expect(try await h.tokenRequest(for: cms).status == .unauthorized)
            let fresh = try await h.tokenRequest(for: cms, secret: newSecret)
            #expect(fresh.status == .ok)
            let token = try #require(try fresh.json["access_token"]?.stringValue)
            #expect(try await h.data(ExportHTTP.clients, "cmsClients", as: ada).listValue?.first?["previousSecretValidUntil"] == .null)

            // Revoked: the secret and the token stop at once; revoking again changes nothing.
            let revoked = try await h.data(ExportHTTP.revoke, "revokeCmsClient", ["id": .string(cms.id)], as: ada)
            let revokedAt = try #require(revoked["revokedAt"]?.stringValue)
            #expect(try await h.tokenRequest(for: cms, secret: newSecret).status == .unauthorized)
            #expect(try await h.graphQL(ExportHTTP.whoAmI, token: token).errorCode == "UNAUTHENTICATED")
            #expect(try await h.data(ExportHTTP.revoke, "revokeCmsClient", ["id": .string(cms.id)], as: ada)["revokedAt"] == .string(revokedAt))
            let rotateRevoked = try await h.graphQL(ExportHTTP.rotate, ["id": .string(cms.id)], token: ada.token)
            #expect(rotateRevoked.errorCode == "NOT_FOUND")
            #expect(try await h.tokenRequest(for: second).status == .ok, "the other client goes on")
        }
    }

    @Test func onlyAdminsManageClientsAndBadInputIsRefused() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let wes = try await h.person(.socialWorker, "wes")
            let sam = try await h.person(.youngPerson, "sam")
            for person in [wes, sam] {
                #expect(try await h.graphQL(ExportHTTP.createClient, ["n": .string("Mosaic")], token: person.token).errorCode == "FORBIDDEN")
                #expect(try await h.graphQL(ExportHTTP.clients, token: person.token).errorCode == "FORBIDDEN")
            }
            #expect(try await h.graphQL(ExportHTTP.clients).errorCode == "UNAUTHENTICATED")
            for name in ["", "   ", String(repeating: "x", count: 201)] {
                let refused = try await h.graphQL(ExportHTTP.createClient, ["n": .string(name)], token: ada.token)
                #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorExtensions?["field"] == .string("name"))
            }
            for id in ["not-an-id", UUID().uuidString] {
                #expect(try await h.graphQL(ExportHTTP.rotate, ["id": .string(id)], token: ada.token).errorCode == "NOT_FOUND")
                #expect(try await h.graphQL(ExportHTTP.revoke, ["id": .string(id)], token: ada.token).errorCode == "NOT_FOUND")
            }
            #expect(try await h.data(ExportHTTP.clients, "cmsClients", as: ada) == .list([]), "nothing was made")
        }
    }

    @Test func aClientsTokenReachesTheExportFieldsOnlyAndAPersonsNever() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let cms = try await h.cmsClient("Mosaic", admin: ada)
            let response = try await h.tokenRequest(for: cms)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store" && response.headers[HTTPField.Name("Pragma")!] == "no-cache")
            #expect(response.contentType?.hasPrefix("application/json") == true)
            let body = try response.json
            #expect(body["token_type"] == .string("Bearer") && body["expires_in"] == .int(3600) && body["scope"] == .string("export"))
            let token = try #require(body["access_token"]?.stringValue)

            let whoAmI = try await h.graphQL(ExportHTTP.whoAmI, token: token)
            #expect(whoAmI["data"]?["export"]?["client"] == .object([
                "id": .string(cms.id), "name": .string("Mosaic"),
            ]), "\(whoAmI.json)")
            for query in ["{ me { id } }", ExportHTTP.clients, "{ entries(first: 1) { edges { cursor } } }", "{ myYoungPeople { youngPerson { id } } }"] {
                #expect(try await h.graphQL(query, token: token).errorCode == "FORBIDDEN", "\(query)")
            }
            #expect(try await h.graphQL(ExportHTTP.createClient, ["n": .string("Mine")], token: token).errorCode == "FORBIDDEN")
            #expect(try await h.graphQL("mutation { logout }", token: token).errorCode == "FORBIDDEN")
            #expect(try await h.graphQL("mutation { login(username: \"ada@x.example\", password: \"nope nope nope\") { token } }", token: token)
                .errorCode == "FORBIDDEN")
            for person in [ada, try await h.person(.socialWorker, "wes"), try await h.person(.youngPerson, "sam")] {
                #expect(try await h.graphQL(ExportHTTP.whoAmI, token: person.token).errorCode == "FORBIDDEN")
            }
            #expect(try await h.graphQL(ExportHTTP.whoAmI).errorCode == "UNAUTHENTICATED")

            // Short-lived: an hour by default.
            h.clock.advance(seconds: 3601)
            #expect(try await h.graphQL(ExportHTTP.whoAmI, token: token).errorCode == "UNAUTHENTICATED")
        }
    }

    @Test func tokenRequestsThatAreWrongGetTheErrorsOfRFC6749() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let cms = try await h.cmsClient("Mosaic", admin: ada)
            let basic = AccountsHarness.basic(cms.id, cms.secret)
            func expectError(_ response: TestResponse, _ status: HTTPResponse.Status, _ error: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
                #expect(response.status == status, sourceLocation: sourceLocation)
                #expect(try response.json["error"] == .string(error), "\(String(buffer: response.body))", sourceLocation: sourceLocation)
                #expect(response.headers[.cacheControl] == "no-store", sourceLocation: sourceLocation)
                if status == .unauthorized {
                    #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true, sourceLocation: sourceLocation)
                }
            }
            try expectError(try await h.tokenRequest("grant_type=client_credentials"), .unauthorized, "invalid_client")
            try expectError(try await h.tokenRequest(for: cms, secret: "wrong"), .unauthorized, "invalid_client")
            try expectError(try await h.tokenRequest(for: TestClient(id: UUID().uuidString, secret: cms.secret)), .unauthorized, "invalid_client")
            try expectError(try await h.tokenRequest(for: TestClient(id: "mosaic", secret: cms.secret)), .unauthorized, "invalid_client")
            try expectError(
                try await h.tokenRequest("grant_type=client_credentials", headers: [.authorization: "Basic %%%"]), .unauthorized, "invalid_client")
            try expectError(try await h.tokenRequest("", headers: [.authorization: basic]), .badRequest, "invalid_request")
            try expectError(try await h.tokenRequest("grant_type=password&username=a&password=b", headers: [.authorization: basic]),
                .badRequest, "unsupported_grant_type")
            try expectError(
                try await h.tokenRequest("grant_type=client_credentials&grant_type=client_credentials", headers: [.authorization: basic]),
                .badRequest, "invalid_request")
            try expectError(
                try await h.tokenRequest("grant_type=client_credentials", headers: [.authorization: basic, .contentType: "application/json"]),
                .badRequest, "invalid_request")
            try expectError(
                try await h.tokenRequest(
                    formQuery([("grant_type", "client_credentials"), ("client_id", cms.id), ("client_secret", cms.secret)]),
                    headers: [.authorization: basic]),
                .badRequest, "invalid_request")
            try expectError(try await h.tokenRequest("grant_type=client_credentials&scope=admin", headers: [.authorization: basic]),
                .badRequest, "invalid_scope")

            // Both ways of authenticating a client work, and the one scope there is may be named.
            #expect(try await h.tokenRequest("grant_type=client_credentials&scope=export", headers: [.authorization: basic]).status == .ok)
            let posted = try await h.tokenRequest(formQuery([("grant_type", "client_credentials"), ("client_id", cms.id), ("client_secret", cms.secret)]))
            #expect(posted.status == .ok)
        }
    }

    @Test func repeatedWrongSecretsAreSlowedDownAsLoginsAre() async throws {
        try await withAccounts(tweak: ExportHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let cms = try await h.cmsClient("Mosaic", admin: ada)
            // The tenant's lockout: two free failures, then 2, 4, 8 ... seconds.
            for _ in 0..<3 { #expect(try await h.tokenRequest(for: cms, secret: "guess").status == .unauthorized) }
            let locked = try await h.tokenRequest(for: cms)
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "2")
            #expect(try locked.json["error"] == .string("invalid_client"))
            h.clock.advance(seconds: 2)
            #expect(try await h.tokenRequest(for: cms).status == .ok, "the right secret after the wait")
            // The count started again.
            for _ in 0..<2 { #expect(try await h.tokenRequest(for: cms, secret: "guess").status == .unauthorized) }
            #expect(try await h.tokenRequest(for: cms).status == .ok)
        }
    }

    @Test func aClientAndItsTokensBelongToOneAgency() async throws {
        try await withAccounts(tenants: 2, tweak: ExportHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let cms = try await h.cmsClient("Mosaic", admin: ada)
            let other = h.tenants[1]
            #expect(try await h.tokenRequest(for: cms, tenant: other).status == .unauthorized)
            let token = try await h.clientToken(cms)
            #expect(try await h.graphQL(ExportHTTP.whoAmI, token: token, tenant: other).errorCode == "UNAUTHENTICATED")
            let ben = try await h.person(.agencyAdmin, "ben", tenant: other)
            #expect(try await h.graphQL(ExportHTTP.revoke, ["id": .string(cms.id)], token: ben.token, tenant: other).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(ExportHTTP.clients, token: ben.token, tenant: other)["data"]?["cmsClients"] == .list([]))
        }
    }
}
