import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 11, prompts from adults: an adult who looks after a young person sends prompts; the young
// person answers one with an entry (`input.promptId`) or dismisses it; the adult sees whether and
// when, never the entry; the agency's limit of open prompts holds against concurrent senders;
// every bad input is refused, naming the argument, changing nothing. Over HTTP with a real
// PostgreSQL.

@Suite("Prompts from adults over HTTP")
struct PromptsHTTPTests {
    static let createEntry = "mutation($i: EntryInput!) { createEntry(input: $i) { id text } }"
    static let updateEntry = "mutation($id: ID!, $i: EntryInput!) { updateEntry(id: $id, input: $i) { id text } }"

    /// The variables of ``createEntry`` (or, with `id`, of ``updateEntry``): an `EntryInput` of
    /// text answering `prompt` (none when nil).
    static func entry(_ text: String, answering prompt: GraphQLValue?, id: GraphQLValue? = nil) -> GraphQLObject {
        var input: GraphQLObject = ["date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string(text)]
        if let prompt { input["promptId"] = prompt }
        var variables: GraphQLObject = ["i": .object(input)]
        if let id { variables["id"] = id }
        return variables
    }

    @Test func anAdultSendsAPromptAndTheYoungPersonAnswersItWithAnEntry() async throws {
        try await withAccounts { h in
            let (admin, sam, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)

            let sent = try await h.sendPrompt("  How did the football trial go?\n", to: sam, from: wendy)
            #expect(sent["text"] == .string("How did the football trial go?"))
            #expect(sent["status"] == .string("OPEN"))
            #expect(sent["answeredAt"] == .null)
            #expect(sent["youngPerson"] == .object(["id": sam.idValue, "displayName": .string("Sam")]))
            let received = try #require(try await h.notices(of: sam).first)
            #expect(received.kind == "promptReceived")
            #expect(received.title == "Wendy Walker sent you a prompt")
            #expect(received.subject == sent.id)
            #expect(received.actor == wendy.idValue.stringValue)

            let open = try await h.data(PromptsHTTP.prompts, "prompts", ["open": .bool(true)], as: sam).listValue ?? []
            #expect(open.map(\.id) == [sent.id])
            #expect(open.first?["from"] == .object(["id": wendy.idValue, "displayName": .string("Wendy Walker")]))
            #expect(open.first?["entry"] == .null)

            let entry = try await h.data(Self.createEntry, "createEntry", Self.entry("Scored once, so happy", answering: sent["id"]), as: sam)
            #expect(try await h.data(PromptsHTTP.prompts, "prompts", ["open": .bool(true)], as: sam) == .list([]))
            let answered = try #require(try await h.data(PromptsHTTP.prompts, "prompts", ["open": .bool(false)], as: sam).listValue?.first)
            #expect(answered["status"] == .string("ANSWERED"))
            #expect(answered["answeredAt"]?.stringValue != nil)
            #expect(answered["entry"] == entry)

            // The adult: whether and when, and a notification that says who; never the entry.
            let response = try await h.graphQL(PromptsHTTP.sent, ["y": sam.idValue], token: wendy.token)
            let seen = try #require(response["data"]?["sentPrompts"]?.listValue)
            #expect(seen.map(\.id) == [sent.id])
            #expect(seen.first?["status"] == .string("ANSWERED"))
            #expect(seen.first?["answeredAt"] == answered["answeredAt"])
            let told = try await h.notices(of: wendy)
            #expect(told.map(\.kind) == ["promptAnswered"])
            #expect(told.first?.title == "Sam answered your prompt")
            #expect(told.first?.subject == sent.id)
            let everything = response.json + (try await h.graphQL("{ notifications { edges { node { title } } } }", token: wendy.token).json)
            #expect(!everything.contains("Scored"))
            #expect(try await h.graphQL("query($y: ID!) { sentPrompts(youngPersonId: $y) { entry { id } } }", ["y": sam.idValue], token: wendy.token)
                .errorCode == "GRAPHQL_VALIDATION_FAILED")
            #expect(try await h.graphQL("query($id: ID!) { entry(id: $id) { id } }", ["id": entry["id"]!], token: wendy.token)["data"]?["entry"] == .null)

            // Updating the entry with its input as it was (the prompt it answers) changes nothing more.
            let updated = try await h.data(Self.updateEntry, "updateEntry", Self.entry("Scored once!", answering: sent["id"], id: entry["id"]), as: sam)
            #expect(updated["text"] == .string("Scored once!"))
            #expect(try await h.notices(of: wendy).count == 1)
        }
    }

