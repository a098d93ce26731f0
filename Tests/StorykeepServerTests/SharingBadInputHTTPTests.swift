import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 11, sharing: bad input (foreign ids, ended assignments, disabled people, over-long texts)
// is refused with BAD_USER_INPUT naming the argument, or NOT_FOUND, and changes nothing.

@Suite("Sharing over HTTP: bad input")
struct SharingBadInputHTTPTests {
    /// 501 code points that look like 251 characters: an e with a combining accent, and one more.
    static let tooLong = String(repeating: "e\u{301}", count: 250) + "!"

    @Test func sharingIsRefusedForAnyoneOutsideTheTeamNow() async throws {
        try await withSharingAgency(tenants: 2) { h, agency in
            let (a, w, c) = (agency.a, agency.w, agency.c)
            let entry = try await h.write("Mine alone", as: a)
            let elsewhere = try await h.person(.socialWorker, "otto", tenant: h.tenants[1])
            let dora = try await h.person(.socialWorker, "dora", displayName: "Dora Dunn")
            try await h.assign(a, dora, .otherProfessional, admin: agency.admin)
            _ = try await h.data("mutation($p: ID!) { disablePerson(personId: $p) { id } }", "disablePerson", ["p": dora.idValue], as: agency.admin)
            // Carl's assignment ends: he is no longer in Sam's team.
            _ = try await h.data(CaseloadHTTP.endAssignment, "endAssignment", ["id": agency.cAssignment], as: agency.admin)

            let outsiders: [(String, GraphQLValue)] = [
                ("another young person's worker", agency.w2.idValue), ("a worker of nobody's", agency.w3.idValue),
                ("an ended assignment", c.idValue), ("a switched-off adult", dora.idValue), ("an admin", agency.admin.idValue),
                ("another young person", agency.b.idValue), ("themselves", a.idValue), ("another agency's worker", elsewhere.idValue),
                ("nobody", .string(UUID().uuidString)),
            ]
            for (who, id) in outsiders {
                // Alone, or after someone of the team: nothing is shared.
                for people in [[id], [w.idValue, id]] {
                    let refused = try await h.graphQL(SharingHTTP.shareEntry, ["e": entry, "p": .list(people)], token: a.token)
                    #expect(refused.errorCode == "BAD_USER_INPUT", "\(who)")
                    #expect(refused.errorExtensions?["field"] == .string("withPersonIds"), "\(who)")
                    #expect(refused.errorMessage?.contains(id.stringValue!.lowercased()) == true, "\(who): \(refused.errorMessage ?? "")")
                }
            }
            let notAnID = try await h.graphQL(SharingHTTP.shareEntry, ["e": entry, "p": .list([.string("not-an-id")])], token: a.token)
            #expect(notAnID.errorExtensions?["field"] == .string("withPersonIds"))
            let empty = try await h.graphQL(SharingHTTP.shareEntry, ["e": entry, "p": .list([])], token: a.token)
            #expect(empty.errorExtensions?["field"] == .string("withPersonIds"))
            let long = try await h.graphQL(SharingHTTP.shareEntry, ["e": entry, "p": .list([w.idValue]), "m": .string(Self.tooLong)], token: a.token)
            #expect(long.errorExtensions?["field"] == .string("message"))
            let nul = try await h.graphQL(SharingHTTP.shareEntry, ["e": entry, "p": .list([w.idValue]), "m": .string("a\u{0}b")], token: a.token)
            #expect(nul.errorExtensions?["field"] == .string("message"))

            // Entries that are not Sam's live ones: someone else's, archived, made up.
            let theirs = try await h.write("Bea's", as: agency.b)
            let archived = try await h.write("Gone", as: a)
            _ = try await h.data("mutation($id: ID!) { deleteEntry(id: $id) }", "deleteEntry", ["id": archived], as: a)
            for other in [theirs, archived, .string(UUID().uuidString), .string("nope")] {
                let refused = try await h.graphQL(SharingHTTP.shareEntry, ["e": other, "p": .list([w.idValue])], token: a.token)
                #expect(refused.errorCode == "NOT_FOUND", "\(other)")
                #expect(try await h.graphQL(SharingHTTP.unshareEntry, ["e": other], token: a.token).errorCode == "NOT_FOUND", "\(other)")
            }

            // Nothing was shared, nobody told.
            #expect(try await h.data(SharingHTTP.entry, "entry", ["id": entry], as: a)["sharedWith"] == .list([]))
            #expect(try await h.sharedWithMe(a, as: w) == [])
            // (Dora, switched off, has no session to ask with: her notifications are read in the database.)
            #expect(try await h.count("notifications", ownedBy: dora.id, column: "recipient_id") == 0)
            for adult in [w, c, agency.w2, agency.w3] {
                #expect(try await h.notifications(of: adult).filter { $0["kind"] == .string("shareReceived") } == [])
            }
            // A message of exactly 500 code points is kept.
            let longest = String(repeating: "e\u{301}", count: 250)
            #expect(try await h.share(entry, with: [w], message: longest, as: a).first?["message"] == .string(longest))
        }
    }

