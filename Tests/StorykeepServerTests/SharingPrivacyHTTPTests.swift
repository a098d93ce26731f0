import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 11, the privacy attack: in an agency with young people A and B, A's social worker W and
// carer C, B's worker W2, a worker of nobody's W3 and an admin (and a second agency), A shares
// one entry with W only. Everyone tries every path (`entry`, `entries`, `search`, `calendar`,
// `archive`, `tags`, `sharedWithMe`, the media URL, `notifications`); only W reads, and exactly
// what A shared, until A unshares, the assignment ends or the entry is archived, and again after
// a restore. (`prompts` comes with the prompts module.) The same attack as direct SQL is
// SharingPolicyTests.

@Suite("Sharing over HTTP: the privacy attack")
struct SharingPrivacyHTTPTests {
    /// A's journal: e1 (shared with W; tag `football`, file m1), e2 (never shared; tag `secret`,
    /// file m2), e3 (archived), all with the word "zebra".
    struct Journal {
        let e1: GraphQLValue, e2: GraphQLValue, e3: GraphQLValue
        let m1: String, m2: String

        init(_ h: AccountsHarness, _ a: TestPerson) async throws {
            let football = try await h.tag("football", as: a), secret = try await h.tag("secret", as: a)
            let photo1 = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: a.token)
            let photo2 = try await h.uploadMedia(SampleMedia.jpeg, contentType: "image/jpeg", token: a.token)
            e1 = try await h.write("zebra at football", tags: [football], media: [photo1["id"]!], as: a)
            e2 = try await h.write("zebra secret", tags: [secret], media: [photo2["id"]!], as: a)
            e3 = try await h.write("zebra gone", as: a)
            _ = try await h.data("mutation($id: ID!) { deleteEntry(id: $id) }", "deleteEntry", ["id": e3], as: a)
            m1 = try #require(photo1["url"]?.stringValue)
            m2 = try #require(photo2["url"]?.stringValue)
        }
    }

    /// What one person reads of A's by every path.
    struct Reading: Equatable, CustomStringConvertible {
        /// A's entries found by `entry`, `entries`, `search`, `archive`; A's entries counted by
        /// `calendar`; A's tags among `tags`.
        var journal: [String] = []
        /// `sharedWithMe(A)`: the entries, their tag names and files; or the error code.
        var shared: [String] = []
        /// The media URLs' statuses.
        var media: [Int] = []
        /// Notifications about A's entries, by kind.
        var told: [String] = []

        var description: String { "journal \(journal), shared \(shared), media \(media), told \(told)" }
    }

    static func read(_ h: AccountsHarness, _ person: TestPerson, _ a: TestPerson, _ j: Journal) async throws -> Reading {
        var reading = Reading()
        let ours = Set([j.e1, j.e2, j.e3].compactMap(\.stringValue))
        for id in [j.e1, j.e2, j.e3] {
            let found = try await h.graphQL("query($id: ID!) { entry(id: $id) { id } }", ["id": id], token: person.token)
            if let id = found["data"]?["entry"]?.id { reading.journal.append("entry \(id)") }
        }
        for (name, query) in [
            ("entries", "{ entries(first: 100) { edges { node { id } } } }"),
            ("search", #"{ search(query: "zebra", first: 100) { edges { node { id } } } }"#),
            ("archive", "{ archive(first: 100) { edges { node { id } } } }"),
        ] {
            let found = try await h.graphQL(query, token: person.token)
            let ids = found["data"]?[name]?.nodes.compactMap(\.id) ?? []
            reading.journal += ids.filter(ours.contains).map { "\(name) \($0)" }
        }
        let calendar = try await h.graphQL(#"{ calendar(month: "2026-11") { entryCount } }"#, token: person.token)
        if let count = calendar["data"]?["calendar"]?.listValue?[19]["entryCount"]?.intValue, count > 0 {
            reading.journal.append("calendar \(count)")
        }
        let tags = try await h.graphQL("{ tags { name } }", token: person.token)
        reading.journal += (tags["data"]?["tags"]?.listValue ?? []).compactMap { $0["name"]?.stringValue }
            .filter { ["football", "secret"].contains($0) }.map { "tag \($0)" }

        let shared = try await h.graphQL(SharingHTTP.sharedWithMe, ["y": a.idValue, "first": .int(100)], token: person.token)
        if let code = shared.errorCode {
            reading.shared = [code]
        } else {
            for node in shared["data"]?["sharedWithMe"]?.nodes ?? [] {
                let entry = node["entry"]
                reading.shared.append("\(entry?["id"]?.stringValue ?? "?") \(entry?["text"]?.stringValue ?? "?")")
                reading.shared += (entry?["tags"]?.listValue ?? []).compactMap { $0["name"]?.stringValue }.map { "tag \($0)" }
                reading.shared += (entry?["media"]?.listValue ?? []).compactMap { $0["url"]?.stringValue }
            }
        }
        reading.media = [try await h.get(j.m1, token: person.token).status.code, try await h.get(j.m2, token: person.token).status.code]
        let told = try await h.graphQL(SharingHTTP.notifications, token: person.token)
        reading.told = (told["data"]?["notifications"]?.nodes ?? [])
            .filter { ours.contains($0["subjectId"]?.stringValue ?? "") }.compactMap { $0["kind"]?.stringValue }
        return reading
    }

    @Test func onlyTheSharedWorkerReadsAndOnlyWhatWasShared() async throws {
        try await withSharingAgency(tenants: 2) { h, agency in
            let (a, w) = (agency.a, agency.w)
            let j = try await Journal(h, a)
            try await h.share(j.e1, with: [w], message: "for you", as: a)

            let e1 = try #require(j.e1.stringValue)
            let sharedE1 = Reading(
                shared: ["\(e1) zebra at football", "tag football", j.m1], media: [200, 404], told: ["shareReceived"])
            let nothing = Reading(media: [404, 404])
            #expect(try await Self.read(h, w, a, j) == sharedE1)
            #expect(try await Self.read(h, agency.c, a, j) == nothing)
            for (who, person) in [("W2", agency.w2), ("W3", agency.w3)] {
                #expect(try await Self.read(h, person, a, j) == Reading(shared: ["BAD_USER_INPUT"], media: [404, 404]), "\(who)")
            }
            for (who, person) in [("B", agency.b), ("the admin", agency.admin)] {
                #expect(try await Self.read(h, person, a, j) == Reading(shared: ["FORBIDDEN"], media: [404, 404]), "\(who)")
            }
            // Another agency's people: their sessions are nothing here.
            let olly = try await h.person(.youngPerson, "olly", tenant: h.tenants[1])
            #expect(try await h.graphQL(SharingHTTP.sharedWithMe, ["y": a.idValue], token: olly.token).errorCode == "UNAUTHENTICATED")
            #expect(try await h.get(j.m1, token: olly.token).status == .unauthorized)

            // A unshares: nothing, at once. Shares again: back.
            _ = try await h.data(SharingHTTP.unshareEntry, "unshareEntry", ["e": j.e1], as: a)
            #expect(try await Self.read(h, w, a, j) == Reading(media: [404, 404], told: ["shareReceived"]))
            try await h.share(j.e1, with: [w], as: a)
            #expect(try await Self.read(h, w, a, j).shared == sharedE1.shared)

            // The assignment ends: nothing. A new assignment does not bring the old share back; a
            // new share does.
            _ = try await h.data(CaseloadHTTP.endAssignment, "endAssignment", ["id": agency.wAssignment], as: agency.admin)
            #expect(try await Self.read(h, w, a, j) == Reading(shared: ["BAD_USER_INPUT"], media: [404, 404], told: ["shareReceived", "shareReceived"]))
            try await h.assign(a, w, .socialWorker, admin: agency.admin)
            #expect(try await Self.read(h, w, a, j) == Reading(media: [404, 404], told: ["shareReceived", "shareReceived"]))
            try await h.share(j.e1, with: [w], as: a)
            #expect(try await Self.read(h, w, a, j).shared == sharedE1.shared)

            // A archives it: nothing. A restores it: back, file and all.
            _ = try await h.data("mutation($id: ID!) { deleteEntry(id: $id) }", "deleteEntry", ["id": j.e1], as: a)
            #expect(try await Self.read(h, w, a, j).shared == [])
            #expect(try await Self.read(h, w, a, j).media == [404, 404])
            #expect(try await h.data(SharingHTTP.unread, "myYoungPeople", as: w).listValue?.first?["unreadShares"] == .int(0))
            _ = try await h.data("mutation($id: ID!) { restoreEntry(id: $id) { id } }", "restoreEntry", ["id": j.e1], as: a)
            let restored = try await Self.read(h, w, a, j)
            #expect(restored.shared == sharedE1.shared && restored.media == [200, 404])
            #expect(try await h.data(SharingHTTP.unread, "myYoungPeople", as: w).listValue?.first?["unreadShares"] == .int(1))

            // Everyone else still reads nothing; A still reads all of their own.
            #expect(try await Self.read(h, agency.c, a, j) == nothing)
            #expect(try await Self.read(h, agency.w3, a, j) == Reading(shared: ["BAD_USER_INPUT"], media: [404, 404]))
            let own = try await Self.read(h, a, a, j)
            #expect(own.journal.count == 10 && own.media == [200, 200] && own.shared == ["FORBIDDEN"], "\(own)")
        }
    }

    /// The agency switches sharing off (`tenant apply` of its file without `sharing`): W's copy of
    /// the shared file is gone at once, whatever the server's cache of tenant files holds, and the
    /// author's stays; back on, the standing share is back (switching off is not unsharing).
    @Test func switchingSharingOffClosesEveryShareAtOnce() async throws {
        try await withSharingAgency { h, agency in
            let (a, w) = (agency.a, agency.w)
            let j = try await Journal(h, a)
            try await h.share(j.e1, with: [w], as: a)
            #expect(try await h.get(j.m1, token: w.token).status == .ok)

            var off = h.tenant.file
            off.modules.removeAll { $0 == .sharing }
            _ = try await TenantStore(pool: h.owner).apply([off])
            #expect(try await h.get(j.m1, token: w.token).status == .notFound)
            #expect(try await h.get(j.m1, token: a.token).status == .ok)

            _ = try await TenantStore(pool: h.owner).apply([h.tenant.file])
            #expect(try await h.get(j.m1, token: w.token).status == .ok)
        }
    }
}
