import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 13's privacy attack on messages over HTTP: Sam and Fay (friends) talk, with a photo; Sam
// and his social worker Wes talk too. Then everyone else tries every path (the conversations,
// one by id, its messages, the unread count, the photo's URL, notifications about it, and
// writing into it): Bo (Sam's friend whom Sam then blocked), Nia (nobody's friend), Stu
// (suspended), Una (an unrelated social worker), Ada (the admin) and Olly (another agency). Each
// gets nothing. The same attack as direct SQL is MessagingPolicyTests.
@Suite("Messaging over HTTP: the privacy attack")
struct MessagingPrivacyHTTPTests {
    /// What one person gets of Sam and Fay's conversation by every path.
    struct Reading: Equatable {
        var conversations: [String] = []
        var byID: GraphQLValue? = nil
        var messages: [String] = []
        var messagesError: String?
        var unread = 0
        var photo = 0
        var told: [String] = []
        var sendInto: String?
        var sendToSam: String?
    }

    static func read(_ h: AccountsHarness, _ person: TestPerson, conversation: String, photo: String, tenant: TestTenant? = nil) async throws -> Reading {
        let ask = { (query: String, variables: GraphQLObject) in try await h.graphQL(query, variables, token: person.token, tenant: tenant) }
        var reading = Reading()
        reading.conversations = try await ask(MessagingHTTP.conversations, [:])["data"]?["conversations"]?.listValue?.compactMap { $0["id"]?.stringValue } ?? []
        reading.byID = try await ask(MessagingHTTP.conversation, ["c": .string(conversation)])["data"]?["conversation"].flatMap { $0 == .null ? nil : $0 }
        let messages = try await ask(MessagingHTTP.messages, ["c": .string(conversation)])
        reading.messages = messages["data"]?["messages"]?.nodes.compactMap { $0["text"]?.stringValue } ?? []
        reading.messagesError = messages.errorCode
        reading.unread = try await ask("{ unreadMessageCount }", [:])["data"]?["unreadMessageCount"]?.intValue ?? 0
        reading.photo = Int(try await h.get(photo, token: person.token).status.code)
        reading.told = (try await ask("{ notifications(first: 100) { edges { node { kind subjectId } } } }", [:])["data"]?["notifications"]?.nodes ?? [])
            .filter { $0["subjectId"]?.stringValue == conversation }.compactMap { $0["kind"]?.stringValue }
        reading.sendInto = try await ask(MessagingHTTP.sendInto, ["c": .string(conversation), "t": "let me in"]).errorCode
        return reading
    }

    @Test func everyoneElseTriesEveryPathAndGetsNothing() async throws {
        try await withAccounts(tenants: 2, tweak: MessagingHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam"), fay = try await h.person(.youngPerson, "fay")
            let bo = try await h.person(.youngPerson, "bo"), nia = try await h.person(.youngPerson, "nia"), stu = try await h.person(.youngPerson, "stu")
            let wes = try await h.person(.socialWorker, "wes"), una = try await h.person(.socialWorker, "una")
            for (person, name) in [(sam, "Sky"), (fay, "Fay"), (bo, "Bo"), (nia, "Nia"), (stu, "Stu")] { try await h.socialProfile(person, name) }
            try await h.befriend(sam, fay)
            try await h.befriend(sam, bo)
            try await h.befriend(stu, fay)
            try await h.assign(sam, wes, .socialWorker, admin: ada)
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: sam.token)
            let first = try await h.data(
                "mutation($p: ID!, $m: [ID!]) { sendMessage(personId: $p, text: \"secret plans\", mediaIds: $m) { conversationId media { url } } }",
                "sendMessage", ["p": fay.idValue, "m": .list([photo["id"]!])], as: sam)
            let conversation = try #require(first["conversationId"]?.stringValue)
            let photoURL = try #require(first["media"]?[0]?["url"]?.stringValue)
            _ = try await h.message("more secrets", to: sam, as: fay)
            let withBo = try #require(try await h.message("hi bo", to: bo, as: sam)["conversationId"]?.stringValue)
            let withWes = try #require(try await h.message("hi wes", to: wes, as: sam)["conversationId"]?.stringValue)
            _ = try await h.data(SocialHTTP.block, "blockPerson", ["p": bo.idValue], as: sam)
            _ = try await h.data(
                "mutation($p: ID!) { suspendPerson(personId: $p, until: \"2100-01-01T00:00:00Z\", reason: \"a break\") }", "suspendPerson",
                ["p": stu.idValue], as: ada)

            // Fay, in it: everything.
            let fays = try await Self.read(h, fay, conversation: conversation, photo: photoURL)
            #expect(fays.messages.suffix(2) == ["more secrets", "secret plans"] && fays.photo == 200 && fays.sendInto == nil)

            let nothing = Reading(messagesError: "NOT_FOUND", photo: 404, sendInto: "NOT_FOUND")
            // Bo, blocked by Sam: not even his own conversation with Sam any more.
            #expect(try await Self.read(h, bo, conversation: conversation, photo: photoURL) == nothing)
            #expect(try await h.graphQL(MessagingHTTP.messages, ["c": .string(withBo)], token: bo.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(MessagingHTTP.sendTo, ["p": sam.idValue, "t": "hey"], token: bo.token).errorCode == "NOT_FOUND")
            // Nia, nobody's friend; Una, an unrelated adult: nothing, and they cannot write to Sam.
            for person in [nia, una] {
                #expect(try await Self.read(h, person, conversation: conversation, photo: photoURL) == nothing, "\(person.loginName)")
                #expect(try await h.graphQL(MessagingHTTP.sendTo, ["p": sam.idValue, "t": "hey"], token: person.token).errorCode == "NOT_FOUND")
            }
            // Wes, Sam's social worker: his own conversation with Sam, not Sam's with Fay.
            let wesReads = try await Self.read(h, wes, conversation: conversation, photo: photoURL)
            #expect(wesReads == Reading(conversations: [withWes], messagesError: "NOT_FOUND", unread: 1, photo: 404, sendInto: "NOT_FOUND"))
            // Stu, suspended (and Fay's friend): nothing of theirs, and cannot write to Fay.
            #expect(try await Self.read(h, stu, conversation: conversation, photo: photoURL) == Reading(messagesError: "NOT_FOUND", photo: 404, sendInto: "NOT_FOUND"))
            #expect(try await h.graphQL(MessagingHTTP.sendTo, ["p": fay.idValue, "t": "hey"], token: stu.token).errorCode == "FORBIDDEN")
            // Ada, the admin: no conversation is hers to read (nothing was reported).
            #expect(try await Self.read(h, ada, conversation: conversation, photo: photoURL) == nothing)
            #expect(try await h.data(MessagingHTTP.reported, "reportedMessages", as: ada).nodes == [])
            // Olly, of another agency: nothing here, nothing through his own agency.
            let olly = try await h.person(.youngPerson, "olly", tenant: h.tenants[1])
            #expect(try await h.graphQL(MessagingHTTP.conversations, token: olly.token).errorCode == "UNAUTHENTICATED")
            #expect(try await Self.read(h, olly, conversation: conversation, photo: photoURL, tenant: h.tenants[1])
                == Reading(messagesError: "NOT_FOUND", photo: 401, sendInto: "NOT_FOUND"))
            // Only Fay was told of the conversation.
            #expect(fays.told == ["messageReceived"])
        }
    }
}
