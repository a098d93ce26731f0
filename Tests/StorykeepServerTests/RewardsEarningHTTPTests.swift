import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepCore
import StorykeepServer
import StorykeepTestSupport
import Testing

// Issue 12, earning: every rule kind pays as the tenant's file says, within its daily limit, on
// days of the tenant's time zone (the test clock is set, never waited for); streaks break and
// restart; an entry or a day's check-in pays once whatever happens to it; achievements are earned
// once, each told; what a mutation earned is on its result. Over HTTP with a real PostgreSQL.

@Suite("Rewards: earning over HTTP")
struct RewardsEarningHTTPTests {
    @Test func newEntriesPayWithinTheDailyLimitOfTheTenantsDay() async throws {
        try await RewardsHTTP.withSam(at: "2026-06-10T22:30:00Z") { h, sam in  // 23:30 in London (BST) on 10 June.
            var earned: [GraphQLValue] = []
            for _ in 1...4 { earned.append(try #require(try await h.write(sam)["rewardsEarned"])) }
            // The first pays its rule and completes an achievement; the limit (3 a day) stops the fourth.
            #expect(earned.map { $0["stars"]?.intValue } == [5, 2, 2, 0])
            #expect(earned[0]["achievements"]?.listValue?.map { $0["id"] } == [.string("first-entry")])
            #expect(earned[0]["achievements"]?.listValue?.first?["icon"] == .string("✏️"))
            #expect(earned[0]["achievements"]?.listValue?.first?["earnedAt"]?.stringValue != nil)
            #expect(earned.dropFirst().allSatisfy { $0["achievements"] == .list([]) })
            // 00:30 in London on 11 June, still 10 June in UTC: a new day for the limit.
            h.clock.set("2026-06-10T23:30:00Z")
            #expect(try await h.write(sam)["rewardsEarned"]?["stars"] == .int(2))

            let rewards = try await h.rewards(of: sam)
            #expect(rewards["stars"] == .int(11))
            let history = rewards["history"]?.nodes ?? []
            #expect(history.map { $0["stars"]?.intValue } == [2, 2, 2, 3, 2])
            #expect(history.map { $0["cause"]?.stringValue } == ["ENTRY_CREATED", "ENTRY_CREATED", "ENTRY_CREATED", "ACHIEVEMENT", "ENTRY_CREATED"])
            #expect(history.map { $0["date"]?.stringValue } == ["2026-06-11", "2026-06-10", "2026-06-10", "2026-06-10", "2026-06-10"])
            #expect(history.map { $0["sourceId"]?.stringValue }.first == "new-entry")
            #expect(history[3]["sourceId"] == .string("first-entry") && history[3]["entryId"] == .null)
            #expect(history[0]["entryId"]?.stringValue != nil)
            #expect(try await h.ledger(of: sam).count == 5)
            #expect(try await h.achievementNotifications(of: sam) == ["✏️ You earned First entry (+3 stars)"])
        }
    }

    @Test func checkInsPayOnceADayAndStreaksBreakAndRestart() async throws {
        try await withAccounts(tweak: RewardsHTTP.tenant()) { h in
            let sam = try await h.person(.youngPerson, "sam")
            func checkIn(_ moment: String, mood: String = "Happy") async throws -> GraphQLValue {
                h.clock.set(moment)
                return try #require(try await h.checkIn(sam, mood: mood)["rewardsEarned"])
            }
            let first = try await checkIn("2026-06-01T08:00:00Z")
            #expect(first["stars"] == .int(1))
            #expect(first["achievements"]?.listValue?.map { $0["id"] } == [.string("first-check-in")])
            // Changed the same day: the check-in is paid already.
            #expect(try await checkIn("2026-06-01T18:00:00Z", mood: "Okay") == .object(["stars": .int(0), "achievements": .list([])]))
            #expect(try await checkIn("2026-06-02T08:00:00Z")["stars"] == .int(1))
            // The third day in a row: the day's star, the streak's five, and the achievement's two.
            let third = try await checkIn("2026-06-03T08:00:00Z")
            #expect(third["stars"] == .int(8))
            #expect(third["achievements"]?.listValue?.map { $0["id"] } == [.string("on-a-roll")])
            // 4 June missed: the streak starts again, and pays again at its third day.
            #expect(try await checkIn("2026-06-05T08:00:00Z")["stars"] == .int(1))
            #expect(try await checkIn("2026-06-06T08:00:00Z")["stars"] == .int(1))
            let again = try await checkIn("2026-06-07T08:00:00Z")
            #expect(again["stars"] == .int(6))
            #expect(again["achievements"] == .list([]))
            // Deleted, and checked in again the same day: nothing more.
            let day7 = try #require(try await h.data("{ greeting { checkInEntry { id } } }", "greeting", as: sam)["checkInEntry"]?["id"])
            _ = try await h.data("mutation($id: ID!) { deleteEntry(id: $id) }", "deleteEntry", ["id": day7], as: sam)
            #expect(try await checkIn("2026-06-07T09:00:00Z")["stars"] == .int(0))
            // 00:30 on 8 June in London (still 7 June in UTC): the next day, the streak's fourth.
            let late = try await checkIn("2026-06-07T23:30:00Z")
            #expect(late["stars"] == .int(1))

            let rewards = try await h.rewards(of: sam)
            #expect(rewards["stars"] == .int(19))
            let streaks = (rewards["history"]?.nodes ?? []).filter { $0["cause"] == .string("STREAK") }
            #expect(streaks.map { $0["date"]?.stringValue } == ["2026-06-07", "2026-06-03"])
            #expect(streaks.allSatisfy { $0["sourceId"] == .string("three-days") && $0["stars"] == .int(5) })
            let checkIns = (rewards["history"]?.nodes ?? []).filter { $0["cause"] == .string("CHECK_IN") }
            #expect(checkIns.map { $0["date"]?.stringValue } == ["2026-06-08", "2026-06-07", "2026-06-06", "2026-06-05", "2026-06-03", "2026-06-02", "2026-06-01"])
            #expect(try await h.achievementNotifications(of: sam) == ["👋 You earned Hello", "🔥 You earned On a roll (+2 stars)"])
        }
    }

    @Test func anEntryPaysOnceWhateverBecomesOfIt() async throws {
        try await RewardsHTTP.withSam(at: "2026-06-10T10:00:00Z") { h, sam in
            let entry = try await h.write(sam)
            let id = try #require(entry["id"])
            #expect(entry["rewardsEarned"]?["stars"] == .int(5))
            let update = "mutation($id: ID!, $i: EntryInput!) { updateEntry(id: $id, input: $i) { \(RewardsHTTP.earnedFields) } }"
            let updated = try await h.data(update, "updateEntry", ["id": id, "i": .object(["date": .string("2026-06-02"), "kind": .string("DRAWING")])], as: sam)
            #expect(updated["rewardsEarned"] == .object(["stars": .int(0), "achievements": .list([])]))
            // Deleting takes nothing away; restoring pays nothing again.
            _ = try await h.data("mutation($id: ID!) { deleteEntry(id: $id) }", "deleteEntry", ["id": id], as: sam)
            #expect(try await h.stars(of: sam) == 5)
            let restored = try await h.data("mutation($id: ID!) { restoreEntry(id: $id) { \(RewardsHTTP.earnedFields) } }", "restoreEntry", ["id": id], as: sam)
            #expect(restored["rewardsEarned"]?["stars"] == .int(0))
            // Read back later, an entry shows nothing earned: that was the mutation's to say.
            let read = try await h.data("query($id: ID!) { entry(id: $id) { \(RewardsHTTP.earnedFields) } }", "entry", ["id": id], as: sam)
            #expect(read["rewardsEarned"]?["stars"] == .int(0))
            #expect(try await h.stars(of: sam) == 5)
            #expect(try await h.ledger(of: sam) == ["entryCreated new-entry 2", "achievement first-entry 3"])
        }
    }

    @Test func achievementsAreEarnedOnceAndListedWithThoseToEarn() async throws {
        try await RewardsHTTP.withSam(at: "2026-06-10T10:00:00Z") { h, sam in
            let tags = try await ["school", "friends", "music"].asyncMap { name in
                try #require(try await h.data("mutation($n: String!) { createTag(name: $n) { id } }", "createTag", ["n": .string(name)], as: sam)["id"])
            }
            // A drawing first: two achievements at once, in the file's order.
            let drawing = try await h.write(sam, kind: "DRAWING", tags: Array(tags.prefix(2)))
            #expect(drawing["rewardsEarned"]?["achievements"]?.listValue?.map { $0["id"] } == [.string("first-entry"), .string("first-drawing")])
            #expect(drawing["rewardsEarned"]?["stars"] == .int(2 + 3 + 1))
            for _ in 2...9 { _ = try await h.write(sam) }
            let tenth = try await h.write(sam)
            #expect(tenth["rewardsEarned"]?["achievements"]?.listValue?.map { $0["id"] } == [.string("ten-entries")])
            #expect(tenth["rewardsEarned"]?["stars"] == .int(0))  // past the daily limit, no bonus
            #expect(try await h.write(sam, kind: "DRAWING")["rewardsEarned"]?["achievements"] == .list([]))
            // A third distinct tag, added by changing an entry: the achievement is on that result.
            let update = "mutation($id: ID!, $i: EntryInput!) { updateEntry(id: $id, input: $i) { \(RewardsHTTP.earnedFields) } }"
            let input: GraphQLObject = ["date": .string("2026-06-01"), "kind": .string("TEXT"), "tagIds": .list([tags[2]])]
            let tagged = try await h.data(update, "updateEntry", ["id": try #require(tenth["id"]), "i": .object(input)], as: sam)
            #expect(tagged["rewardsEarned"]?["achievements"]?.listValue?.map { $0["id"] } == [.string("three-tags")])
            let retagged = try await h.data(update, "updateEntry", ["id": try #require(tenth["id"]), "i": .object(input)], as: sam)
            #expect(retagged["rewardsEarned"]?["achievements"] == .list([]))

            let achievements = try await h.rewards(of: sam)["achievements"]?.listValue ?? []
            #expect(achievements.map { $0["id"]?.stringValue } == [
                "first-entry", "first-drawing", "ten-entries", "three-tags", "fifty-entries", "first-check-in", "on-a-roll", "first-share",
            ])
            #expect(achievements.prefix(4).allSatisfy { $0["earnedAt"]?.stringValue != nil })
            #expect(achievements.dropFirst(4).allSatisfy { $0["earnedAt"] == .null })
            #expect(achievements[4] == .object([
                "id": .string("fifty-entries"), "name": .string("Author"), "description": .string("You wrote fifty entries."),
                "icon": .string("📚"), "stars": .int(10), "earnedAt": .null,
            ]))
            #expect(try await h.achievementNotifications(of: sam) == [
                "✏️ You earned First entry (+3 stars)", "🎨 You earned Artist (+1 star)", "📖 You earned Storyteller",
                "🏷️ You earned Organiser",
            ])
        }
    }

    @Test func aSharedEntryPaysOnceWithinTheDailyLimit() async throws {
        try await withAccounts(tweak: RewardsHTTP.tenant()) { h in
            let admin = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam")
            let wendy = try await h.person(.socialWorker, "wendy"), carl = try await h.person(.carer, "carl")
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(sam, carl, .carer, admin: admin)
            h.clock.set("2026-06-10T10:00:00Z")
            let entries = try await (1...4).asyncMap { _ in try #require(try await h.write(sam)["id"]) }
            let before = try await h.stars(of: sam)
            let shareEntry = "mutation($e: ID!, $p: [ID!]!) { shareEntry(entryId: $e, withPersonIds: $p) { id \(RewardsHTTP.earnedFields) } }"
            func share(_ entry: GraphQLValue, with person: TestPerson) async throws -> GraphQLValue {
                try #require(try await h.data(shareEntry, "shareEntry", ["e": entry, "p": .list([person.idValue])], as: sam)["rewardsEarned"])
            }
            // The rule's star and the first share's bonus, on the mutation's result.
            let first = try await share(entries[0], with: wendy)
            #expect(first["stars"] == .int(2))
            #expect(first["achievements"]?.listValue?.map { $0["id"] } == [.string("first-share")])
            // Shared again (with someone else; unshared and shared back): paid already.
            #expect(try await share(entries[0], with: carl) == .object(["stars": .int(0), "achievements": .list([])]))
            _ = try await h.data("mutation($e: ID!) { unshareEntry(entryId: $e) { id } }", "unshareEntry", ["e": entries[0]], as: sam)
            #expect(try await share(entries[0], with: wendy)["stars"] == .int(0))
            #expect(try await share(entries[1], with: wendy)["stars"] == .int(1))
            // Past the limit of 2 a day: shared, and not paid.
            #expect(try await share(entries[2], with: wendy)["stars"] == .int(0))
            #expect(try await h.stars(of: sam) == before + 3)
            // The next day pays again; the entry the limit stopped yesterday has had its share.
            h.clock.set("2026-06-11T10:00:00Z")
            #expect(try await share(entries[3], with: wendy)["stars"] == .int(1))
            #expect(try await share(entries[2], with: carl)["stars"] == .int(0))
            #expect(try await h.stars(of: sam) == before + 4)
            let shared = (try await h.rewards(of: sam)["history"]?.nodes ?? []).filter { $0["cause"] == .string("ENTRY_SHARED") }
            #expect(shared.map { $0["entryId"] } == [entries[3], entries[1], entries[0]])
            #expect(shared.map { $0["date"]?.stringValue } == ["2026-06-11", "2026-06-10", "2026-06-10"])
            #expect(try await h.achievementNotifications(of: sam).last == "🤝 You earned Sharing (+1 star)")
        }
    }
}

extension Sequence {
    /// The results of `transform` on each element, in order, one after the other.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
