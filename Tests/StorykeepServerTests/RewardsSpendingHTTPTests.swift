import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepCore
import StorykeepServer
import StorykeepTestSupport
import Testing

// Issue 12, spending: the catalogue with each unlockable's price and whether the viewer has it;
// unlock spends once, refuses without enough stars (saying the balance and the price, spending
// nothing), even two at once; profile choices still locked are refused. Over HTTP.

@Suite("Rewards: unlocking and profile choices over HTTP")
struct RewardsSpendingHTTPTests {
    @Test func unlockingSpendsOnceAndNeverMoreThanTheBalance() async throws {
        try await RewardsHTTP.withSam(at: "2026-06-10T10:00:00Z") { h, sam in
            _ = try await h.write(sam)  // 2 + 3 (first entry)
            #expect(try await h.rewards(of: sam)["catalogue"]?.listValue?.map { "\($0["id"]?.stringValue ?? "") \($0["unlocked"] == .bool(true))" } == [
                "theme-classic true", "theme-sunset false", "avatar-fox false", "moods-animals false", "sticker-star false",
            ])
            #expect(try await h.rewards(of: sam)["catalogue"]?.listValue?[1] == .object([
                "id": .string("theme-sunset"), "kind": .string("THEME"), "name": .string("Sunset colours"), "stars": .int(10),
                "unlocked": .bool(false),
            ]))

            // Too few stars: refused, with the balance and the price; nothing spent.
            let refused = try await h.graphQL(RewardsHTTP.unlock, ["id": .string("theme-sunset")], token: sam.token)
            #expect(refused.errorCode == "BAD_USER_INPUT")
            #expect(refused.errorExtensions?["field"] == .string("id"))
            #expect(refused.errorExtensions?["stars"] == .int(5) && refused.errorExtensions?["price"] == .int(10))
            #expect(refused.errorMessage == "Sunset colours costs 10 stars, and you have 5.")
            #expect(try await h.stars(of: sam) == 5)

            let bought = try await h.data(RewardsHTTP.unlock, "unlock", ["id": .string("sticker-star")], as: sam)
            #expect(bought == .object(["unlockable": .object(["id": .string("sticker-star"), "unlocked": .bool(true)]), "starsSpent": .int(5), "stars": .int(0)]))
            // Again: no second charge.
            let again = try await h.data(RewardsHTTP.unlock, "unlock", ["id": .string("sticker-star")], as: sam)
            #expect(again["starsSpent"] == .int(0) && again["stars"] == .int(0))
            // A free one costs nothing; an id the catalogue lacks is refused.
            #expect(try await h.data(RewardsHTTP.unlock, "unlock", ["id": .string("theme-classic")], as: sam)["starsSpent"] == .int(0))
            let unknown = try await h.graphQL(RewardsHTTP.unlock, ["id": .string("theme-nowhere")], token: sam.token)
            #expect(unknown.errorCode == "BAD_USER_INPUT" && unknown.errorExtensions?["field"] == .string("id"))

            let rewards = try await h.rewards(of: sam)
            #expect(rewards["stars"] == .int(0))
            #expect(rewards["catalogue"]?.listValue?.last?["unlocked"] == .bool(true))
            let spent = (rewards["history"]?.nodes ?? []).first
            #expect(spent?["cause"] == .string("UNLOCK") && spent?["stars"] == .int(-5) && spent?["sourceId"] == .string("sticker-star"))
            #expect(try await h.ledger(of: sam) == ["entryCreated new-entry 2", "achievement first-entry 3", "unlock sticker-star -5"])

            // Only young people unlock.
            let wendy = try await h.person(.socialWorker, "wendy")
            #expect(try await h.graphQL(RewardsHTTP.unlock, ["id": .string("theme-classic")], token: wendy.token).errorCode == "FORBIDDEN")
        }
    }

    @Test func twoUnlocksAtOnceCannotSpendTheSameStars() async throws {
        try await RewardsHTTP.withSam(at: "2026-06-10T10:00:00Z") { h, sam in
            for _ in 1...3 { _ = try await h.write(sam) }  // 2 + 3 + 2 + 2 = 9 stars
            h.clock.set("2026-06-11T10:00:00Z")
            _ = try await h.write(sam)  // 11
            let tenant = try #require(try await TenantStore(pool: h.app).all().first { $0.id == h.tenant.id })
            let token = try #require(SessionToken(presented: sam.token))
            // Two items of 10 and 8 stars, for 11: straight to the engine, at once (the test client
            // sends one request at a time), four times each.
            let outcomes = await withTaskGroup(of: String?.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let request = GraphQLRequest(query: RewardsHTTP.unlock, variables: ["id": .string(index % 2 == 0 ? "theme-sunset" : "moods-animals")])
                        guard case .response(let response) = await h.engine.execute(request, tenant: tenant, credential: .bearer(token), links: TenantLinks(root: "/"))
                        else { return nil }
                        if let code = response.errors.first?.extensions?["code"]?.stringValue { return code }
                        return response.data?["unlock"]?["starsSpent"]?.intValue.map { "spent \($0)" }
                    }
                }
                return await group.reduce(into: [String?]()) { $0.append($1) }
            }
            let spent = outcomes.compactMap { $0 }.filter { $0.hasPrefix("spent") && $0 != "spent 0" }
            #expect(spent.count == 1, "\(outcomes)")
            #expect(outcomes.allSatisfy { $0 == "BAD_USER_INPUT" || $0?.hasPrefix("spent") == true }, "\(outcomes)")
            let stars = try await h.stars(of: sam)
            #expect(stars == 1 || stars == 3, "\(outcomes)")
            #expect(stars >= 0)
        }
    }

    @Test func profileChoicesAreRefusedWhileLocked() async throws {
        try await RewardsHTTP.withSam(at: "2026-06-10T10:00:00Z") { h, sam in
            for (field, value, price) in [("theme", "theme-sunset", 10), ("avatar", "avatar-fox", 15), ("moodIconSet", "moods-animals", 8)] {
                let refused = try await h.graphQL(RewardsHTTP.updateProfile, ["i": .object([field: .string(value), "displayName": .string("Sammy")])], token: sam.token)
                #expect(refused.errorCode == "BAD_USER_INPUT", "\(field)")
                #expect(refused.errorExtensions?["field"] == .string("input.\(field)"))
                #expect(refused.errorExtensions?["price"] == .int(price))
            }
            // Refused means nothing changed, the name given with it included.
            let profile = "{ me { profile { displayName avatar theme moodIconSet } } }"
            #expect(try await h.data(profile, "me", as: sam)["profile"] == .object([
                "displayName": .string("Sam"), "avatar": .null, "theme": .null, "moodIconSet": .null,
            ]))
            // Free, not in the catalogue, or an unlockable of another kind: the profile's to take.
            let free = try await h.data(RewardsHTTP.updateProfile, "updateProfile", ["i": .object(["theme": .string("theme-classic"), "avatar": .string("🦊")])], as: sam)
            #expect(free == .object(["avatar": .string("🦊"), "theme": .string("theme-classic"), "moodIconSet": .null]))
            #expect(try await h.data(RewardsHTTP.updateProfile, "updateProfile", ["i": .object(["avatar": .string("sticker-star")])], as: sam)["avatar"] == .string("sticker-star"))
            // Unlocked (with stars from four entries on two days: 2 + 3 + 2 + 2 + 2), it is taken.
            for _ in 1...3 { _ = try await h.write(sam) }
            h.clock.set("2026-06-11T10:00:00Z")
            _ = try await h.write(sam)
            _ = try await h.data(RewardsHTTP.unlock, "unlock", ["id": .string("moods-animals")], as: sam)
            let unlocked = try await h.data(RewardsHTTP.updateProfile, "updateProfile", ["i": .object(["moodIconSet": .string("  moods-animals ")])], as: sam)
            #expect(unlocked["moodIconSet"] == .string("moods-animals"))
            #expect(try await h.graphQL(RewardsHTTP.updateProfile, ["i": .object(["theme": .string("theme-sunset")])], token: sam.token).errorCode == "BAD_USER_INPUT")
            // Adults hold no stars and are not held to the catalogue.
            let wendy = try await h.person(.socialWorker, "wendy")
            #expect(try await h.data(RewardsHTTP.updateProfile, "updateProfile", ["i": .object(["avatar": .string("avatar-fox")])], as: wendy)["avatar"] == .string("avatar-fox"))
        }
    }
}
