import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

// Sharing's events as other modules meet them (the rewards module will pay on EntryShared): each
// published once per change, in the change's transaction, with the people concerned; nothing for
// a change refused or for one that changes nothing.

/// A module of the test's own that keeps each sharing event, with what the handler's transaction
/// (the change's, as the person who made it) reads of the share.
private struct SharingListener: ListenerModule {
    let heard = HeardEvents()
    let names: [UUID: String]

    var name: String { "sharing-listener" }

    func register(_ module: inout ModuleRegistry) {
        let names = names
        @Sendable func people(_ ids: [UUID]) -> String { ids.map { names[$0] ?? "?" }.sorted().joined(separator: ",") }
        keep(EntryShared.self, in: &module) { event, context in
            let standing = try await Self.standing(event.entryID, context)
            return "shared by \(people([event.authorID])) with \(people(event.shareeIDs)), standing: \(people(standing))"
        }
        keep(EntryUnshared.self, in: &module) { event, context in
            let standing = try await Self.standing(event.entryID, context)
            return "unshared by \(people([event.authorID])) with \(people(event.shareeIDs)), standing: \(people(standing))"
        }
        keep(ShareSeen.self, in: &module) { event, _ in "seen by \(people([event.shareeID])) of \(people([event.authorID]))" }
        keep(ShareReplied.self, in: &module) { event, _ in "replied by \(people([event.shareeID])) to \(people([event.authorID]))" }
    }

    /// The sharees of the entry's standing shares, as the handler's transaction reads them.
    static func standing(_ entry: UUID, _ context: EventContext) async throws -> [UUID] {
        try await context.transaction.query(
            "select sharee_id from shares where tenant_id = current_tenant_id() and entry_id = $1 and unshared_at is null", entry
        ).map { try $0.decode(UUID.self, at: 0) }
    }
}

@Suite("Sharing: events")
struct SharingModuleTests {
    @Test func eachChangeIsPublishedOnceInItsTransaction() async throws {
        try await withSharingAgency { h, agency in
            let (a, w, c) = (agency.a, agency.w, agency.c)
            let listener = SharingListener(names: [a.id: "A", w.id: "W", c.id: "C", agency.w2.id: "W2"])
            let entry = try await h.write("Mine", as: a)
            func run(_ query: String, _ variables: GraphQLObject, as person: TestPerson) async throws -> GraphQLResponse {
                try await CaseloadModuleTests.run(h, modules: [listener], query, variables, token: person.token)
            }

            #expect(try await run(SharingHTTP.shareEntry, ["e": entry, "p": .list([w.idValue, agency.w2.idValue])], as: a).errors.count == 1)
            let shared = try await run(SharingHTTP.shareEntry, ["e": entry, "p": .list([w.idValue, c.idValue])], as: a)
            #expect(shared.errors.isEmpty, "\(shared.errors)")
            // Again with Wendy alone: nothing new, nothing published.
            #expect(try await run(SharingHTTP.shareEntry, ["e": entry, "p": .list([w.idValue])], as: a).errors.isEmpty)
            let share = try #require(try await h.sharedWithMe(a, as: w).first?["id"])
            #expect(try await run(SharingHTTP.markSeen, ["s": share], as: w).errors.isEmpty)
            #expect(try await run(SharingHTTP.markSeen, ["s": share], as: w).errors.isEmpty)
            #expect(try await run(SharingHTTP.reply, ["s": share, "t": .string("Thanks")], as: w).errors.isEmpty)
            let carls = try #require(try await h.sharedWithMe(a, as: c).first?["id"])
            #expect(try await run(SharingHTTP.reply, ["s": carls, "t": .string("Great")], as: c).errors.isEmpty)
            #expect(try await run(SharingHTTP.unshareEntry, ["e": entry, "p": .list([w.idValue])], as: a).errors.isEmpty)
            #expect(try await run(SharingHTTP.unshareEntry, ["e": entry], as: a).errors.isEmpty)
            #expect(try await run(SharingHTTP.unshareEntry, ["e": entry], as: a).errors.isEmpty)

            #expect(listener.heard.all == [
                "shared by A with C,W, standing: C,W",
                "seen by W of A",
                "replied by W to A",
                "seen by C of A",
                "replied by C to A",
                "unshared by A with W, standing: C",
                "unshared by A with C, standing: ",
            ])
        }
    }
}