    @Test func unsharingNamesOnlyPeopleItIsSharedWith() async throws {
        try await withSharingAgency { h, agency in
            let (a, w, c) = (agency.a, agency.w, agency.c)
            let entry = try await h.write("Shared with Wendy", as: a)
            try await h.share(entry, with: [w], as: a)
            for people in [[c.idValue], [w.idValue, c.idValue], [agency.w3.idValue], [GraphQLValue.string(UUID().uuidString)]] {
                let refused = try await h.graphQL(SharingHTTP.unshareEntry, ["e": entry, "p": .list(people)], token: a.token)
                #expect(refused.errorExtensions?["field"] == .string("personIds"), "\(people)")
            }
            let empty = try await h.graphQL(SharingHTTP.unshareEntry, ["e": entry, "p": .list([])], token: a.token)
            #expect(empty.errorExtensions?["field"] == .string("personIds"))
            // Bea cannot unshare Sam's entry.
            #expect(try await h.graphQL(SharingHTTP.unshareEntry, ["e": entry], token: agency.b.token).errorCode == "NOT_FOUND")
            #expect(try await h.sharedWithMe(a, as: w).count == 1)
        }
    }

    @Test func adultsReadOnlyTheirOwnYoungPeoplesSharesAndTheirOwnShares() async throws {
        try await withSharingAgency(tenants: 2) { h, agency in
            let (a, w, c) = (agency.a, agency.w, agency.c)
            let entry = try await h.write("For Wendy", as: a)
            let share = try #require(try await h.share(entry, with: [w], as: a).first?["id"])
            let bEntry = try await h.write("For Will", as: agency.b)
            let bShare = try #require(try await h.share(bEntry, with: [agency.w2], as: agency.b).first?["id"])

            // sharedWithMe names a young person the adult looks after now.
            let elsewhere = try await h.person(.youngPerson, "olly", tenant: h.tenants[1])
            for (who, young) in [("another's young person", agency.b.idValue), ("an adult", w.idValue), ("another agency's", elsewhere.idValue),
                                 ("nobody", .string(UUID().uuidString)), ("no id", .string("nope"))] {
                let refused = try await h.graphQL(SharingHTTP.sharedWithMe, ["y": young], token: w.token)
                #expect(refused.errorCode == "BAD_USER_INPUT", "\(who)")
                #expect(refused.errorExtensions?["field"] == .string("youngPersonId"), "\(who)")
            }
            // Another adult's share, even of the same young person: as if there were none.
            for id in [bShare, .string(UUID().uuidString), .string("nope")] {
                #expect(try await h.graphQL(SharingHTTP.markSeen, ["s": id], token: w.token).errorCode == "NOT_FOUND", "\(id)")
                #expect(try await h.graphQL(SharingHTTP.reply, ["s": id, "t": .string("hi")], token: w.token).errorCode == "NOT_FOUND")
            }
            #expect(try await h.graphQL(SharingHTTP.markSeen, ["s": share], token: c.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(SharingHTTP.markSeen, ["s": share], token: agency.w2.token).errorCode == "NOT_FOUND")

            // Replies: 1 to 500 characters once trimmed, no NUL.
            for (text, what) in [("   ", "blank"), ("", "empty"), (Self.tooLong, "too long"), ("hi\u{0}", "NUL")] {
                let refused = try await h.graphQL(SharingHTTP.reply, ["s": share, "t": .string(text)], token: w.token)
                #expect(refused.errorExtensions?["field"] == .string("text"), "\(what)")
            }
            // Nothing changed: neither share seen nor replied to, nobody told.
            #expect(try await h.sharedWithMe(a, as: w).map { [$0["seenAt"], $0["reply"]] } == [[.null, .null]])
            #expect(try await h.sharedWithMe(agency.b, as: agency.w2).map { $0["seenAt"] } == [.null])
            #expect(try await h.notifications(of: a).filter { $0["kind"] != .string("assignmentStarted") } == [])
            #expect(try await h.notifications(of: agency.b).filter { $0["kind"] != .string("assignmentStarted") } == [])

            // Once the assignment ends, Wendy's share of Sam's is gone for her.
            _ = try await h.data(CaseloadHTTP.endAssignment, "endAssignment", ["id": agency.wAssignment], as: agency.admin)
            let ended = try await h.graphQL(SharingHTTP.sharedWithMe, ["y": a.idValue], token: w.token)
            #expect(ended.errorExtensions?["field"] == .string("youngPersonId"))
            #expect(try await h.graphQL(SharingHTTP.markSeen, ["s": share], token: w.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(SharingHTTP.reply, ["s": share, "t": .string("hi")], token: w.token).errorCode == "NOT_FOUND")
            #expect(try await h.data(SharingHTTP.unread, "myYoungPeople", as: w) == .list([]))
        }
    }
}
