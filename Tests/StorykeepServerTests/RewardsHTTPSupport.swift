import AsyncHTTPClient
import Foundation
import GraphQL
import HummingbirdTesting
import NIOCore
import Postgres
import Storykeep
import StorykeepCore
import StorykeepTestSupport
import Testing

/// What the rewards tests over HTTP share: a tenant with rewards, and the operations an app sends.
enum RewardsHTTP {
    /// The test tenant's `rewards` (and tags and the archive, which some tests use).
    static let rewardsYAML = """
        rewards:
          rules:
            - { id: new-entry, on: entryCreated, stars: 2, dailyLimit: 3 }
            - { id: daily-check-in, on: checkIn, stars: 1, dailyLimit: 1 }
            - { id: shared-entry, on: entryShared, stars: 1, dailyLimit: 2 }
            - { id: three-days, on: streak, days: 3, stars: 5 }
          unlockables:
            - { id: theme-classic, kind: theme, name: Classic colours, stars: 0 }
            - { id: theme-sunset, kind: theme, name: Sunset colours, stars: 10 }
            - { id: avatar-fox, kind: avatar, name: Fox avatar, stars: 15 }
            - { id: moods-animals, kind: moodIcons, name: Animal mood icons, stars: 8 }
            - { id: sticker-star, kind: sticker, name: Gold star sticker, stars: 5 }
          achievements:
            - { id: first-entry, name: First entry, description: You wrote your first entry., icon: "✏️", condition: { entries: 1 }, stars: 3 }
            - { id: ten-entries, name: Storyteller, description: You wrote ten entries., icon: "📖", condition: { entries: 10 } }
            - { id: fifty-entries, name: Author, description: You wrote fifty entries., icon: "📚", condition: { entries: 50 }, stars: 10 }
            - { id: first-drawing, name: Artist, description: You made a drawing., icon: "🎨", condition: { entries: 1, kind: drawing }, stars: 1 }
            - { id: first-check-in, name: Hello, description: You checked in., icon: "👋", condition: { checkIns: 1 } }
            - { id: on-a-roll, name: On a roll, description: Three days in a row., icon: "🔥", condition: { streak: 3 }, stars: 2 }
            - { id: first-share, name: Sharing, description: You shared an entry., icon: "🤝", condition: { shares: 1 }, stars: 1 }
            - { id: three-tags, name: Organiser, description: Three of your tags on your entries., icon: "🏷️", condition: { distinctTags: 3 } }
        """

    /// The test tenant's file: rewards as `yaml` says (``rewardsYAML`` unless told), with tags,
    /// the archive and sharing, in Europe/London.
    static func tenant(_ yaml: String = rewardsYAML) -> @Sendable (Int, inout TenantFile) -> Void {
        { _, file in
            let sample = try! TenantFiles.decode(
                """
                slug: sample
                displayName: Sample
                timeZone: Europe/London
                termsVersion: "1"
                modules: [tags, archive, sharing, rewards]
                moodIcons:
                  - { emoji: "😄", label: Happy }
                  - { emoji: "🙂", label: Okay }
                \(yaml)
                """, file: "sample")
            file.modules = sample.modules
            file.moodIcons = sample.moodIcons
            file.rewards = sample.rewards
        }
    }

    /// Runs `test` with Sam, a young person of a fresh tenant with the rewards of ``tenant(_:)``,
    /// once Sam is made and the test clock set to `moment` (an ISO 8601 instant), on `poolSize`
    /// connections, in process or, with `setup: .live`, over a socket.
    static func withSam(
        at moment: String, poolSize: Int = 4, setup: TestingSetup = .router,
        _ test: @escaping @Sendable (AccountsHarness, TestPerson) async throws -> Void
    ) async throws {
        try await withAccounts(poolSize: poolSize, setup: setup, tweak: tenant()) { h in
            let sam = try await h.person(.youngPerson, "sam")
            h.clock.set(moment)
            try await test(h, sam)
        }
    }

