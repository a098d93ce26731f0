import AsyncHTTPClient
import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepCore
import StorykeepServer
import StorykeepTestSupport
import Testing

// Issue 12, what the tenant decides: adults see a young person's stars only where its file shows
// them to the team; a tenant without the module has none of it and earns nothing; changing the
// rules changes what is earned from then on, and what was paid stays. And the concurrency test:
// one young person's 50 entries and 20 check-ins at once, over a real socket, earn exactly what
// the rules allow.

@Suite("Rewards: the tenant's choices, and concurrency")
struct RewardsTenantHTTPTests {
    @Test func adultsSeeStarsOnlyWhereTheTenantShowsThemToTheTeam() async throws {
        for visible in [false, true] {
            let yaml = RewardsHTTP.rewardsYAML + "\n  visibleToTeam: \(visible)"
            try await withAccounts(tweak: RewardsHTTP.tenant(yaml)) { h in
                let admin = try await h.person(.agencyAdmin, "ada")
                let sam = try await h.person(.youngPerson, "sam"), wendy = try await h.person(.socialWorker, "wendy")
                let ivy = try await h.person(.socialWorker, "ivy")
                h.clock.set("2026-06-10T10:00:00Z")
                _ = try await h.write(sam)
                try await h.assign(sam, wendy, .socialWorker, admin: admin)
                let theirs = try await h.data("{ myYoungPeople { youngPerson { id } stars } }", "myYoungPeople", as: wendy)
                #expect(theirs.listValue?.map { $0["stars"] } == [visible ? .int(5) : .null], "visibleToTeam \(visible)")
                #expect(try await h.data("{ myYoungPeople { stars } }", "myYoungPeople", as: ivy) == .list([]))
                // Adults have no rewards of their own, nor anyone else's on `me`.
                for adult in [wendy, admin] {
                    #expect(try await h.data("{ me { rewards { stars } } }", "me", as: adult)["rewards"] == .null)
                }
            }
        }
    }

    @Test func aTenantWithoutRewardsHasNoneOfItAndEarnsNothing() async throws {
        try await withAccounts(tweak: { index, file in
            RewardsHTTP.tenant()(index, &file)
            file.modules.removeAll { $0 == .rewards }
        }) { h in
            let sam = try await h.person(.youngPerson, "sam")
            h.clock.set("2026-06-10T10:00:00Z")
            for query in [
                "{ me { rewards { stars } } }", "{ entries { edges { node { rewardsEarned { stars } } } } }",
                #"mutation { unlock(id: "sticker-star") { stars } }"#, "{ myTeam { id } __type(name: \"Rewards\") { name } }",
            ] {
                let response = try await h.graphQL(query, token: sam.token)
                if query.contains("__type") {
                    #expect(response["data"]?["__type"] == .null, "\(response.json)")
                } else {
                    #expect(response.errorCode == "GRAPHQL_VALIDATION_FAILED", "\(query): \(response.json)")
                }
            }
            let entry = try await h.data(
                "mutation($i: EntryInput!) { createEntry(input: $i) { id } }", "createEntry",
                ["i": .object(["date": .string("2026-06-01"), "kind": .string("TEXT")])], as: sam)
            #expect(entry["id"]?.stringValue != nil)
            _ = try await h.data("mutation { checkIn(mood: \"Happy\") { id } }", "checkIn", as: sam)
            #expect(try await h.ledger(of: sam) == [])
            #expect(try await h.achievementNotifications(of: sam) == [])
            // Nor is a locked choice refused: the profile takes any name.
            #expect(try await h.data(RewardsHTTP.updateProfile, "updateProfile", ["i": .object(["theme": .string("theme-sunset")])], as: sam)["theme"] == .string("theme-sunset"))
        }
    }

