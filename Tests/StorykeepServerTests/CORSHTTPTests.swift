import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storykeep
import StorykeepCore
import StorykeepTestSupport
import Testing

/// Issue 17: CORS per tenant, from the tenant file's `cors.origins`.
@Suite struct CORSHTTPTests {
    static let app = "https://app.example.org"

    static func preflight(_ origin: String, method: String = "POST", headers: String = "content-type, authorization") -> HTTPFields {
        [.origin: origin, .accessControlRequestMethod: method, .accessControlRequestHeaders: headers]
    }

    @Test func anAllowedOriginsPreflightIsAnsweredWithWhatAppsSend() async throws {
        try await withAccounts(tweak: { _, file in file.cors.origins = [Self.app, "http://localhost:5173"] }) { h in
            let headers = Self.preflight(Self.app, headers: "content-type, authorization, graphql-require-preflight, traceparent")
            try await h.client.execute(uri: "/t/\(h.tenant.slug)/graphql", method: .options, headers: headers) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowOrigin] == Self.app)
                #expect(response.headers[.accessControlAllowCredentials] == "true")
                #expect(response.headers[.accessControlMaxAge] == "7200")
                #expect(response.headers[values: .vary].contains("Origin"))
                let methods = try #require(response.headers[.accessControlAllowMethods])
                #expect(Set(methods.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }).isSuperset(of: ["GET", "POST"]))
                let allowed = Set(try #require(response.headers[.accessControlAllowHeaders]).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(
                    allowed.isSuperset(of: [
                        "content-type", "authorization", "graphql-require-preflight", "apollo-require-preflight", "traceparent",
                    ]))
            }
            // The media endpoint, which a PWA reads with its token, is open to the app too.
            try await h.client.execute(uri: "/t/\(h.tenant.slug)/media/\(UUID())", method: .options, headers: Self.preflight("http://localhost:5173", method: "GET", headers: "authorization")) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowOrigin] == "http://localhost:5173")
            }
        }
    }

    @Test func anAllowedOriginReadsAnswersErrorsIncluded() async throws {
        try await withAccounts(tweak: { _, file in file.cors.origins = [Self.app] }) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let body = ByteBuffer(string: #"{"query":"{ me { id } }"}"#)
            let headers: HTTPFields = [.origin: Self.app, .contentType: "application/json", .authorization: "Bearer \(sam.token)"]
            try await h.client.execute(uri: "/t/\(h.tenant.slug)/graphql", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == Self.app)
                #expect(response.headers[.accessControlExposeHeaders]?.contains("X-Request-Id") == true)
                #expect(response.headers[values: .vary].contains("Origin"))
            }
            // An error the app must be able to show: a file without a token.
            try await h.client.execute(uri: "/t/\(h.tenant.slug)/media/\(UUID())", method: .get, headers: [.origin: Self.app]) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.accessControlAllowOrigin] == Self.app)
            }
        }
    }

    @Test func otherOriginsAndOtherTenantsGetNoCORSHeaders() async throws {
        try await withAccounts(tenants: 2, tweak: { index, file in file.cors.origins = index == 0 ? [Self.app] : [] }) { h in
            let other = h.tenants[1]
            let corsHeaders: [HTTPField.Name] = [
                .accessControlAllowOrigin, .accessControlAllowCredentials, .accessControlAllowMethods, .accessControlAllowHeaders,
                .accessControlMaxAge, .accessControlExposeHeaders,
            ]
            // Another site, a look-alike, a different scheme or port, the page of a file:// or sandboxed frame ("null").
            let strangers = ["https://evil.example", "https://app.example.org.evil.example", "http://app.example.org", "https://app.example.org:8443", "null"]
            for origin in strangers {
                try await h.client.execute(uri: "/t/\(h.tenant.slug)/graphql", method: .options, headers: Self.preflight(origin)) { response in
                    #expect(response.status == .noContent)
                    #expect(corsHeaders.allSatisfy { response.headers[$0] == nil }, "\(origin)")
                }
                let headers: HTTPFields = [.origin: origin, .contentType: "application/json"]
                try await h.client.execute(uri: "/t/\(h.tenant.slug)/graphql", method: .post, headers: headers, body: ByteBuffer(string: #"{"query":"{ me { id } }"}"#)) { response in
                    #expect(response.status == .ok)
                    #expect(corsHeaders.allSatisfy { response.headers[$0] == nil }, "\(origin)")
                    #expect(response.headers[values: .vary].contains("Origin"))
                }
            }
            // The first tenant's app is no origin of the second tenant's.
            try await h.client.execute(uri: "/t/\(other.slug)/graphql", method: .options, headers: Self.preflight(Self.app)) { response in
                #expect(corsHeaders.allSatisfy { response.headers[$0] == nil })
            }
        }
    }

    @Test func theOAuthTokenEndpointIsNoBrowsersToCall() async throws {
        try await withAccounts(tweak: { _, file in file.cors.origins = [Self.app] }) { h in
            let path = "/t/\(h.tenant.slug)/oauth/token"
            try await h.client.execute(uri: path, method: .options, headers: Self.preflight(Self.app)) { response in
                #expect(response.status != .noContent)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
            let headers: HTTPFields = [.origin: Self.app, .contentType: "application/x-www-form-urlencoded"]
            try await h.client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: "grant_type=client_credentials")) { response in
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
        }
    }

    @Test func aTenantFileListsExactOriginsOnly() throws {
        func decode(_ origins: String) throws -> TenantFile {
            try TenantFiles.decode(
                """
                slug: cors-check
                displayName: Agency
                timeZone: Europe/London
                termsVersion: "1"
                modules: []
                moodIcons: [{ emoji: "🙂", label: Okay }]
                cors: { origins: \(origins) }
                """, file: "cors-check")
        }
        let good = #"["https://app.example.org", "http://localhost:5173", "http://127.0.0.1:8080", "http://[::1]:3000"]"#
        #expect(try decode(good).cors.origins.count == 4)
        #expect(try TestTenants.file().cors.origins == [])
        let bad = [
            #"["*"]"#, #"["https://*.example.org"]"#, #"["null"]"#, #"["https://App.example.org"]"#, #"["https://app.example.org/"]"#,
            #"["https://app.example.org/pwa"]"#, #"["ftp://app.example.org"]"#, #"["app.example.org"]"#, #"["https://a.example:99999"]"#,
            #"["https://a.example", "https://a.example"]"#,
        ]
        for origins in bad {
            #expect(throws: TenantFileError.self, "\(origins)") { try decode(origins) }
            do {
                _ = try decode(origins)
            } catch {
                #expect("\(error)".contains("cors.origins"), "\(error)")
            }
        }
    }

    /// The real thing: a page of another origin (a second loopback port), in headless Chromium,
    /// logs in and asks who it is. From an allowed origin it reads both answers; from another the
    /// browser refuses (the page's `fetch` fails), though the server is the same.
    @Test func aBrowserAppOfAnAllowedOriginWorksAndAnotherIsBlocked() async throws {
        let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Client/cors_browser.py").path
        let (_, portText) = try await runProcess(["python3", script, "free-port"])
        let pagePort = try #require(Int(portText.trimmingCharacters(in: .whitespacesAndNewlines)))
        try await withAccounts(setup: .live, tweak: { _, file in file.cors.origins = ["http://localhost:\(pagePort)"] }) { h in
            let sam = try await h.person(.youngPerson, "sam")
            let api = "http://127.0.0.1:\(try #require(h.client.port))/t/\(h.tenant.slug)/graphql"
            let (status, output) = try await runProcess(["python3", script, "run", api, String(pagePort), sam.loginName, sam.password, "localhost", "127.0.0.1"])
            #expect(status == 0, "\(output)")
            let outcomes = try JSONDecoder().decode([String: String].self, from: Data(output.utf8))
            #expect(outcomes["localhost"] == "ok \(sam.id.uuidString.lowercased())", "\(output)")
            #expect(outcomes["127.0.0.1"] == "blocked TypeError", "\(output)")
        }
    }
}