    static let rewardsFields = """
        stars
        achievements { id name description icon stars earnedAt }
        history(first: 100) { edges { node { stars cause sourceId entryId date } } pageInfo { hasNextPage endCursor } }
        catalogue { id kind name stars unlocked }
        """
    static let me = "{ me { rewards { \(rewardsFields) } } }"
    static let earnedFields = "rewardsEarned { stars achievements { id name icon stars earnedAt } }"
    static let createEntry = "mutation($i: EntryInput!) { createEntry(input: $i) { id date \(earnedFields) } }"
    static let checkIn = "mutation($m: String!) { checkIn(mood: $m) { id date \(earnedFields) } }"
    static let unlock = "mutation($id: ID!) { unlock(id: $id) { unlockable { id unlocked } starsSpent stars } }"
    static let updateProfile = "mutation($i: ProfileInput!) { updateProfile(input: $i) { avatar theme moodIconSet } }"

    /// POSTs one operation as JSON to the live test server on `port`, on a connection of the
    /// shared client's pool (so that many go at once, which the harness's client does not do):
    /// the response's JSON.
    static func post(_ query: String, _ variables: GraphQLObject, token: String, port: Int, tenant: String) async throws -> GraphQLValue {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/t/\(tenant)/graphql")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.body = .bytes(ByteBuffer(string: GraphQLValue.object(["query": .string(query), "variables": .object(variables)]).json))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        return try GraphQLValue(json: try await response.body.collect(upTo: 1 << 20).readableBytesView)
    }
}

extension AccountsHarness {
    /// `me { rewards { ... } }` as `person`, which must answer.
    func rewards(of person: TestPerson) async throws -> GraphQLValue {
        try #require(try await data(RewardsHTTP.me, "me", as: person)["rewards"])
    }

    /// `person`'s stars, from `me { rewards { stars } }`.
    func stars(of person: TestPerson) async throws -> Int {
        try #require(try await data("{ me { rewards { stars } } }", "me", as: person)["rewards"]?["stars"]?.intValue)
    }

    /// Writes an entry of `kind` (TEXT by default) about `date` as `person`: the `Entry`, with
    /// `id`, `date` and `rewardsEarned`.
    func write(_ person: TestPerson, kind: String = "TEXT", date: String = "2026-06-01", tags: [GraphQLValue] = []) async throws -> GraphQLValue {
        try await data(
            RewardsHTTP.createEntry, "createEntry",
            ["i": .object(["date": .string(date), "kind": .string(kind), "text": .string("Something happened"), "tagIds": .list(tags)])],
            as: person)
    }

    /// Checks in as `person` with `mood` (Happy by default): the `Entry`, with `rewardsEarned`.
    func checkIn(_ person: TestPerson, mood: String = "Happy") async throws -> GraphQLValue {
        try await data(RewardsHTTP.checkIn, "checkIn", ["m": .string(mood)], as: person)
    }

    /// `person`'s ledger as rows of the database, read in their own context: (cause, source, stars).
    func ledger(of person: TestPerson) async throws -> [String] {
        try await app.transaction(settings: AccountContext.person(tenantID: tenant.id, personID: person.id, role: .youngPerson).settings) { tx in
            try await tx.query("select cause, source_id, stars from star_ledger order by created_at, id").map {
                "\(try $0.decode(String.self, at: 0)) \(try $0.decode(String.self, at: 1)) \(try $0.decode(Int.self, at: 2))"
            }
        }
    }

    /// The titles of `person`'s notifications of the kind `achievementEarned`, oldest first.
    func achievementNotifications(of person: TestPerson) async throws -> [String] {
        let page = try await data(
            "{ notifications(first: 100) { edges { node { kind title } } } }", "notifications", as: person)
        return page.nodes.filter { $0["kind"] == .string("achievementEarned") }.compactMap { $0["title"]?.stringValue }.reversed()
    }
}
