import Foundation
import GraphQL
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 13's private messages over HTTP (Schema/messaging.graphql): who may message whom, the
// conversations with their unread counts and read receipts, paging back in time, notifications,
// reports and removals, and every refusal changing nothing.
@Suite("Messaging over HTTP")
struct MessagingHTTPTests {
    @Test func friendsTalkWithUnreadCountsReadReceiptsAndOneNotificationPerBurst() async throws {
        try await withAccounts(tweak: MessagingHTTP.tenant) { h in
            let sam = try await h.person(.youngPerson, "sam"), fay = try await h.person(.youngPerson, "fay")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(fay, "Fay")
            try await h.befriend(sam, fay)
            let first = try await h.message("hi fay", to: fay, as: sam)
            #expect(first["mine"] == true && first["readAt"] == .null)
            let conversation = try #require(first["conversationId"]?.stringValue)
            _ = try await h.data(MessagingHTTP.sendInto, "sendMessage", ["c": .string(conversation), "t": "are you there?"], as: sam)

            let fays = try await h.data(MessagingHTTP.conversations, "conversations", as: fay)
            #expect(fays.listValue?.count == 1)
            #expect(fays[0]?["displayName"] == "Sky" && fays[0]?["unreadCount"] == 2 && fays[0]?["canSend"] == true)
            #expect(fays[0]?["lastMessage"]?["text"] == "are you there?")
            #expect(try await h.data("{ unreadMessageCount }", "unreadMessageCount", as: fay) == 2)
            // One notification for the burst, naming Sam by his display name, never the words.
            let told = try await h.notices(of: fay).filter { $0.kind == "messageReceived" }
            #expect(told.map(\.title) == ["Sky sent you a message"])
            #expect(told.first?.subject == conversation)

            // Paging back in time, newest first.
            let page = try await h.data(MessagingHTTP.messages, "messages", ["c": .string(conversation), "first": 1], as: fay)
            #expect(page.nodes.map { $0["text"] } == ["are you there?"])
            #expect(page["pageInfo"]?["hasNextPage"] == true)
            let older = try await h.data(
                MessagingHTTP.messages, "messages", ["c": .string(conversation), "first": 1, "before": page["pageInfo"]!["endCursor"]!], as: fay)
            #expect(older.nodes.map { $0["text"] } == ["hi fay"])
            #expect(older["pageInfo"]?["hasNextPage"] == false)

            // Read receipts: Fay reads; Sam sees when.
            let read = try await h.data(MessagingHTTP.markRead, "markConversationRead", ["c": .string(conversation)], as: fay)
            #expect(read["unreadCount"] == 0)
            let samReads = try await h.data(MessagingHTTP.messages, "messages", ["c": .string(conversation)], as: sam).nodes
            #expect(samReads.allSatisfy { $0["readAt"]?.stringValue != nil })
            // After reading, the next message is news again; Fay's reply tells Sam.
            _ = try await h.message("yes!", to: sam, as: fay)
            _ = try await h.message("one more", to: fay, as: sam)
            #expect(try await h.notices(of: fay).filter { $0.kind == "messageReceived" }.count == 2)
            #expect(try await h.notices(of: sam).map(\.title).contains("Fay sent you a message"))
            #expect(try await h.messageTexts(conversation, as: sam) == ["one more", "yes!", "are you there?", "hi fay"])
        }
    }

    @Test func aYoungPersonAndTheirTeamTalkButNoUnrelatedAdult() async throws {
        try await withAccounts(tweak: MessagingHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam"), wes = try await h.person(.socialWorker, "wes", displayName: "Wes Worker")
            let una = try await h.person(.socialWorker, "una"), cara = try await h.person(.carer, "cara")
            try await h.assign(sam, wes, .socialWorker, admin: ada)
            let sent = try await h.message("how are you doing?", to: sam, as: wes)
            let conversation = try #require(sent["conversationId"]?.stringValue)
            _ = try await h.message("ok thanks", to: wes, as: sam)
            let sams = try await h.data(MessagingHTTP.conversations, "conversations", as: sam)
            #expect(sams[0]?["displayName"] == "Wes Worker" && sams[0]?["staff"] == true)
            // An adult not on Sam's team, either way, finds nobody.
            for (from, to) in [(una, sam), (sam, una), (cara, sam)] {
                let refused = try await h.graphQL(MessagingHTTP.sendTo, ["p": to.idValue, "t": "hello"], token: from.token)
                #expect(refused.errorCode == "NOT_FOUND", "\(refused.json)")
            }
            #expect(try await h.graphQL(MessagingHTTP.messages, ["c": .string(conversation)], token: una.token).errorCode == "NOT_FOUND")
            // The assignment ends: the history stays for the two, nothing more passes.
            let assignment = try #require(try await h.data("query($y: ID!) { assignments(youngPersonId: $y) { id } }", "assignments", ["y": sam.idValue], as: ada)[0]?["id"])
            _ = try await h.data("mutation($a: ID!) { endAssignment(assignmentId: $a) { id } }", "endAssignment", ["a": assignment], as: ada)
            #expect(try await h.messageTexts(conversation, as: wes) == ["ok thanks", "how are you doing?"])
            #expect(try await h.data(MessagingHTTP.conversations, "conversations", as: wes)[0]?["canSend"] == false)
            let after = try await h.graphQL(MessagingHTTP.sendInto, ["c": .string(conversation), "t": "still there?"], token: wes.token)
            #expect(after.errorCode == "NOT_FOUND")
            #expect(try await h.messageTexts(conversation, as: sam).count == 2)
        }
    }

