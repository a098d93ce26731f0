import Foundation
import GraphQL
import HTTPTypes
import NIOCore
import Storykeep
import StorykeepTestSupport
import Testing

/// Issue 17, languages: the tenant file's texts in several languages, chosen by the person's
/// `profile.language` or the request's `Accept-Language`, English the fallback; error messages
/// stay English with their codes.
@Suite("The agency's texts in its languages")
struct LanguagesHTTPTests {
    /// A tenant with English, Welsh and Polish, whose texts are in English and Welsh.
    static let tenant: @Sendable (Int, inout TenantFile) -> Void = { _, file in
        file.languages = ["en", "cy", "pl"]
        file.checkInQuestion = LocalizedText(english: "How are you feeling today?", translations: ["cy": "Sut wyt ti'n teimlo heddiw?"])
        var okay = MoodIcon(emoji: "🙂", label: "Okay")
        okay.labels = LocalizedText(english: "Okay", translations: ["cy": "Iawn"])
        file.moodIcons = [okay, MoodIcon(emoji: "😢", label: "Sad")]
        file.prompts = [Self.prompt]
        file.suggestedTags = [LocalizedText(english: "school", translations: ["cy": "ysgol"])]
        var childline = Helpline(name: "Childline", phone: "0800 1111", hours: "24 hours, every day")
        childline.name = LocalizedText(english: "Childline", translations: ["cy": "Llinell Plant"])
        childline.hours = LocalizedText(english: "24 hours, every day", translations: ["cy": "24 awr, bob dydd"])
        file.safety.helplines = [childline]
        file.termsSummary = LocalizedText(english: "Your journal is yours.", translations: ["cy": "Dy ddyddiadur di yw hwn."])
    }

    static let prompt = Prompt(text: LocalizedText(english: "What made you smile today?", translations: ["cy": "Beth wnaeth i ti wenu heddiw?"]))

    static let greeting = "{ greeting { question moodIcons { emoji label text } } suggestedTags suggestions(count: 1) safety { helplines { name hours phone } } }"

    /// POSTs `query` as `token` with `Accept-Language: language` (none when nil): the response.
    static func ask(
        _ h: AccountsHarness, _ query: String, _ variables: GraphQLObject = [:], token: String?, language: String?
    ) async throws -> GraphQLValue {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let language { headers[.acceptLanguage] = language }
        let body = GraphQLValue.object(["query": .string(query), "variables": .object(variables)]).json
        return try await h.client.execute(
            uri: "/t/\(h.tenant.slug)/graphql", method: .post, headers: headers, body: ByteBuffer(string: body)
        ) { try $0.json }
    }

    static func question(_ response: GraphQLValue) -> String? {
        response["data"]?["greeting"]?["question"]?.stringValue
    }

