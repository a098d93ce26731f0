import Foundation
import GraphQL
import HTTPTypes
import HummingbirdTesting
import Storykeep
import StorykeepSeed
import Testing

/// The fuzz pass's requests to the endpoints themselves: the media endpoint's ids and
/// conditional headers, the GraphQL endpoint's headers and bodies, and the upload endpoint's
/// multipart bodies; and, over a socket of their own, requests that no HTTP client would write.
extension SecurityFuzzTests {
    /// `GET /t/<slug>/media/<id>` with malformed and extreme ids, ranges, validators and tokens.
    @Test func mediaEndpoint() async throws {
        try await Self.withFuzzWorld("media") { world in
            let media = world.fixtures.media
            let etag = try #require(
                await world.send([], as: .youngPerson, path: "media/\(media)", method: .get, headers: [:],
                    target: "GET media/:id", caseName: "own file", how: "young person")?.headers[.eTag])
            for role in FuzzRole.allCases {
                for (name, id) in FuzzHTTPCases.mediaIDs(media) {
                    await world.send(
                        [], as: role, path: "media/\(id)", method: .get, headers: [:], target: "GET media/:id", caseName: name,
                        how: role.rawValue)
                }
            }
            for (header, cases) in FuzzHTTPCases.mediaHeaders(etag: etag) {
                for (name, value) in cases {
                    // If-Range judges a Range.
                    let headers: HTTPFields = header == .ifRange ? [header: value, .range: "bytes=1-"] : [header: value]
                    await world.send(
                        [], as: .youngPerson, path: "media/\(media)", method: .get, headers: headers,
                        target: "GET media/:id \(header)", caseName: name, how: "young person")
                }
                try await world.expectAlive(after: "media \(header)")
            }
            for (name, value) in FuzzHTTPCases.authorizations(token: world.actors[.youngPerson]?.token ?? "") {
                await world.send(
                    [], as: .anonymous, path: "media/\(media)", method: .get, headers: [.authorization: value],
                    target: "GET media/:id Authorization", caseName: name, how: "raw header")
            }
        }
    }

    /// The GraphQL endpoint with malformed Content-Type, Accept and Authorization headers, other
    /// methods, malformed JSON bodies and query strings. (Headers too large for the server to
    /// read, on which it may close the connection, are among the raw requests.)
    @Test func graphQLEndpointHeadersAndBodies() async throws {
        try await Self.withFuzzWorld("graphql endpoint") { world in
            let query = Array(#"{"query":"{ me { id } }"}"#.utf8)
            for (name, value) in FuzzHTTPCases.contentTypes {
                var headers = HTTPFields()
                if let value { headers[.contentType] = value }
                await world.send(
                    query, as: .youngPerson, headers: headers, target: "POST graphql Content-Type", caseName: name, how: "young person")
            }
            for (name, value) in FuzzHTTPCases.accepts {
                await world.send(
                    query, as: .youngPerson, headers: [.contentType: "application/json", .accept: value],
                    target: "POST graphql Accept", caseName: name, how: "young person")
            }
            for (name, value) in FuzzHTTPCases.authorizations(token: world.actors[.youngPerson]?.token ?? "") {
                await world.send(
                    query, as: .anonymous, headers: [.contentType: "application/json", .authorization: value],
                    target: "POST graphql Authorization", caseName: name, how: "raw header")
            }
            try await world.expectAlive(after: "headers")
            for method in [HTTPRequest.Method.put, .patch, .delete, .options, .head] {
                await world.send(
                    query, as: .youngPerson, method: method, target: "graphql methods", caseName: method.rawValue, how: "young person")
            }
            for role in FuzzRole.allCases {
                for (name, body) in FuzzHTTPCases.jsonBodies {
                    await world.send(body, as: role, target: "POST graphql body", caseName: name, how: role.rawValue)
                }
                for (name, queryString) in FuzzHTTPCases.queryStrings {
                    await world.send(
                        [], as: role, path: "graphql?\(queryString)", method: .get, headers: [:], target: "GET graphql", caseName: name,
                        how: role.rawValue)
                }
                try await world.expectAlive(after: "bodies as \(role.rawValue)")
            }
        }
    }

    /// The upload endpoint (multipart `POST graphql`) with malformed `operations`, `map` and
    /// parts, a NUL in a file name, too many and too large files: every case as a young person,
    /// four seeded ones anonymously and as an admin. Each on a connection of its own, which the
    /// server may close on refusing an upload before reading it.
    @Test func multipartUploads() async throws {
        try await Self.withFuzzWorld("uploads") { world in
            var random = SeedRandom(seed: Self.seed)
            let path = "/t/\(world.harness.tenant.slug)/graphql"
            for role in FuzzRole.allCases {
                let cases = FuzzHTTPCases.multipartBodies
                for (name, multipart) in role == .youngPerson ? cases : Array(cases.shuffled(using: &random).prefix(4)) {
                    await world.sendRaw(
                        multipart.request(path: path, token: world.actors[role]?.token), target: "POST graphql multipart", caseName: name,
                        how: role.rawValue)
                }
                try await world.expectAlive(after: "multipart as \(role.rawValue)")
            }
        }
    }

    /// Requests written byte by byte over a socket: a `Content-Length` that lies, malformed
    /// chunked bodies, header lines without a colon, NULs in names and values, folded and huge
    /// headers, malformed request lines. A server may close the connection on a request it cannot
    /// frame; it must not answer 5xx, and must go on serving.
    @Test func rawHTTPRequests() async throws {
        try await Self.withFuzzWorld("raw HTTP") { world in
            let token = try #require(world.actors[.youngPerson]?.token)
            for (name, request) in FuzzHTTPCases.rawRequests(slug: world.harness.tenant.slug, token: token, media: world.fixtures.media) {
                await world.sendRaw(request, target: "raw HTTP", caseName: name, how: "young person")
                try await world.expectAlive(after: "raw HTTP \(name)")
            }
        }
    }
}