    @Test func badInputAndStrangersAreRefusedAndNothingIsStored() async throws {
        try await withAccounts(tweak: { index, file in
            MessagingHTTP.tenant(index, &file)
            file.messaging.messagesPerHour = 3
        }) { h in
            let sam = try await h.person(.youngPerson, "sam"), fay = try await h.person(.youngPerson, "fay"), nia = try await h.person(.youngPerson, "nia")
            for (person, name) in [(sam, "Sky"), (fay, "Fay"), (nia, "Nia")] { try await h.socialProfile(person, name) }
            try await h.befriend(sam, fay)
            let ask = { (query: String, variables: GraphQLObject) in try await h.graphQL(query, variables, token: sam.token) }
            // Not a friend, nobody, neither or both targets, too long, blank, someone else's file.
            #expect(try await ask(MessagingHTTP.sendTo, ["p": nia.idValue, "t": "hi"]).errorCode == "NOT_FOUND")
            #expect(try await ask(MessagingHTTP.sendTo, ["p": .string(UUID().uuidString), "t": "hi"]).errorCode == "NOT_FOUND")
            #expect(try await ask(MessagingHTTP.sendInto, ["c": .string(UUID().uuidString), "t": "hi"]).errorCode == "NOT_FOUND")
            let both = try await ask("mutation($p: ID!) { sendMessage(personId: $p, conversationId: $p, text: \"x\") { id } }", ["p": fay.idValue])
            #expect(both.errorCode == "BAD_USER_INPUT" && both.errorExtensions?["field"] == "conversationId")
            #expect(try await ask("mutation { sendMessage(text: \"x\") { id } }", [:]).errorExtensions?["field"] == "conversationId")
            let long = try await ask(MessagingHTTP.sendTo, ["p": fay.idValue, "t": .string(String(repeating: "a", count: 2001))])
            #expect(long.errorCode == "BAD_USER_INPUT" && long.errorExtensions?["field"] == "text")
            #expect(try await ask(MessagingHTTP.sendTo, ["p": fay.idValue, "t": "   "]).errorExtensions?["field"] == "text")
            let photo = try await h.uploadMedia(SampleMedia.png, contentType: "image/png", token: fay.token)
            let stolen = try await ask("mutation($p: ID!, $m: [ID!]) { sendMessage(personId: $p, mediaIds: $m) { id } }", ["p": fay.idValue, "m": .list([photo["id"]!])])
            #expect(stolen.errorCode == "BAD_USER_INPUT" && stolen.errorExtensions?["field"] == "mediaIds")
            #expect(try await h.data(MessagingHTTP.conversations, "conversations", as: sam).listValue == [])
            // The rate limit: three an hour here.
            for text in ["one", "two", "three"] { try await h.message(text, to: fay, as: sam) }
            let limited = try await ask(MessagingHTTP.sendTo, ["p": fay.idValue, "t": "four"])
            #expect(limited.errorCode == "RATE_LIMITED")
            #expect((limited.errorExtensions?["retryAfterSeconds"]?.intValue ?? 0) > 0)
            let conversation = try #require(try await h.data(MessagingHTTP.conversations, "conversations", as: fay)[0]?["id"]?.stringValue)
            #expect(try await h.messageTexts(conversation, as: fay) == ["three", "two", "one"])
            #expect(try await ask(MessagingHTTP.messages, ["c": .string(conversation), "first": 101]).errorExtensions?["field"] == "first")
        }
    }

