import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Synchronization
import Testing

// Issue 14, "How it is judged": a case-management system's copy of the shared entries, pulled
// every 200 ms while 50 young people share, edit, unshare, archive and restore at once, ends equal
// to what the database says it may hold, with no change missed and none delivered twice or out of
// order. Over a real socket, many requests at once.
//
// The churn lasts `STORYKEEP_CMS_SIMULATOR_SECONDS` (10 in `make test`, which runs every suite at
// once on a small machine; `make test-cms-simulator` runs the issue's 30).

@Suite("CMS simulator")
struct ExportSimulatorTests {
    static let youngPeople = 50
    static let pollInterval = Duration.milliseconds(200)
    /// The fewest steps each young person takes, however slow the machine.
    static let minimumSteps = 8
    static var churnSeconds: Int { ProcessInfo.processInfo.environment["STORYKEEP_CMS_SIMULATOR_SECONDS"].flatMap(Int.init) ?? 10 }

    @Test func aClientPullingDuringChurnEndsWithWhatTheDatabaseSaysItMayHold() async throws {
        try await withAccounts(poolSize: 8, setup: .live, tweak: ExportHTTP.tenant) { h in
            let port = try #require(h.client.port, "a live server")
            let ada = try await h.person(.agencyAdmin, "ada")
            let wendy = try await h.person(.socialWorker, "wendy", displayName: "Wendy Walker")
            var made: [TestPerson] = []
            for index in 0..<Self.youngPeople {
                let person = try await h.person(.youngPerson, "yp\(index)")
                try await h.assign(person, wendy, .socialWorker, admin: ada)
                made.append(person)
            }
            let youngPeople = made
            let cms = try await h.cmsClient(admin: ada)
            let token = try await h.clientToken(cms)
            let post: @Sendable (String, GraphQLObject, String) async throws -> GraphQLValue = { query, variables, token in
                try await RewardsHTTP.post(query, variables, token: token, port: port, tenant: h.tenant.slug)
            }

            let copy = CmsCopy()
            let churnEnds = ContinuousClock.now + .seconds(Self.churnSeconds)
            let journals = try await withThrowingTaskGroup(of: [SimulatedEntry]?.self) { group in
                // The client, until the young people are done (then cancelled).
                group.addTask {
                    while !Task.isCancelled {
                        do {
                            try await copy.pullToTheEnd(post, token: token)
                            try await Task.sleep(for: Self.pollInterval)
                        } catch where Task.isCancelled {
                            break
                        }
                    }
                    return nil
                }
                // Each young person for the churn's time, and at least `minimumSteps` steps
                // however slow the machine.
                group.addTask {
                    try await withThrowingTaskGroup(of: [SimulatedEntry].self) { steps in
                        for person in youngPeople {
                            steps.addTask {
                                var journal = SimulatedJournal(person: person, wendy: wendy, post: post)
                                var taken = 0
                                while ContinuousClock.now < churnEnds || taken < Self.minimumSteps {
                                    try await journal.step()
                                    taken += 1
                                }
                                return journal.entries
                            }
                        }
                        return try await steps.reduce(into: [SimulatedEntry]()) { $0 += $1 }
                    }
                }
                while let done = try await group.next() {
                    if let entries = done {
                        group.cancelAll()
                        return entries
                    }
                }
                return []
            }
            let pullsDuringChurn = copy.pulls

            // What each young person's own steps say the client may hold, and what the database says.
            let expected = Dictionary(uniqueKeysWithValues: journals.filter { $0.shared && !$0.archived }.map { ($0.id, $0.text) })
            let exportable = try await h.app.transaction(
                settings: AccountContext.client(tenantID: h.tenant.id, clientID: try #require(UUID(uuidString: cms.id))).settings
            ) { tx in
                try await tx.query("select id, body from entries").map { row in
                    (try row.decode(UUID.self, at: 0).uuidString.lowercased(), try row.decode(String.self, at: 1))
                }
            }
            let database = Dictionary(uniqueKeysWithValues: exportable)
            #expect(database == expected, "the database and the young people's own steps disagree")
            #expect(journals.count > Self.youngPeople && expected.count > 10 && expected.count < journals.count, "a churn worth the name")

            // The newest changes appear once every older transaction has ended (other suites' too).
            let drained = ContinuousClock.now + .seconds(60)
            while copy.entries != database && ContinuousClock.now < drained {
                try await copy.pullToTheEnd(post, token: token)
                try await Task.sleep(for: Self.pollInterval)
            }
            #expect(copy.entries == database, "the client's copy differs from what it may hold")
            #expect(copy.faults.isEmpty, "\(copy.faults.prefix(10))")
            #expect(pullsDuringChurn > 1, "pulled every \(Self.pollInterval) during the churn: \(pullsDuringChurn) pulls")
        }
    }
}

/// An entry of a simulated young person, as their own steps left it.
struct SimulatedEntry: Sendable {
    var id: String
    var number: Int
    var version = 1
    var shared = false
    var archived = false

    /// Its text at `version`: the version comes back in every UPSERT the client receives.
    var text: String { Self.text(number: number, version: version) }

    static func text(number: Int, version: Int) -> String { "Entry \(number), version \(version)" }

    /// The version a text says.
    static func version(of text: String) -> Int? { text.split(separator: " ").last.flatMap { Int($0) } }
}

/// A young person's steps, one at a time, each over HTTP and each of which must succeed: write
/// and share, edit, unshare, share again, archive, restore.
struct SimulatedJournal {
    let person: TestPerson
    let wendy: TestPerson
    let post: @Sendable (String, GraphQLObject, String) async throws -> GraphQLValue
    var entries: [SimulatedEntry] = []

