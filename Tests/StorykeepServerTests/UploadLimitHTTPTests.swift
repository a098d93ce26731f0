import AsyncHTTPClient
import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Storykeep
import StorykeepTestSupport
import Testing

// Issue 16, item 9: an upload is judged against its tenant's limit (`uploads.maxMegabytes`)
// before its body is read when its Content-Length tells, and as its bytes arrive when it does
// not; a file within the limit is stored intact. Over a real socket: the refusals must come
// while the client is still holding back the rest of its body.

@Suite("Uploads are judged before they are read")
struct UploadLimitHTTPTests {
    static let mebibyte = 1_048_576
    /// The test tenant, with an upload limit of 1 MiB.
    static let oneMebibyteLimit: @Sendable (Int, inout TenantFile) -> Void = { index, file in
        JournalHTTP.tenant(index, &file)
        file.uploads.maxMegabytes = 1
    }
    static let uploadMedia = "mutation($f: Upload!) { uploadMedia(file: $f) { id byteSize sha256 url } }"

    @Test func aBodyLargerThanTheTenantsLimitIsRefusedByItsContentLength() async throws {
        try await withAccounts(setup: .live, tweak: Self.oneMebibyteLimit) { h in
            let (sam, samID) = try await h.youngPerson("sam")
            let request = GraphQLMultipart.request(Self.uploadMedia, ["f": .null], files: [("f", SampleMedia.png(bytes: 3 * Self.mebibyte), "image/png")])
            // Only the first 64 KiB of the body are ever sent: the answer cannot wait for the rest.
            let answer = try await h.sendHoldingBack(request, token: sam, sending: 64 * 1024, declaringLength: true)
            #expect(answer.status == .contentTooLarge)
            #expect(answer.json.errorCode == "PAYLOAD_TOO_LARGE")
            #expect(answer.json.errorMessage?.contains("1 MiB") == true, "\(answer.json.json)")
            #expect(try await h.count("media", ownedBy: samID) == 0)
            try await h.expectUploadsWork(token: sam)
        }
    }

    @Test func aChunkedUploadPastTheTenantsLimitIsRefusedWhileItStreams() async throws {
        try await withAccounts(setup: .live, tweak: Self.oneMebibyteLimit) { h in
            let (sam, samID) = try await h.youngPerson("sam")
            let request = GraphQLMultipart.request(Self.uploadMedia, ["f": .null], files: [("f", SampleMedia.png(bytes: 5 * Self.mebibyte), "image/png")])
            // No Content-Length (chunked), and the body stops a little past the limit, far from
            // its end: the server must count as it reads, against the tenant's limit, not the
            // server's ceiling (100 MiB).
            let answer = try await h.sendHoldingBack(
                request, token: sam, sending: Self.mebibyte + 256 * 1024, declaringLength: false)
            #expect(answer.status == .contentTooLarge)
            #expect(answer.json.errorCode == "PAYLOAD_TOO_LARGE")
            #expect(answer.json.errorMessage == "The file `0` is larger than the limit of 1 MiB.", "\(answer.json.json)")
            #expect(try await h.count("media", ownedBy: samID) == 0)
            try await h.expectUploadsWork(token: sam)
        }
    }