    @Test func aSuspendedPersonSendsNothingAndABlockEndsTheConversation() async throws {
        try await withAccounts(tweak: MessagingHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam"), fay = try await h.person(.youngPerson, "fay")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(fay, "Fay")
            try await h.befriend(sam, fay)
            let conversation = try #require(try await h.message("hi", to: fay, as: sam)["conversationId"]?.stringValue)
            _ = try await h.data(
                "mutation($p: ID!) { suspendPerson(personId: $p, until: \"2100-01-01T00:00:00Z\", reason: \"a break\") }", "suspendPerson",
                ["p": sam.idValue], as: ada)
            let suspended = try await h.graphQL(MessagingHTTP.sendInto, ["c": .string(conversation), "t": "again"], token: sam.token)
            #expect(suspended.errorCode == "FORBIDDEN" && suspended.errorExtensions?["suspendedUntil"] != nil, "\(suspended.json)")
            #expect(try await h.data(MessagingHTTP.conversations, "conversations", as: sam)[0]?["canSend"] == false)
            // Fay blocks Sam: the conversation is gone for both, nothing passes either way.
            _ = try await h.data(SocialHTTP.block, "blockPerson", ["p": sam.idValue], as: fay)
            for person in [sam, fay] {
                #expect(try await h.data(MessagingHTTP.conversations, "conversations", as: person).listValue == [])
                #expect(try await h.graphQL(MessagingHTTP.messages, ["c": .string(conversation)], token: person.token).errorCode == "NOT_FOUND")
                #expect(try await h.data(MessagingHTTP.conversation, "conversation", ["c": .string(conversation)], as: person) == .null)
            }
            #expect(try await h.graphQL(MessagingHTTP.sendTo, ["p": sam.idValue, "t": "x"], token: fay.token).errorCode == "NOT_FOUND")
            #expect(try await h.data("{ unreadMessageCount }", "unreadMessageCount", as: fay) == 0)
        }
    }

    @Test func aReportedMessageReachesTheAdminAloneWhoRemovesIt() async throws {
        try await withAccounts(tweak: MessagingHTTP.tenant) { h in
            let ada = try await h.person(.agencyAdmin, "ada")
            let sam = try await h.person(.youngPerson, "sam"), fay = try await h.person(.youngPerson, "fay")
            try await h.socialProfile(sam, "Sky")
            try await h.socialProfile(fay, "Fay")
            try await h.befriend(sam, fay)
            _ = try await h.message("a kind word", to: fay, as: sam)
            let nasty = try #require(try await h.message("a nasty word", to: fay, as: sam).id)
            let conversation = try #require(try await h.data(MessagingHTTP.conversations, "conversations", as: fay)[0]?["id"]?.stringValue)
            // Only the recipient reports; the sender's own message is not theirs to report.
            #expect(try await h.graphQL(MessagingHTTP.report, ["m": .string(nasty)], token: sam.token).errorCode == "NOT_FOUND")
            #expect(try await h.data(MessagingHTTP.report, "reportMessage", ["m": .string(nasty)], as: fay) == true)
            #expect(try await h.data(MessagingHTTP.report, "reportMessage", ["m": .string(nasty)], as: fay) == true)
            // The admin reads the reported message, with why, never who; not the conversation.
            let queue = try await h.data(MessagingHTTP.reported, "reportedMessages", as: ada).nodes
            #expect(queue.map { $0["message"]?["text"] } == ["a nasty word"])
            #expect(queue.first?["openReports"] == [["reason": "HARASSMENT", "text": "not nice"]])
            #expect(try await h.graphQL(MessagingHTTP.messages, ["c": .string(conversation)], token: ada.token).errorCode == "NOT_FOUND")
            #expect(try await h.graphQL(MessagingHTTP.reported, token: fay.token).errorCode == "FORBIDDEN")
            let removed = try await h.data(
                "mutation($m: ID!) { removeMessage(id: $m, reason: \"Unkind\") { removed removalReason } }", "removeMessage", ["m": .string(nasty)], as: ada)
            #expect(removed == ["removed": true, "removalReason": "Unkind"])
            #expect(try await h.data(MessagingHTTP.reported, "reportedMessages", as: ada).nodes == [])
            // Fay no longer sees it; Sam sees it removed, and is told, without Fay's name.
            #expect(try await h.messageTexts(conversation, as: fay) == ["a kind word"])
            let samSees = try await h.data(MessagingHTTP.messages, "messages", ["c": .string(conversation)], as: sam).nodes
            #expect(samSees.first?["removalReason"] == "Unkind")
            let told = try await h.notices(of: sam).filter { $0.kind == "messageRemoved" }
            #expect(told.map(\.title) == ["A moderator removed one of your messages"])
            #expect(try await h.graphQL(
                "mutation($m: ID!) { dismissMessageReports(messageId: $m) }", ["m": .string(nasty)], token: ada.token).errorCode == "NOT_FOUND")
        }
    }

    @Test func aMessageReachesItsRecipientLiveAndNobodyElse() async throws {
        try await withAccounts(tweak: MessagingHTTP.tenant) { h in
            let sam = try await h.person(.youngPerson, "sam"), fay = try await h.person(.youngPerson, "fay"), nia = try await h.person(.youngPerson, "nia")
            for (person, name) in [(sam, "Sky"), (fay, "Fay"), (nia, "Nia")] { try await h.socialProfile(person, name) }
            try await h.befriend(sam, fay)
            try await withLiveEvents(h) {
                let query = "subscription { messageAdded { text mine } }"
                let fays = try await h.subscribe(query, as: fay), nias = try await h.subscribe(query, as: nia)
                _ = try await h.message("live hello", to: fay, as: sam)
                let update = try #require(try await nextUpdate(fays))
                #expect(update.json == ["data": ["messageAdded": ["text": "live hello", "mine": false]]])
                #expect(try await nextUpdate(nias, within: 0.3) == nil)
            }
        }
    }
}