    init(person: TestPerson, wendy: TestPerson, post: @escaping @Sendable (String, GraphQLObject, String) async throws -> GraphQLValue) {
        self.person = person
        self.wendy = wendy
        self.post = post
    }

    static let create = "mutation($i: EntryInput!) { createEntry(input: $i) { id } }"
    static let update = "mutation($id: ID!, $i: EntryInput!) { updateEntry(id: $id, input: $i) { id } }"
    static let share = "mutation($e: ID!, $p: [ID!]!) { shareEntry(entryId: $e, withPersonIds: $p) { id } }"
    static let unshare = "mutation($e: ID!, $p: [ID!]) { unshareEntry(entryId: $e, personIds: $p) { id } }"
    static let archive = "mutation($id: ID!) { deleteEntry(id: $id) }"
    static let restore = "mutation($id: ID!) { restoreEntry(id: $id) { id } }"

    private func input(_ entry: SimulatedEntry) -> GraphQLValue {
        .object(["date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string(entry.text)])
    }

    /// Runs `query`, which must answer without errors: its data.
    private func run(_ query: String, _ variables: GraphQLObject) async throws -> GraphQLValue {
        let response = try await post(query, variables, person.token)
        guard response["errors"] == nil, let data = response["data"] else {
            Issue.record("\(query): \(response.json)")
            throw CancellationError()
        }
        return data
    }

    mutating func step() async throws {
        let live = entries.indices.filter { !entries[$0].archived }
        let roll = Int.random(in: 0..<100)
        if live.count < 3 || roll < 20 {
            var entry = SimulatedEntry(id: "", number: entries.count + 1)
            entry.id = try #require(try await run(Self.create, ["i": input(entry)])["createEntry"]?.id)
            _ = try await run(Self.share, ["e": .string(entry.id), "p": .list([wendy.idValue])])
            entry.shared = true
            entries.append(entry)
            return
        }
        let index = live.randomElement()!
        let id = GraphQLValue.string(entries[index].id)
        switch roll {
        case ..<50:
            entries[index].version += 1
            _ = try await run(Self.update, ["id": id, "i": input(entries[index])])
        case ..<65:
            if entries[index].shared {
                _ = try await run(Self.unshare, ["e": id, "p": .list([wendy.idValue])])
            } else {
                _ = try await run(Self.share, ["e": id, "p": .list([wendy.idValue])])
            }
            entries[index].shared.toggle()
        case ..<80:
            _ = try await run(Self.archive, ["id": id])
            entries[index].archived = true
        default:
            guard let archived = entries.indices.filter({ entries[$0].archived }).randomElement() else { return }
            _ = try await run(Self.restore, ["id": .string(entries[archived].id)])
            entries[archived].archived = false
        }
    }
}

/// A case-management system's copy of the feed: entry id to text, and what went wrong in what it
/// received (a change delivered twice, an entry going back to an older version).
final class CmsCopy: Sendable {
    private struct State {
        var cursor: String?
        var entries: [String: String] = [:]
        /// The sequences received, each change at most once.
        var sequences: Set<String> = []
        /// The newest version of each entry received so far.
        var versions: [String: Int] = [:]
        var faults: [String] = []
        var pulls = 0
    }

    private let state = Mutex(State())

    var entries: [String: String] { state.withLock { $0.entries } }
    var faults: [String] { state.withLock { $0.faults } }
    var pulls: Int { state.withLock { $0.pulls } }

    static let changes = """
        query($after: String) { export { changes(after: $after, first: 500) { items { op sequence entryId entry { text } } cursor hasMore } } }
        """

    /// Pulls pages from its cursor until the feed has no more, applying each.
    func pullToTheEnd(_ post: @Sendable (String, GraphQLObject, String) async throws -> GraphQLValue, token: String) async throws {
        while true {
            let cursor = state.withLock { $0.cursor }
            let response = try await post(Self.changes, ["after": cursor.map(GraphQLValue.string) ?? .null], token)
            guard let page = response["data"]?["export"]?["changes"], response["errors"] == nil else {
                Issue.record("the pull failed: \(response.json)")
                return
            }
            state.withLock { state in
                state.pulls += 1
                for item in page["items"]?.listValue ?? [] { Self.apply(item, to: &state) }
                state.cursor = page["cursor"]?.stringValue ?? state.cursor
            }
            if page["hasMore"] != .bool(true) { return }
        }
    }

    private static func apply(_ item: GraphQLValue, to state: inout State) {
        let sequence = item["sequence"].map { "\($0)" } ?? "?"
        guard let id = item["entryId"]?.stringValue else {
            state.faults.append("an item without an entry id: \(item.json)")
            return
        }
        if !state.sequences.insert(sequence).inserted { state.faults.append("change \(sequence) of \(id) delivered twice") }
        switch item["op"]?.stringValue {
        case "UPSERT":
            guard let text = item["entry"]?["text"]?.stringValue, let version = SimulatedEntry.version(of: text) else {
                state.faults.append("an UPSERT without its text: \(item.json)")
                return
            }
            if let newest = state.versions[id], version < newest {
                state.faults.append("\(id) went back from version \(newest) to \(version) at change \(sequence)")
            }
            state.versions[id] = max(version, state.versions[id] ?? 0)
            state.entries[id] = text
        case "TOMBSTONE":
            state.entries[id] = nil
        default:
            state.faults.append("an unknown op: \(item.json)")
        }
    }
}