    @Test func changingTheRulesChangesLaterEarningsOnly() async throws {
        try await RewardsHTTP.withSam(at: "2026-06-10T10:00:00Z") { h, sam in
            _ = try await h.write(sam)
            // The agency pays 7 a new entry from now, renames the achievement and drops a rule.
            let before = try #require(try await TenantStore(pool: h.app).all().first { $0.id == h.tenant.id })
            var file = before.file
            file.rewards.rules = file.rewards.rules.map { rule in
                var rule = rule
                if rule.id == "new-entry" { rule.stars = 7 }
                return rule
            }.filter { $0.id != "daily-check-in" }
            file.rewards.achievements[0].name = "Off we go"
            _ = try await TenantStore(pool: h.owner).apply([file])
            let after = try #require(try await TenantStore(pool: h.app).all().first { $0.id == h.tenant.id })
            #expect(after.file.rewards.rules.count == 3)
            // Straight to the engine with the tenant as now applied (the test server's tenant cache
            // re-reads only every minute).
            func run(_ query: String, _ variables: GraphQLObject = [:]) async throws -> GraphQLResponse {
                guard case .response(let response) = await h.engine.execute(
                    GraphQLRequest(query: query, variables: variables), tenant: after,
                    credential: .bearer(try #require(SessionToken(presented: sam.token))), links: TenantLinks(root: "/"))
                else { throw RewardsTestError.notRun }
                #expect(response.errors.isEmpty, "\(response.errors)")
                return response
            }
            let written = try await run(RewardsHTTP.createEntry, ["i": .object(["date": .string("2026-06-01"), "kind": .string("TEXT")])])
            #expect(written.data?["createEntry"]?["rewardsEarned"]?["stars"] == .int(7))
            // No check-in rule any more: the check-in earns only its achievement, which has no bonus.
            let checkedIn = try await run(RewardsHTTP.checkIn, ["m": .string("Happy")])
            #expect(checkedIn.data?["checkIn"]?["rewardsEarned"]?["stars"] == .int(0))
            #expect(checkedIn.data?["checkIn"]?["rewardsEarned"]?["achievements"]?.listValue?.map { $0["id"] } == [.string("first-check-in")])
            let rewards = try #require(try await run(RewardsHTTP.me).data?["me"]?["rewards"])
            #expect(rewards["stars"] == .int(2 + 3 + 7))
            #expect((rewards["history"]?.nodes ?? []).map { $0["stars"]?.intValue } == [7, 3, 2])
            // The badge stays as it was earned.
            #expect(rewards["achievements"]?.listValue?.first?["name"] == .string("First entry"))
        }
    }

    /// The issue's concurrency test: 50 `createEntry` and 20 `checkIn` by one young person, all at
    /// once over a real socket, end with exactly what the rules allow (3 entries paid a day, one
    /// check-in), each achievement once, and the ledger's sum is `me.rewards.stars`.
    @Test func fiftyEntriesAndTwentyCheckInsAtOnceEarnExactlyWhatTheRulesAllow() async throws {
        try await RewardsHTTP.withSam(at: "2026-06-10T10:00:00Z", poolSize: 8, setup: .live) { h, sam in
            let port = try #require(h.client.port, "a live server")
            // Two check-ins in every seven requests, changing the mood; all sent at once, each on a
            // connection of the client's pool.
            let responses = try await withThrowingTaskGroup(of: (String, GraphQLValue).self) { group in
                for index in 0..<70 {
                    group.addTask {
                        let checkIn = index % 7 == 3 || index % 7 == 6
                        let (field, query, variables): (String, String, GraphQLObject) = checkIn
                            ? ("checkIn", RewardsHTTP.checkIn, ["m": .string(index % 2 == 0 ? "Happy" : "Okay")])
                            : ("createEntry", RewardsHTTP.createEntry, ["i": .object(["date": .string("2026-06-01"), "kind": .string("TEXT")])])
                        return (field, try await RewardsHTTP.post(query, variables, token: sam.token, port: port, tenant: h.tenant.slug))
                    }
                }
                return try await group.reduce(into: [(String, GraphQLValue)]()) { $0.append($1) }
            }
            #expect(responses.filter { $0.0 == "createEntry" }.count == 50)
            #expect(responses.filter { $0.0 == "checkIn" }.count == 20)
            #expect(responses.allSatisfy { $0.1["errors"] == nil }, "\(responses.compactMap { $0.1["errors"] })")
            let earned = responses.compactMap { field, response in response["data"]?[field]?["rewardsEarned"] }
            #expect(earned.count == 70)
            // 3 entries of 2 stars, 1 check-in of 1; bonuses: first entry 3, fifty entries 10.
            let total = earned.compactMap { $0["stars"]?.intValue }.reduce(0, +)
            #expect(total == 3 * 2 + 1 + 3 + 10)
            let achievements = earned.flatMap { $0["achievements"]?.listValue ?? [] }.compactMap { $0["id"]?.stringValue }
            #expect(achievements.sorted() == ["fifty-entries", "first-check-in", "first-entry", "ten-entries"])

            let stars = try await h.stars(of: sam)
            #expect(stars == 20)
            let sum = try await h.app.transaction(settings: AccountContext.person(tenantID: h.tenant.id, personID: sam.id, role: .youngPerson).settings) { tx in
                try await tx.query("select coalesce(sum(stars), 0)::int, count(*) filter (where cause = 'entryCreated') from star_ledger")[0]
            }
            #expect(try sum.decode(Int.self, at: 0) == stars)
            #expect(try sum.decode(Int.self, at: 1) == 3)
            #expect(try await h.achievementNotifications(of: sam).count == 4)
            #expect(try await h.rewards(of: sam)["achievements"]?.listValue?.filter { $0["earnedAt"] != .null }.count == 4)
        }
    }
}

enum RewardsTestError: Error { case notRun }