    @Test func aFileAtTheLimitIsStoredIntactAndOneByteMoreIsRefused() async throws {
        try await withAccounts(setup: .live, tweak: Self.oneMebibyteLimit) { h in
            let (sam, samID) = try await h.youngPerson("sam")
            let bytes = SampleMedia.png(bytes: Self.mebibyte)
            let media = try await h.uploadMedia(bytes, contentType: "image/png", token: sam)
            #expect(media["byteSize"] == .int(Self.mebibyte))
            // The digest of what was sent, computed by PostgreSQL, not by the code under test.
            let sent = try await h.app.withConnection { connection in
                try await connection.query("select encode(sha256($1), 'hex')", bytes)[0].decode(String.self, at: 0)
            }
            #expect(media["sha256"]?.stringValue == sent)
            let stored = try await h.get(try #require(media["url"]?.stringValue), token: sam)
            #expect(Array(stored.body.readableBytesView) == bytes)

            // One byte more: within what the Content-Length allowance for the other fields lets
            // through, so it is refused as the file's bytes pass the limit.
            let over = try await h.upload(Self.uploadMedia, ["f": .null], files: [("f", SampleMedia.png(bytes: Self.mebibyte + 1), "image/png")], token: sam)
            #expect(over.errorCode == "PAYLOAD_TOO_LARGE")
            #expect(over.errorMessage == "The file `0` is larger than the limit of 1 MiB.", "\(over.json)")
            #expect(try await h.count("media", ownedBy: samID) == 1)
            try await h.expectUploadsWork(token: sam)
        }
    }

    @Test func severalFilesTogetherAreHeldToTheLimit() async throws {
        try await withAccounts(tweak: Self.oneMebibyteLimit) { h in
            let (sam, samID) = try await h.youngPerson("sam")
            let half = SampleMedia.png(bytes: Self.mebibyte / 2 + 1)
            let both = try await h.upload(
                "mutation($i: EntryInput!, $f: [Upload!]) { createEntry(input: $i, files: $f) { id } }",
                ["i": .object(["date": .string("2026-11-01"), "kind": .string("IMAGE")]), "f": .list([.null, .null])],
                files: [("f.0", half, "image/png"), ("f.1", half, "image/png")], token: sam)
            #expect(both.errorCode == "PAYLOAD_TOO_LARGE")
            #expect(both.errorMessage == "The files of this request are larger than the limit of 1 MiB in all.", "\(both.json)")
            #expect(try await h.count("entries", ownedBy: samID, column: "author_id") == 0)
            #expect(try await h.count("media", ownedBy: samID) == 0)
        }
    }
}

extension AccountsHarness {
    /// What a refusal looked like.
    struct Answer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var json: GraphQLValue
    }

    /// Sends `request` to the live server's GraphQL endpoint with only its first `sending` bytes
    /// of body, holding back the rest for as long as the answer takes (it is never sent), with
    /// its Content-Length or chunked. Fails, rather than hangs, if no answer comes.
    func sendHoldingBack(
        _ request: (headers: HTTPFields, body: [UInt8]), token: String, sending: Int, declaringLength: Bool
    ) async throws -> Answer {
        let port = try #require(client.port, "a live server")
        var http = HTTPClientRequest(url: "http://127.0.0.1:\(port)/t/\(tenant.slug)/graphql")
        http.method = .POST
        for field in request.headers { http.headers.add(name: field.name.rawName, value: field.value) }
        http.headers.add(name: "Authorization", value: "Bearer \(token)")
        let (pieces, sender) = AsyncStream<ByteBuffer>.makeStream()
        for start in stride(from: 0, to: min(sending, request.body.count), by: 16 * 1024) {
            sender.yield(ByteBuffer(bytes: request.body[start..<min(start + 16 * 1024, sending)]))
        }
        http.body = .stream(pieces, length: declaringLength ? .known(Int64(request.body.count)) : .unknown)
        defer { sender.finish() }
        let response = try await HTTPClient.shared.execute(http, timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 1 << 20)
        var headers = HTTPFields()
        for (name, value) in response.headers { headers[HTTPField.Name(name)!] = value }
        return Answer(
            status: HTTPResponse.Status(code: Int(response.status.code)), headers: headers,
            json: try GraphQLValue(json: body.readableBytesView))
    }

    /// The server still answers: a small upload is stored.
    func expectUploadsWork(token: String) async throws {
        let media = try await uploadMedia(SampleMedia.png(bytes: 1000), contentType: "image/png", token: token)
        #expect(media["byteSize"] == .int(1000))
    }
}
