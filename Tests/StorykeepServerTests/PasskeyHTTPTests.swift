import Foundation
import GraphQL
import Logging
import Storykeep
import StorykeepTenancy
import StorykeepAccounts
import StorykeepCore
import StorykeepTestSupport
import Testing

/// Issue 21: passkeys, end to end, with a software authenticator over real HTTP: registering and
/// logging in, and every refusal the issue lists.
@Suite struct PasskeyHTTPTests {
    typealias Authenticator = SoftAuthenticator

    @Test func aYoungPersonRegistersAPasskeyAndLogsInWithItWithoutAUsername() async throws {
        try await withAccounts(setup: .live, tweak: Authenticator.allowOrigin) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let options = try #require(try await h.data(Authenticator.beginRegistration, "beginPasskeyRegistration", as: sam).parsedJSON)
            #expect((options["rp"] as? [String: Any])?["id"] as? String == "localhost")
            #expect((options["authenticatorSelection"] as? [String: Any])?["userVerification"] as? String == "required")
            #expect((options["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int } == [-7, -257])
            let user = try #require(options["user"] as? [String: Any])
            let handle = try #require(user["id"] as? String)
            #expect(!handle.contains("sam") && Crypto.bytes(base64URL: handle)?.count == 32)

            let phone = Authenticator()
            let passkey = try await phone.register(h, sam, name: "My phone")
            #expect(passkey["name"]?.stringValue == "My phone" && passkey["lastUsedAt"] == .null)

            let login = try await phone.logIn(h)
            #expect(login["errors"] == nil, "\(login.json)")
            #expect(login["data"]?["finishPasskeyLogin"]?["person"]?["id"] == sam.idValue)
            let token = try #require(login["data"]?["finishPasskeyLogin"]?["token"]?.stringValue)
            let me = try await h.graphQL("{ me { id } passkeys { id name lastUsedAt } }", token: token)
            #expect(me["data"]?["me"]?["id"] == sam.idValue)
            #expect(me["data"]?["passkeys"]?.listValue?.first?["lastUsedAt"] != .null)
            #expect(try await h.auditActions(about: sam).suffix(2) == ["passkey.registered", "login.succeeded"])

            // A second passkey excludes the first and has the same opaque handle as it.
            let again = try #require(try await h.data(Authenticator.beginRegistration, "beginPasskeyRegistration", as: sam).parsedJSON)
            let state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: phone.state)) as? [String: Any])
            #expect((again["user"] as? [String: Any])?["id"] as? String == state["userHandle"] as? String)
            #expect((again["excludeCredentials"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [try #require(state["credentialId"] as? String)])
        }
    }

    @Test func packedAttestationSelfOrCertifiedAndRS256KeysWork() async throws {
        try await withAccounts(setup: .live, tweak: Authenticator.allowOrigin) { h in
            let wes = try await h.person(.socialWorker, "wes")
            let laptop = Authenticator()
            try await laptop.register(h, wes, ["--alg", "rs256", "--fmt", "packed"])
            let securityKey = Authenticator()
            try await securityKey.register(h, wes, ["--fmt", "packed"])
            let certified = Authenticator()
            try await certified.register(h, wes, ["--fmt", "packed-x5c"])
            for authenticator in [laptop, securityKey, certified] {
                let login = try await authenticator.logIn(h)
                #expect(login["data"]?["finishPasskeyLogin"]?["person"]?["id"] == wes.idValue, "\(login.json)")
            }
            // With the username, the options list both.
            let options = try #require(GraphQLValue.string(try await Authenticator.loginOptions(h, username: wes.loginName)).parsedJSON)
            #expect((options["allowCredentials"] as? [[String: Any]])?.count == 3)
        }
    }

    @Test func registrationRefusesWrongOriginRelyingPartyUnverifiedUserAndSpentOrForeignChallenges() async throws {
        try await withAccounts(setup: .live, tweak: Authenticator.allowOrigin) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let alex = try await h.person(.youngPerson, "alex")
            let phone = Authenticator()
            func finish(_ credential: String, as person: TestPerson) async throws -> GraphQLValue {
                try await h.graphQL(Authenticator.finishRegistration, ["c": .string(credential)], token: person.token)
            }
            let refusals: [(String, [String], String)] = [
                ("wrong origin", [], "https://evil.example"), ("wrong relying party", ["--rp-id", "evil.example"], Authenticator.origin),
                ("user not verified", ["--no-uv"], Authenticator.origin), ("a login's type", ["--type", "webauthn.get"], Authenticator.origin),
                ("a forged attestation", ["--fmt", "forged"], Authenticator.origin),
            ]
            for (what, flags, origin) in refusals {
                let response = try await finish(try await phone.create(h, as: sam, flags, origin: origin), as: sam)
                #expect(response.errorCode == "BAD_USER_INPUT" && response.errorExtensions?["field"]?.stringValue == "credential", "\(what): \(response.json)")
            }
            // Another person's challenge.
            let foreign = try await finish(try await phone.create(h, as: alex), as: sam)
            #expect(foreign.errorCode == "BAD_USER_INPUT", "\(foreign.json)")
            // Expired: five minutes.
            let late = try await phone.create(h, as: sam)
            h.clock.advance(seconds: 301)
            #expect(try await finish(late, as: sam).errorCode == "BAD_USER_INPUT")
            // Replayed: the challenge was spent by the first answer.
            let credential = try await phone.create(h, as: sam)
            #expect(try await finish(credential, as: sam)["errors"] == nil)
            #expect(try await finish(credential, as: sam).errorCode == "BAD_USER_INPUT")
            #expect(try await h.data("{ passkeys { id } }", "passkeys", as: sam).listValue?.count == 1)
            #expect(try await h.data("{ passkeys { id } }", "passkeys", as: alex).listValue?.isEmpty == true)
            // Not a credential at all.
            let garbage = try await finish("{\"id\": 1}", as: sam)
            #expect(garbage.errorCode == "BAD_USER_INPUT" && garbage.errorExtensions?["field"]?.stringValue == "credential")
        }
    }

    @Test func loginRefusesEachWrongPartWithOneAnswerAndCountsTheFailures() async throws {
        try await withAccounts(setup: .live, tweak: { index, file in
            Authenticator.allowOrigin(index, &file)
            file.lockout = LockoutPolicy(freeAttempts: 20, maxBackoffSeconds: 900)
        }) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let phone = Authenticator()
            try await phone.register(h, sam)
            func expectRefused(_ response: GraphQLValue, _ what: String) {
                #expect(response.errorCode == "UNAUTHENTICATED", "\(what): \(response.json)")
                #expect(response.errorMessage == "That passkey did not work. Please try again, or log in with your password.", "\(what)")
            }
            expectRefused(try await phone.logIn(h, origin: "https://evil.example"), "wrong origin")
            expectRefused(try await phone.logIn(h, ["--rp-id", "evil.example"]), "wrong relying party id")
            expectRefused(try await phone.logIn(h, ["--no-uv"]), "user not verified")
            expectRefused(try await phone.logIn(h, ["--type", "webauthn.create"]), "a registration's type")

            // Expired.
            let options = try await Authenticator.loginOptions(h)
            h.clock.advance(seconds: 301)
            expectRefused(try await Authenticator.finish(h, try await phone.assertion(options)), "expired challenge")

            // Replayed: right the first time, refused the second.
            let assertion = try await phone.assertion(try await Authenticator.loginOptions(h))
            #expect(try await Authenticator.finish(h, assertion)["errors"] == nil)
            expectRefused(try await Authenticator.finish(h, assertion), "replayed challenge")

            // Each refusal counted on Sam, as wrong passwords are.
            let failures = try await h.auditActions(about: sam).filter { $0 == "login.failed" }.count
            #expect(failures == 6)
        }
    }

    @Test func passkeyFailuresCountTowardTheLockoutOfThePassword() async throws {
        try await withAccounts(setup: .live, tweak: Authenticator.allowOrigin) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let phone = Authenticator()
            try await phone.register(h, sam)
            #expect(try await phone.logIn(h, ["--no-uv"]).errorExtensions?["retryAfterSeconds"] == nil)
            #expect(try await phone.logIn(h, ["--no-uv"]).errorExtensions?["retryAfterSeconds"] == nil)
            let third = try await phone.logIn(h, ["--no-uv"])
            #expect(third.errorCode == "UNAUTHENTICATED" && third.errorExtensions?["retryAfterSeconds"] == .int(2), "\(third.json)")
            #expect(try await phone.logIn(h).errorCode == "LOCKED_OUT")
            #expect(try await h.login(sam.loginName, sam.password).errorCode == "LOCKED_OUT")
            h.clock.advance(seconds: 3)
            #expect(try await phone.logIn(h)["errors"] == nil)
        }
    }

    @Test func aCounterThatGoesBackIsACloneRefusedAndRecorded() async throws {
        try await withAccounts(setup: .live, tweak: Authenticator.allowOrigin) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let phone = Authenticator()
            try await phone.register(h, sam)
            #expect(try await phone.logIn(h, ["--counter", "5"])["errors"] == nil)
            let clone = try await phone.logIn(h, ["--counter", "3"])
            #expect(clone.errorCode == "UNAUTHENTICATED", "\(clone.json)")
            #expect(try await phone.logIn(h, ["--counter", "5"]).errorCode == "UNAUTHENTICATED")
            #expect(try await h.auditActions(about: sam).filter { $0 == "passkey.cloned" }.count == 2)
            #expect(try await phone.logIn(h, ["--counter", "6"])["errors"] == nil)
        }
    }

    @Test func anotherTenantsChallengeAndAnotherPersonsCredentialAreRefused() async throws {
        try await withAccounts(tenants: 2, setup: .live, tweak: Authenticator.allowOrigin) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let wes = try await h.person(.socialWorker, "wes")
            let samsPhone = Authenticator()
            try await samsPhone.register(h, sam)
            let wesPhone = Authenticator()
            try await wesPhone.register(h, wes)

            // A challenge of the second tenant, answered in the first.
            let elsewhere = try await Authenticator.loginOptions(h, tenant: h.tenants[1])
            let foreign = try await Authenticator.finish(h, try await samsPhone.assertion(elsewhere))
            #expect(foreign.errorCode == "UNAUTHENTICATED", "\(foreign.json)")
            // Sam's own credential sent to the second tenant: nobody's there.
            let ownChallenge = try await Authenticator.loginOptions(h, tenant: h.tenants[1])
            #expect(try await Authenticator.finish(h, try await samsPhone.assertion(ownChallenge), tenant: h.tenants[1]).errorCode == "UNAUTHENTICATED")

            // Sam's credential claiming Wes's user handle.
            let state = try JSONSerialization.jsonObject(with: Data(contentsOf: samsPhone.state)) as! [String: Any]
            let wesState = try JSONSerialization.jsonObject(with: Data(contentsOf: wesPhone.state)) as! [String: Any]
            var forged = state
            forged["userHandle"] = wesState["userHandle"]
            try JSONSerialization.data(withJSONObject: forged).write(to: samsPhone.state)
            #expect(try await samsPhone.logIn(h).errorCode == "UNAUTHENTICATED")
        }
    }

    @Test func aUsernameThatIsNobodysGetsOptionsOfTheSameShape() async throws {
        try await withAccounts(setup: .live, tweak: Authenticator.allowOrigin) { h in
            let sam = try await h.person(.youngPerson, "sam")
            try await Authenticator().register(h, sam)
            let real = try #require(GraphQLValue.string(try await Authenticator.loginOptions(h, username: sam.loginName)).parsedJSON)
            let unknown = try #require(GraphQLValue.string(try await Authenticator.loginOptions(h, username: "nobody-here")).parsedJSON)
            let again = try #require(GraphQLValue.string(try await Authenticator.loginOptions(h, username: "Nobody-Here ")).parsedJSON)
            #expect(Set(real.keys) == Set(unknown.keys))
            let ids = { (options: [String: Any]) in (options["allowCredentials"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? [] }
            #expect(ids(real).count == 1 && ids(unknown).count == 1)
            #expect(ids(unknown) == ids(again), "a name's decoy is the same each time, as a real credential is")
            #expect(ids(unknown) != ids(real) && real["challenge"] as? String != unknown["challenge"] as? String)
        }
    }

    @Test func adultsMayBeAskedForTheirPasswordAndThenAPasskey() async throws {
        try await withAccounts(setup: .live, tweak: { index, file in
            Authenticator.allowOrigin(index, &file)
            file.accounts = AccountsPolicy(adultsRequirePasskey: true)
        }) { h in
            let wes = try await h.person(.socialWorker, "wes")
            let cara = try await h.person(.carer, "cara")
            let sam = try await h.person(.youngPerson, "sam")
            // No passkey yet: the password alone, to register one.
            #expect(try await h.login(wes.loginName, wes.password)["data"]?["login"]?["token"]?.stringValue != nil)
            let wesPhone = Authenticator()
            try await wesPhone.register(h, wes)
            let caraPhone = Authenticator()
            try await caraPhone.register(h, cara)
            let samsPhone = Authenticator()
            try await samsPhone.register(h, sam)

            let pending = try await h.login(wes.loginName, wes.password)
            #expect(pending.errorCode == "PASSKEY_REQUIRED" && pending["data"]?["login"] == nil, "\(pending.json)")
            let options = try #require(pending.errorExtensions?["passkeyOptions"]?.stringValue)
            // Another adult's passkey does not finish Wes's login.
            #expect(try await Authenticator.finish(h, try await caraPhone.assertion(options)).errorCode == "UNAUTHENTICATED")
            let second = try await h.login(wes.loginName, wes.password)
            let login = try await Authenticator.finish(h, try await wesPhone.assertion(try #require(second.errorExtensions?["passkeyOptions"]?.stringValue)))
            #expect(login["data"]?["finishPasskeyLogin"]?["person"]?["id"] == wes.idValue, "\(login.json)")

            // A passkey alone does not log an adult in; a young person it does, and their password alone too.
            let alone = try await wesPhone.logIn(h)
            #expect(alone.errorCode == "UNAUTHENTICATED" && alone.errorMessage?.contains("password first") == true, "\(alone.json)")
            #expect(try await samsPhone.logIn(h)["errors"] == nil)
            #expect(try await h.login(sam.loginName, sam.password)["data"]?["login"]?["token"]?.stringValue != nil)
            // A wrong password is still just that.
            #expect(try await h.login(wes.loginName, "not the password").errorCode == "UNAUTHENTICATED")
        }
    }

    @Test func challengesLeftUnansweredArePurgedOnceExpired() async throws {
        try await withAccounts(setup: .live, tweak: Authenticator.allowOrigin) { h in
            // One begun an hour ago (long expired), one now.
            h.clock.advance(seconds: -3600)
            _ = try await Authenticator.loginOptions(h)
            h.clock.advance(seconds: 3600)
            _ = try await Authenticator.loginOptions(h)
            let tenants = try await TenantStore(pool: h.app).all().filter { $0.id == h.tenant.id }
            let job = try #require(AccountsModule().backgroundJobs(try await testConfig()).first { $0.name == "passkey challenge purge" })
            let clock = h.clock
            let context = JobContext(pool: h.app, tenants: { tenants }, now: { clock.now }, logger: Logger(label: "passkey-test"))
            #expect(try await job.round(context)?["challenges"] == "1")
            #expect(try await job.round(context) == nil, "nothing left to purge")
        }
    }

    @Test func peopleSeeRenameAndRemoveOnlyTheirOwnPasskeys() async throws {
        try await withAccounts(setup: .live, tweak: Authenticator.allowOrigin) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let alex = try await h.person(.youngPerson, "alex")
            let phone = Authenticator()
            let passkey = try await phone.register(h, sam)
            let id = try #require(passkey.id)
            let rename = "mutation($id: ID!, $n: String!) { renamePasskey(id: $id, name: $n) { name } }"
            let remove = "mutation($id: ID!) { removePasskey(id: $id) }"
            #expect(try await h.graphQL(rename, ["id": .string(id), "n": "Alex's now"], token: alex.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(remove, ["id": .string(id)], token: alex.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(rename, ["id": .string(id), "n": "  "], token: sam.token).errorExtensions?["field"]?.stringValue == "name")
            #expect(try await h.data(rename, "renamePasskey", ["id": .string(id), "n": "Old phone"], as: sam)["name"]?.stringValue == "Old phone")
            #expect(try await h.graphQL("{ passkeys { id } }").errorCode == "UNAUTHENTICATED")
            #expect(try await h.data(remove, "removePasskey", ["id": .string(id)], as: sam) == .bool(true))
            #expect(try await phone.logIn(h).errorCode == "UNAUTHENTICATED")
            #expect(try await h.auditActions(about: sam).contains("passkey.removed"))
        }
    }
}
