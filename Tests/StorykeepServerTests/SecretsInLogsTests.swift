import AsyncHTTPClient
import Foundation
import GraphQL
import NIOCore
import Storykeep
import StorykeepTestSupport
import Testing

/// Issue 17: no password, token, code or entry text in the logs. A whole session goes through a
/// real `storykeep serve` logging at `trace`, once in each log format; then everything the process
/// wrote is searched for every secret the session sent or was given.
@Suite struct SecretsInLogsTests {
    @Test(arguments: ["text", "json"]) func aWholeSessionLeavesNoSecretInTheLogs(format: String) async throws {
        try TestDatabase.requireEnvironment()
        try await withAccounts(tweak: PrivacyHTTP.tenant) { h in try await Self.check(format: format, h) }
    }

    /// Runs the session through a server logging at `trace` in `format`, then searches its output.
    static func check(format: String, _ h: AccountsHarness) async throws {
        let server = try await ServeProcess(environment: ["STORYKEEP_LOG_LEVEL": "trace", "STORYKEEP_LOG_FORMAT": format])
        let secrets: [(String, String)]
        do {
            secrets = try await session(h, ServedTenant(port: server.port, slug: h.tenant.slug))
        } catch {
            await server.stopAndWait()
            throw error
        }
        // SIGTERM: the server finishes, and its last lines reach the pipe.
        await server.stopAndWait()
        let lines = server.output
        // The process did log the session, at trace level.
        let requestLines = lines.filter { $0.contains("/t/\(h.tenant.slug)/") && $0.contains("200") }
        #expect(requestLines.count >= 15, "\(lines.suffix(20))")
        if format == "json" {
            #expect(lines.allSatisfy(isJSONObject), "\(lines.filter { !isJSONObject($0) }.prefix(5))")
            #expect(lines.contains { $0.contains(#""level":"trace""#) || $0.contains(#""level":"debug""#) })
        } else {
            #expect(lines.contains { $0.contains(" trace ") || $0.contains(" debug ") })
        }
        for (what, secret) in secrets {
            let leaked = lines.filter { $0.contains(secret) }
            #expect(leaked.isEmpty, "\(what) in the \(format) log: \(leaked.prefix(3))")
        }
    }