    @Test func anEntryAnswersOnlyAnOpenPromptOfItsAuthorsOrIsNotWritten() async throws {
        try await withAccounts { h in
            let (admin, sam, alex, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.alex), h.cast(.wendy))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(alex, wendy, .socialWorker, admin: admin)
            let open = try await h.sendPrompt("What was the best bit of today?", to: sam, from: wendy)["id"]!
            let alexs = try await h.sendPrompt("How is school?", to: alex, from: wendy)["id"]!
            let dismissed = try await h.sendPrompt("Anything to tell me?", to: sam, from: wendy)["id"]!
            _ = try await h.data(PromptsHTTP.dismiss, "dismissPrompt", ["id": dismissed], as: sam)
            let answered = try await h.sendPrompt("What are you proud of?", to: sam, from: wendy)["id"]!
            let first = try await h.data(Self.createEntry, "createEntry", Self.entry("The first answer", answering: answered), as: sam)
            let other = try await h.data(Self.createEntry, "createEntry", Self.entry("No answer yet", answering: nil), as: sam)

            let refused: [(String, GraphQLValue)] = [
                ("no id", .string("nope")), ("nobody's", .string(UUID().uuidString.lowercased())),
                ("another young person's", alexs), ("dismissed", dismissed), ("answered with another entry", answered),
            ]
            for (what, id) in refused {
                let created = try await h.graphQL(Self.createEntry, Self.entry("Refused with it", answering: id), token: sam.token)
                #expect(created.errorCode == "BAD_USER_INPUT", "\(what): \(created.json)")
                #expect(created.errorExtensions?["field"] == .string("input.promptId"), "\(what)")
                #expect(created["data"] == .null, "\(what)")
                let update = Self.entry("Changed with it", answering: id, id: other["id"])
                let updated = try await h.graphQL(Self.updateEntry, update, token: sam.token)
                #expect(updated.errorExtensions?["field"] == .string("input.promptId"), "\(what): \(updated.json)")
            }
            // An adult's own journal answers no prompt either.
            let wendys = try await h.graphQL(Self.createEntry, Self.entry("Mine", answering: open), token: wendy.token)
            #expect(wendys.errorExtensions?["field"] == .string("input.promptId"), "\(wendys.json)")
            // Nothing was written or changed: two entries, as they were; the open prompt still open.
            let entries: [GraphQLValue] = try await h.data("{ entries { edges { node { id text } } } }", "entries", as: sam).nodes
            #expect(Set(entries) == Set([first, other]))
            let still: [String?] = try await h.data(PromptsHTTP.prompts, "prompts", ["open": .bool(true)], as: sam).listValue?.map(\.id) ?? []
            #expect(still == [open.stringValue])
            let alexsOpen: [String?] = try await h.data(PromptsHTTP.prompts, "prompts", ["open": .bool(true)], as: alex).listValue?.map(\.id) ?? []
            #expect(alexsOpen == [alexs.stringValue])
            #expect(try await h.notices(of: wendy).count == 1, "told of the one answer only")
            // An existing entry may answer an open prompt when updated.
            let update = Self.entry("An answer after all", answering: open, id: other["id"])
            _ = try await h.data(Self.updateEntry, "updateEntry", update, as: sam)
            #expect(try await h.data(PromptsHTTP.prompts, "prompts", ["open": .bool(true)], as: sam) == .list([]))
        }
    }

    @Test func sendingIsForAnAdultWhoLooksAfterTheYoungPersonNow() async throws {
        try await withAccounts(tenants: 2) { h in
            let (admin, sam, alex, zoe, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.alex), h.cast(.zoe), h.cast(.wendy))
            let (ivy, dora, carl, olly) = try await (h.cast(.ivy), h.cast(.dora), h.cast(.carl), h.cast(.olly, tenant: h.tenants[1]))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(zoe, wendy, .socialWorker, admin: admin)
            try await h.assign(alex, ivy, .socialWorker, admin: admin)
            let carls = try await h.assign(sam, carl, .carer, admin: admin)
            _ = try await h.data(CaseloadHTTP.endAssignment, "endAssignment", ["id": carls["id"]!], as: admin)
            _ = try await h.data("mutation($p: ID!) { disablePerson(personId: $p) { disabled } }", "disablePerson", ["p": zoe.idValue], as: admin)

            let fiveHundred = String(repeating: "e\u{301}", count: 250)
            let kept = try await h.sendPrompt(fiveHundred, to: sam, from: wendy)
            #expect(kept["text"]?.stringValue?.unicodeScalars.count == 500)

            let unknown = GraphQLValue.string(UUID().uuidString.lowercased())
            let refused: [(what: String, adult: TestPerson, young: GraphQLValue, text: String, field: String)] = [
                ("a worker of another young person", ivy, sam.idValue, "Hi", "youngPersonId"),
                ("a worker assigned to nobody", dora, sam.idValue, "Hi", "youngPersonId"),
                ("an ended assignment", carl, sam.idValue, "Hi", "youngPersonId"),
                ("a switched-off young person", wendy, zoe.idValue, "Hi", "youngPersonId"),
                ("another agency's young person", wendy, olly.idValue, "Hi", "youngPersonId"),
                ("nobody", wendy, unknown, "Hi", "youngPersonId"),
                ("no id", wendy, .string("nope"), "Hi", "youngPersonId"),
                ("an adult", wendy, ivy.idValue, "Hi", "youngPersonId"),
                ("an empty text", wendy, sam.idValue, "", "text"),
                ("a blank text", wendy, sam.idValue, " \n\t ", "text"),
                ("501 characters", wendy, sam.idValue, fiveHundred + "!", "text"),
            ]
            for (what, adult, young, text, field) in refused {
                let response = try await h.graphQL(PromptsHTTP.send, ["y": young, "t": .string(text)], token: adult.token)
                #expect(response.errorCode == "BAD_USER_INPUT", "\(what): \(response.json)")
                #expect(response.errorExtensions?["field"] == .string(field), "\(what): \(response.json)")
                #expect(response["data"] == .null, "\(what)")
            }
            for person in [sam, admin] {
                let forbidden = try await h.graphQL(PromptsHTTP.send, ["y": sam.idValue, "t": .string("Hi")], token: person.token)
                #expect(forbidden.errorCode == "FORBIDDEN")
            }
            #expect(try await h.graphQL(PromptsHTTP.send, ["y": sam.idValue, "t": .string("Hi")]).errorCode == "UNAUTHENTICATED")
            for (adult, young) in [(dora, sam.idValue), (wendy, olly.idValue), (carl, sam.idValue), (wendy, .string("nope"))] {
                let listed = try await h.graphQL(PromptsHTTP.sent, ["y": young], token: adult.token)
                #expect(listed.errorExtensions?["field"] == .string("youngPersonId"), "\(listed.json)")
            }
            for first in [-1, 101] {
                let listed = try await h.graphQL(PromptsHTTP.sent, ["y": sam.idValue, "first": .int(first)], token: wendy.token)
                #expect(listed.errorExtensions?["field"] == .string("first"), "\(listed.json)")
            }
            // Nothing but the one prompt was sent, and only it was told.
            #expect(try await h.data(PromptsHTTP.prompts, "prompts", as: sam).listValue?.map(\.id) == [kept.id])
            #expect(try await h.data(PromptsHTTP.prompts, "prompts", as: alex) == .list([]))
            #expect(try await h.notices(of: sam).filter { $0.kind == "promptReceived" }.count == 1)
        }
    }

    @Test func theAgencysLimitOfOpenPromptsHoldsAgainstConcurrentSenders() async throws {
        try await withAccounts(poolSize: 8, tweak: { _, file in file.adultPrompts.maxOpenPerYoungPerson = 3 }) { h in
            let (admin, sam, wendy, carl) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy), h.cast(.carl))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(sam, carl, .carer, admin: admin)
            let responses = try await withThrowingTaskGroup(of: GraphQLValue.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await h.graphQL(
                            PromptsHTTP.send, ["y": sam.idValue, "t": .string("Prompt \(index)")],
                            token: (index % 2 == 0 ? wendy : carl).token)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let refusals = responses.filter { $0["errors"] != nil }
            #expect(responses.count - refusals.count == 3)
            for refusal in refusals {
                #expect(refusal.errorExtensions?["field"] == .string("youngPersonId"), "\(refusal.json)")
                #expect(refusal.errorMessage?.contains("3 open prompts") == true, "\(refusal.json)")
            }
            let open = try await h.data(PromptsHTTP.prompts, "prompts", ["open": .bool(true)], as: sam).listValue ?? []
            #expect(open.count == 3)
            #expect(try await h.notices(of: sam).filter { $0.kind == "promptReceived" }.count == 3)
            // Dismissing one makes room for one more.
            _ = try await h.data(PromptsHTTP.dismiss, "dismissPrompt", ["id": open[0]["id"]!], as: sam)
            try await h.sendPrompt("One more", to: sam, from: carl)
            let full = try await h.graphQL(PromptsHTTP.send, ["y": sam.idValue, "t": .string("And another")], token: wendy.token)
            #expect(full.errorExtensions?["field"] == .string("youngPersonId"))
        }
    }

    @Test func eachPersonSeesOnlyTheirOwnPrompts() async throws {
        try await withAccounts(tenants: 2) { h in
            let (admin, sam, alex, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.alex), h.cast(.wendy))
            let (carl, ivy, dora) = try await (h.cast(.carl), h.cast(.ivy), h.cast(.dora))
            let wendys = try await h.assign(sam, wendy, .socialWorker, admin: admin)
            try await h.assign(sam, carl, .carer, admin: admin)
            try await h.assign(alex, ivy, .socialWorker, admin: admin)
            let fromWendy = try await h.sendPrompt("Wendy asks", to: sam, from: wendy)
            let fromCarl = try await h.sendPrompt("Carl asks", to: sam, from: carl)
            let toAlex = try await h.sendPrompt("Ivy asks", to: alex, from: ivy)

            #expect(try await h.data(PromptsHTTP.prompts, "prompts", as: sam).listValue?.map(\.id) == [fromCarl.id, fromWendy.id])
            #expect(try await h.data(PromptsHTTP.prompts, "prompts", as: alex).listValue?.map(\.id) == [toAlex.id])
            #expect(try await h.data(PromptsHTTP.sent, "sentPrompts", ["y": sam.idValue], as: wendy).listValue?.map(\.id) == [fromWendy.id])
            #expect(try await h.data(PromptsHTTP.sent, "sentPrompts", ["y": sam.idValue], as: carl).listValue?.map(\.id) == [fromCarl.id])
            for person in [ivy, dora] {
                #expect(try await h.graphQL(PromptsHTTP.sent, ["y": sam.idValue], token: person.token).errorCode == "BAD_USER_INPUT")
            }
            for person in [admin, wendy] {
                #expect(try await h.graphQL(PromptsHTTP.prompts, token: person.token).errorCode == "FORBIDDEN")
            }
            #expect(try await h.graphQL(PromptsHTTP.sent, ["y": sam.idValue], token: admin.token).errorCode == "FORBIDDEN")
            #expect(try await h.graphQL(PromptsHTTP.prompts).errorCode == "UNAUTHENTICATED")
            // Nobody else closes Sam's prompts; Alex does not even find them.
            #expect(try await h.graphQL(PromptsHTTP.dismiss, ["id": fromWendy["id"]!], token: wendy.token).errorCode == "FORBIDDEN")
            #expect(try await h.graphQL(PromptsHTTP.dismiss, ["id": fromWendy["id"]!], token: alex.token).errorCode == "NOT_FOUND")
            // Nothing about Sam's prompts reached anyone but Sam.
            for person in [alex, ivy, dora, admin, carl, wendy] {
                let subjects = try await h.notices(of: person).compactMap(\.subject)
                #expect(subjects.allSatisfy { $0 != fromWendy.id && $0 != fromCarl.id }, "\(person.loginName)")
            }
            // Another agency's people: their own, empty; Sam's ids mean nothing there.
            let olly = try await h.cast(.olly, tenant: h.tenants[1])
            let foreign = try await h.graphQL(PromptsHTTP.prompts, token: olly.token, tenant: h.tenants[1])
            #expect(foreign["data"]?["prompts"] == .list([]), "\(foreign.json)")
            let foreignDismiss = try await h.graphQL(PromptsHTTP.dismiss, ["id": fromWendy["id"]!], token: olly.token, tenant: h.tenants[1])
            #expect(foreignDismiss.errorCode == "NOT_FOUND")

            // Once Wendy no longer looks after Sam: she sees nothing of it, and is not told of the answer.
            _ = try await h.data(CaseloadHTTP.endAssignment, "endAssignment", ["id": wendys["id"]!], as: admin)
            #expect(try await h.graphQL(PromptsHTTP.sent, ["y": sam.idValue], token: wendy.token).errorCode == "BAD_USER_INPUT")
            let kept = try await h.data(PromptsHTTP.prompts, "prompts", ["open": .bool(true)], as: sam).listValue ?? []
            #expect(kept.map(\.id) == [fromCarl.id, fromWendy.id])
            #expect(kept.last?["from"] == .null)
            _ = try await h.data(Self.createEntry, "createEntry", Self.entry("For Wendy", answering: fromWendy["id"]), as: sam)
            #expect(try await h.notices(of: wendy).isEmpty)
        }
    }

    @Test func theYoungPersonDismissesAPromptOnce() async throws {
        try await withAccounts { h in
            let (admin, sam, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            let sent = try await h.sendPrompt("Not now?", to: sam, from: wendy)
            let dismissed = try await h.data(PromptsHTTP.dismiss, "dismissPrompt", ["id": sent["id"]!], as: sam)
            #expect(dismissed["status"] == .string("DISMISSED"))
            #expect(dismissed["dismissedAt"]?.stringValue != nil)
            let again = try await h.graphQL(PromptsHTTP.dismiss, ["id": sent["id"]!], token: sam.token)
            #expect(again.errorCode == "BAD_USER_INPUT")
            #expect(again.errorExtensions?["field"] == .string("id"))
            for id in [GraphQLValue.string("nope"), .string(UUID().uuidString.lowercased())] {
                #expect(try await h.graphQL(PromptsHTTP.dismiss, ["id": id], token: sam.token).errorCode == "NOT_FOUND")
            }
            let seen = try await h.data(PromptsHTTP.sent, "sentPrompts", ["y": sam.idValue], as: wendy).listValue ?? []
            #expect(seen.map { $0["status"] } == [.string("DISMISSED")])
            #expect(seen.first?["answeredAt"] == .null)
            #expect(try await h.data(PromptsHTTP.prompts, "prompts", ["open": .bool(false)], as: sam) == .list([dismissed]))
        }
    }
}