    @Test func acceptLanguageAndTheProfileChooseEnglishTheFallback() async throws {
        try await withAccounts(tweak: Self.tenant) { h in
            let sam = try await h.person(.youngPerson, "sam")
            // No preference: English.
            let english = try await Self.ask(h, Self.greeting, token: sam.token, language: nil)
            #expect(english["errors"] == nil, "\(english.json)")
            #expect(Self.question(english) == "How are you feeling today?")
            #expect(english["data"]?["greeting"]?["moodIcons"]?.listValue?.first == ["emoji": "🙂", "label": "Okay", "text": "Okay"])
            // The device's languages, by their q-values: Welsh before Polish, French unknown here.
            for header in ["cy", "cy-GB,cy;q=0.9,en;q=0.8", "fr, pl;q=0.5, cy;q=0.7", "en;q=0.4, cy"] {
                let welsh = try await Self.ask(h, Self.greeting, token: sam.token, language: header)
                #expect(Self.question(welsh) == "Sut wyt ti'n teimlo heddiw?", "\(header)")
            }
            let welsh = try await Self.ask(h, Self.greeting, token: sam.token, language: "cy")
            // The mood keeps its English name, which check-ins take; its text is Welsh.
            #expect(welsh["data"]?["greeting"]?["moodIcons"]?.listValue?.first == ["emoji": "🙂", "label": "Okay", "text": "Iawn"])
            #expect(welsh["data"]?["greeting"]?["moodIcons"]?.listValue?.last?["text"] == "Sad")  // no Welsh: English
            #expect(welsh["data"]?["suggestedTags"] == ["ysgol"])
            #expect(welsh["data"]?["suggestions"] == ["Beth wnaeth i ti wenu heddiw?"])
            #expect(welsh["data"]?["safety"]?["helplines"]?.listValue?.first == ["name": "Llinell Plant", "hours": "24 awr, bob dydd", "phone": "0800 1111"])
            // Polish is the agency's, but these texts have none: English. French, English first, q=0: English.
            for header in ["pl", "fr", "cy;q=0, en", "*"] {
                #expect(Self.question(try await Self.ask(h, Self.greeting, token: sam.token, language: header)) == "How are you feeling today?", "\(header)")
            }
            // Before login too: the helplines, and the agency's terms summary.
            let anonymous = try await Self.ask(h, "{ safety { helplines { name } } }", token: nil, language: "cy")
            #expect(anonymous["data"]?["safety"]?["helplines"]?.listValue?.first?["name"] == "Llinell Plant")
            let info = try await h.get("/t/\(h.tenant.slug)/", token: nil, headers: [.acceptLanguage: "cy"])
            let infoJSON = try info.json
            #expect(infoJSON["termsSummary"] == "Dy ddyddiadur di yw hwn.")
            #expect(infoJSON["language"] == "cy")
            #expect(infoJSON["languages"] == ["en", "cy", "pl"])

            // The person's own choice wins over the device's, until they go back to it.
            let chosen = try await Self.ask(
                h, "mutation($l: String) { updateProfile(input: { language: $l }) { language moodIcons { text } } }", ["l": "cy"],
                token: sam.token, language: "en")
            #expect(chosen["data"]?["updateProfile"]?["language"] == "cy", "\(chosen.json)")
            #expect(chosen["data"]?["updateProfile"]?["moodIcons"]?.listValue?.first?["text"] == "Iawn")
            #expect(Self.question(try await Self.ask(h, Self.greeting, token: sam.token, language: "en")) == "Sut wyt ti'n teimlo heddiw?")
            #expect(Self.question(try await Self.ask(h, Self.greeting, token: sam.token, language: nil)) == "Sut wyt ti'n teimlo heddiw?")
            // Check-ins take the mood's name whatever the language; errors stay English, with codes.
            let checkedIn = try await Self.ask(h, "mutation { checkIn(mood: \"Okay\") { mood } }", token: sam.token, language: "cy")
            #expect(checkedIn["data"]?["checkIn"]?["mood"] == "Okay", "\(checkedIn.json)")
            let refused = try await Self.ask(h, "mutation { checkIn(mood: \"Iawn\") { mood } }", token: sam.token, language: "cy")
            #expect(refused.errorCode == "BAD_USER_INPUT")
            #expect(refused["errors"]?.listValue?.first?["message"]?.stringValue?.contains("is not one of your moods") == true)

            let device = try await Self.ask(h, "mutation { updateProfile(input: { language: \"\" }) { language } }", token: sam.token, language: nil)
            #expect(device["data"]?["updateProfile"]?["language"] == .null, "\(device.json)")
            #expect(Self.question(try await Self.ask(h, Self.greeting, token: sam.token, language: "en")) == "How are you feeling today?")
        }
    }

    @Test func aLanguageTheAgencyDoesNotHaveIsRefusedAndTextsChangeWithoutAnAppUpdate() async throws {
        try await withAccounts(tweak: Self.tenant) { h in
            let sam = try await h.person(.youngPerson, "sam")
            for code in ["fr", "CY", "welsh", "c"] {
                let response = try await Self.ask(
                    h, "mutation($l: String) { updateProfile(input: { language: $l, displayName: \"Sammy\" }) { language } }", ["l": .string(code)],
                    token: sam.token, language: nil)
                #expect(response.errorCode == "BAD_USER_INPUT", "\(code)")
                #expect(response.errorExtensions?["field"] == "input.language", "\(code)")
            }
            // Nothing changed: not the name given beside it either.
            let profile = try await h.data("{ me { profile { displayName language } } }", "me", as: sam)
            #expect(profile["profile"]?["language"] == .null)
            #expect(profile["profile"]?["displayName"] != "Sammy")

            // The agency changes its Welsh question: the next request shows it, no app update.
            var file = h.tenant.file
            file.checkInQuestion = LocalizedText(english: "How are you today?", translations: ["cy": "Sut wyt ti heddiw?"])
            _ = try await TenantStore(pool: h.owner).apply([file])
            try await h.served.refresh()
            #expect(Self.question(try await Self.ask(h, Self.greeting, token: sam.token, language: "cy")) == "Sut wyt ti heddiw?")
        }
    }
}