    static func isJSONObject(_ line: String) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any]
    }

    /// The session, through `served`: activation, logins (one with a wrong password), an entry,
    /// an upload and its link, a share, a case-management client's token issued and used, a
    /// password reset, a trusted document, a data export downloaded. What must never be logged, by name.
    static func session(_ h: AccountsHarness, _ served: ServedTenant) async throws -> [(String, String)] {
        var secrets: [(String, String)] = []
        func secret(_ what: String, _ value: String) {
            secrets.append((what, value))
            // An activation code is also accepted without its hyphens.
            if value.contains("-") && value.count < 20 { secrets.append((what + " without hyphens", value.replacing("-", with: ""))) }
        }
        // Made in process (not through the served server): the admins, a social worker, Sam's code.
        let ada = try await h.cast(.ada)
        let bea = try await h.person(.agencyAdmin, "bea", password: "Bea's own admin passphrase")
        let wendy = try await h.cast(.wendy)
        let issued = try await h.createAsOperator(NewPerson(role: .youngPerson, displayName: "Sam", username: "sam-secret"))
        let samID = GraphQLValue.string(issued.person.id.uuidString.lowercased())
        let assigned = try await h.assignAdult(samID, wendy.idValue, AssignmentRelationship.socialWorker.rawValue, admin: ada)
        #expect(assigned["errors"] == nil, "\(assigned.json)")
        for (what, value) in [("Ada's token", ada.token), ("Bea's token", bea.token), ("Wendy's token", wendy.token)] { secret(what, value) }
        let entryText = "Marmalade-kite-4417 flew over the allotments"
        let shareMessage = "Quince-lantern-9051 for Wendy"
        let password = "Sam's zebra passphrase 5512"
        let newPassword = "Sam's new otter passphrase 7730"
        let wrongPassword = "Sam's wrong heron passphrase 3398"
        secret("the entry's text", "Marmalade-kite-4417")
        secret("the share's message", "Quince-lantern-9051")
        secret("the password", password)
        secret("the new password", newPassword)
        secret("the wrong password", wrongPassword)
        secret("the activation code", issued.code.displayText)

        // Activation, a login, a wrong password.
        let activated = try await served.graphQL(
            "mutation($c: String!, $p: String!) { activateAccount(code: $c, password: $p) { token } }",
            ["c": .string(issued.code.displayText), "p": .string(password)])
        secret("the activation's token", try #require(activated["data"]?["activateAccount"]?["token"]?.stringValue, "\(activated.json)"))
        let login = "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }"
        let loggedIn = try await served.graphQL(login, ["u": .string("sam-secret"), "p": .string(password)])
        let sam = try #require(loggedIn["data"]?["login"]?["token"]?.stringValue, "\(loggedIn.json)")
        secret("Sam's token", sam)
        #expect(try await served.graphQL(login, ["u": .string("sam-secret"), "p": .string(wrongPassword)])["errors"] != nil)

        // An entry, a picture and its link, a share.
        let created = try await served.graphQL(
            "mutation($i: EntryInput!) { createEntry(input: $i) { id } }",
            ["i": .object(["date": .string("2026-11-02"), "kind": .string("TEXT"), "text": .string(entryText)])], token: sam)
        let entryID = try #require(created["data"]?["createEntry"]?["id"], "\(created.json)")
        let (headers, body) = GraphQLMultipart.request(
            "mutation($f: Upload!) { uploadMedia(file: $f) { id url } }", ["f": .null], files: [("f", SampleMedia.png, "image/png")])
        let uploaded = try await served.send(
            "graphql", headers: Dictionary(uniqueKeysWithValues: headers.map { ($0.name.rawName, $0.value) }).merging(["Authorization": "Bearer \(sam)"]) { $1 },
            body: Data(body))
        let mediaURL = try #require(try GraphQLValue(json: uploaded.body)["data"]?["uploadMedia"]?["url"]?.stringValue, "\(uploaded)")
        Self.linkTokens(mediaURL).forEach { secret("the media link's \($0.0)", $0.1) }
        #expect(try await served.send(mediaURL, method: "GET", headers: ["Authorization": "Bearer \(sam)"]).status == 200)
        let shared = try await served.graphQL(
            "mutation($e: ID!, $p: [ID!]!, $m: String) { shareEntry(entryId: $e, withPersonIds: $p, message: $m) { id } }",
            ["e": entryID, "p": .list([wendy.idValue]), "m": .string(shareMessage)], token: sam)
        #expect(shared["errors"] == nil, "\(shared.json)")

        // A case-management client: its secret, the token issued for it (HTTP Basic), its use.
        let client = try await served.graphQL(
            "mutation($n: String!) { createCmsClient(name: $n) { client { id } clientSecret } }", ["n": .string("Mosaic")], token: ada.token)
        let clientID = try #require(client["data"]?["createCmsClient"]?["client"]?["id"]?.stringValue, "\(client.json)")
        let clientSecret = try #require(client["data"]?["createCmsClient"]?["clientSecret"]?.stringValue)
        secret("the client secret", clientSecret)
        let basic = Data("\(clientID):\(clientSecret)".utf8).base64EncodedString()
        secret("the client's Basic credentials", basic)
        let issuedToken = try await served.send(
            "oauth/token", headers: ["Authorization": "Basic \(basic)", "Content-Type": "application/x-www-form-urlencoded"],
            body: Data("grant_type=client_credentials".utf8))
        let accessToken = try #require(try GraphQLValue(json: issuedToken.body)["access_token"]?.stringValue, "\(issuedToken)")
        secret("the client's access token", accessToken)
        let feed = try await served.graphQL("{ export { changes { items { entryId } } } }", token: accessToken)
        #expect(feed["errors"] == nil, "\(feed.json)")

        // A password reset: Ada asks, Bea approves, Sam sets a new password with the code.
        let reset = try await served.graphQL(
            "mutation($id: ID!, $r: String!) { requestPasswordReset(personId: $id, reason: $r) { id } }",
            ["id": samID, "r": .string("Sam phoned")], token: ada.token)
        let resetID = try #require(reset["data"]?["requestPasswordReset"]?["id"], "\(reset.json)")
        let approved = try await served.graphQL(
            "mutation($id: ID!) { approvePasswordReset(requestId: $id) { activationCode } }", ["id": resetID], token: bea.token)
        let resetCode = try #require(approved["data"]?["approvePasswordReset"]?["activationCode"]?.stringValue, "\(approved.json)")
        secret("the reset code", resetCode)
        let reactivated = try await served.graphQL(
            "mutation($c: String!, $p: String!) { activateAccount(code: $c, password: $p) { token } }",
            ["c": .string(resetCode), "p": .string(newPassword)])
        let samAgain = try #require(reactivated["data"]?["activateAccount"]?["token"]?.stringValue, "\(reactivated.json)")
        secret("Sam's token after the reset", samAgain)

        // A trusted document, run by its id with the entry's text again in its variables.
        let store = TenantStore(pool: h.owner)
        _ = try await store.registerDocuments(["secrets-entry": "mutation Note($i: EntryInput!) { createEntry(input: $i) { id } }"], slug: h.tenant.slug, replacing: false)
        var byID: GraphQLValue = .null
        for _ in 0..<50 {  // the server hears of the change through NOTIFY
            byID = try await served.post(
                ["documentId": .string("secrets-entry"), "variables": .object(["i": .object(["date": .string("2026-11-03"), "kind": .string("TEXT"), "text": .string(entryText)])])],
                token: samAgain)
            if byID["errors"] == nil { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(byID["data"]?["createEntry"]?["id"] != nil, "\(byID.json)")

        // Sam's data, built as the server's job builds it, downloaded by its link.
        let requested = try await served.graphQL("mutation { requestMyData { id } }", token: samAgain)
        let exportID = try #require(requested["data"]?["requestMyData"]?["id"], "\(requested.json)")
        #expect(try await h.buildDataExports().built >= 1)
        let ready = try await served.graphQL("query($id: ID!) { dataExport(id: $id) { downloadUrl } }", ["id": exportID], token: samAgain)
        let download = try #require(ready["data"]?["dataExport"]?["downloadUrl"]?.stringValue, "\(ready.json)")
        Self.linkTokens(download).forEach { secret("the export link's \($0.0)", $0.1) }
        #expect(try await served.send(download, method: "GET").status == 200)
        return secrets
    }

    /// The query parameters of a signed link (its token, signature, expiry), long enough to be secret.
    static func linkTokens(_ link: String) -> [(String, String)] {
        guard let query = URLComponents(string: link)?.queryItems else { return [] }
        return query.compactMap { item in item.value.flatMap { $0.count >= 16 ? (item.name, $0) : nil } }
    }
}

/// HTTP to one tenant of a ``ServeProcess``, as an app sends it.
struct ServedTenant {
    let port: Int
    let slug: String

    /// Sends `body` to `path` (below the tenant's root, or a link the server gave, absolute or from
    /// `/`) with `method`, GET or POST.
    func send(_ path: String, method: String = "POST", headers: [String: String] = [:], body: Data? = nil) async throws -> (status: Int, body: Data) {
        let url = if path.hasPrefix("http") { path } else if path.hasPrefix("/") { "http://127.0.0.1:\(port)\(path)" } else {
            "http://127.0.0.1:\(port)/t/\(slug)/\(path)"
        }
        // AsyncHTTPClient, as the other tests that talk to a live server: Foundation's URLSession on
        // Linux (libcurl) is one more event loop whose stalls no watchdog here can see.
        var request = HTTPClientRequest(url: url)
        request.method = method == "GET" ? .GET : .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return (Int(response.status.code), Data(bytes.readableBytesView))
    }

    /// POSTs a GraphQL request (`query`, `variables`, `documentId`...) as JSON: the response.
    func post(_ request: GraphQLObject, token: String? = nil) async throws -> GraphQLValue {
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return try GraphQLValue(json: try await send("graphql", headers: headers, body: Data(GraphQLValue.object(request).json.utf8)).body)
    }

    func graphQL(_ query: String, _ variables: GraphQLObject = [:], token: String? = nil) async throws -> GraphQLValue {
        try await post(["query": .string(query), "variables": .object(variables)], token: token)
    }
}
