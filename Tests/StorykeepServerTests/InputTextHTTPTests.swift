import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 16, item 5: PostgreSQL text cannot hold U+0000, and libpq cut values short at one. Every
// string argument of the schema, found by introspection, is tried with a NUL, in variables and as
// a literal, in JSON bodies, GET query strings and multipart `operations`: each is BAD_USER_INPUT
// naming the argument, and nothing changes. (Except in the one argument a module admits NULs in,
// a safety alert's message, which is never refused: SafetyHTTPTests tries it.)

@Suite("NUL characters in input, over HTTP")
struct InputTextHTTPTests {
    static let nul: GraphQLValue = .string("kept\u{0}dropped")
    static let scalars: [String: GraphQLValue] = [
        "String": .string("x"), "ID": .string(UUID().uuidString.lowercased()), "Int": .int(1), "Float": .float(1),
        "Boolean": .bool(true), "Date": .string("2026-11-20"),
    ]

    @Test func everyStringArgumentRefusesANUL() async throws {
        // Well over a minute's worth of uploads from one address: the limit is not what is tried.
        try await withAccounts(tenants: 1, tweak: { index, file in
            JournalHTTP.tenant(index, &file)
            file.rateLimits.uploadsPerMinute = 100_000
        }) { h in
            let (sam, samID) = try await h.youngPerson("sam")
            let admin = try await h.admin()
            _ = try await h.createEntry(["date": .string("2026-11-19"), "kind": .string("TEXT"), "text": .string("before")], token: sam)
            let before = try await h.everything(sam: sam, admin: admin)

            let schema = try IntrospectedSchema(introspection: try await h.graphQL(IntrospectedSchema.introspectionQuery))
            let admitted = try h.engine.schemas.schema(for: h.tenant.file).argumentsAdmittingNUL
            #expect(admitted == ["Mutation.raiseSafetyAlert(message:)"])
            var tried: Set<String> = []
            for (operation, field) in schema.rootFields {
                for path in schema.paths(of: field, to: ["String", "ID"])
                where !admitted.contains("\(operation == "query" ? "Query" : "Mutation").\(field.name)(\(path):)") {
                    tried.insert("\(field.name) \(path)")
                    let arguments = schema.arguments(for: field, scalars: Self.scalars, setting: Self.nul, at: path)
                    let what = "\(field.name)(\(path))"
                    for token in [sam, nil] {
                        let variables = try await h.graphQL(schema.document(operation, field, variables: arguments), arguments, token: token)
                        Self.expectRefused(variables, path, what + " in variables")
                        let literals = try await h.graphQL(schema.document(operation, field, literals: arguments), token: token)
                        Self.expectRefused(literals, path, what + " as a literal")
                    }
                    if operation == "query" {
                        let get = try await h.getGraphQL(schema.document(operation, field, variables: arguments), arguments, token: sam)
                        Self.expectRefused(get, path, what + " over GET")
                    } else {
                        let multipart = try await h.upload(schema.document(operation, field, variables: arguments), arguments, files: [], token: sam)
                        Self.expectRefused(multipart, path, what + " in multipart operations")
                    }
                }
            }
            // The schema's string arguments are all there (a sample of each module's).
            for expected in [
                "login username", "login password", "createPerson input.displayName", "createEntry input.text",
                "createEntry input.tagIds.0", "updateEntry id", "entries after", "entries filter.text", "search query",
                "checkIn note", "createTag name", "updateProfile input.moodIcons.0.label", "updateProfile input.entryBackgrounds.0",
                "restoreEntry id", "acceptTerms version", "sendPrompt text", "createEntry input.promptId",
                "acknowledgeSafetyAlert note",
            ] {
                #expect(tried.contains(expected), "\(expected) was not tried: \(tried.sorted())")
            }
            #expect(try await h.everything(sam: sam, admin: admin) == before)
            #expect(try await h.count("entries", ownedBy: samID, column: "author_id") == 1)
            try await h.client.execute(uri: "/health/live", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func aNULNoLongerCutsALoginNameOrAnEntryShort() async throws {
        try await withAccounts(tenants: 1, tweak: JournalHTTP.tenant) { h in
            let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Probe", username: "probey1"))
            let token = try await h.activate(issued.code.displayText, password: "probe password 1")
            let login = try await h.login("probey1\u{0}zzz", "probe password 1")
            Self.expectRefused(login, "username", "login")
            #expect(login["data"] == .null)
            #expect(try await h.login("probey1", "probe password 1")["data"]?["login"]?["token"]?.stringValue != nil)

            let entry = try await h.graphQL(
                "mutation($i: EntryInput!) { createEntry(input: $i) { id text } }",
                ["i": .object(["date": .string("2026-11-20"), "kind": .string("TEXT"), "text": .string("kept\u{0}dropped")])],
                token: token)
            Self.expectRefused(entry, "input.text", "createEntry")
            let literal = try await h.graphQL(
                #"mutation { createEntry(input: {date: "2026-11-20", kind: TEXT, text: "kept\u0000dropped"}) { id } }"#, token: token)
            Self.expectRefused(literal, "input.text", "createEntry as a literal")
            let multipart = try await h.upload(
                "mutation($i: EntryInput!, $f: [Upload!]) { createEntry(input: $i, files: $f) { id } }",
                ["i": .object(["date": .string("2026-11-20"), "kind": .string("IMAGE"), "text": .string("kept\u{0}dropped")]),
                 "f": .list([.null])],
                files: [("f.0", SampleMedia.png, "image/png")], token: token)
            Self.expectRefused(multipart, "input.text", "createEntry with a file")
            let entries = try await h.graphQL("{ entries { edges { node { text } } } }", token: token)
            #expect(entries["data"]?["entries"]?.nodes == [], "\(entries.json)")
            #expect(try await h.count("media", ownedBy: issued.person.id) == 0)
        }
    }

    static func expectRefused(
        _ response: GraphQLValue, _ field: String, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(response.errorCode == "BAD_USER_INPUT", "\(what): \(response.json)", sourceLocation: sourceLocation)
        #expect(response.errorExtensions?["field"] == .string(field), "\(what): \(response.json)", sourceLocation: sourceLocation)
    }
}

extension AccountsHarness {
    /// What people and their journals hold, as the API shows it to `sam` and to an admin.
    func everything(sam: String, admin: String) async throws -> GraphQLValue {
        let mine = try await graphQL(
            """
            { me { displayName mustAcceptTerms profile { displayName avatar entryBackgrounds moodIcons { emoji label } } }
              entries(first: 100) { edges { node { id text mood background suggestion tags { name } media { id } } } }
              tags { name } archive { edges { node { id } } } greeting { checkIn } }
            """, token: sam)
        let people = try await graphQL(
            "{ people(first: 100) { edges { node { id displayName username email externalRef disabled } } } }", token: admin)
        return .list([mine, people])
    }

    /// GETs one operation from `/t/<slug>/graphql`, its variables in the query string.
    func getGraphQL(_ query: String, _ variables: GraphQLObject, token: String?) async throws -> GraphQLValue {
        let parameters = [("query", query), ("variables", GraphQLValue.object(variables).json)]
        let uri = "/t/\(tenant.slug)/graphql?" + formQuery(parameters)
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: uri, method: .get, headers: headers) { try $0.json }
    }
}
