import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storykeep
import StorykeepTestSupport
import Testing

/// Issue 16, item 1: no value in a request can make the server trap. Every numeric input the API
/// has (page sizes, counts, dates, cursors, `Range`, `Content-Length`) gets extreme values; each
/// is answered with a 4xx or a GraphQL error with a code, and the server still answers after. A
/// trap would end the test process itself, which fails the run as loudly.
@Suite(.serialized) struct BoundsHTTPTests {
    /// JSON numbers past every integer type the server has, and past `Double`.
    static let hugeNumbers = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "99999999999999999999999999999999", "2147483648", "-2147483649",
        "1e308", "-1e308", "1e400", "-1", "101", "0.5",
    ]

    @Test func extremeNumbersInEveryNumericArgumentAreRefusedWithACode() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            let admin = try await h.admin()
            let operations: [(query: String, token: String)] = [
                ("query($n: Int) { entries(first: $n) { edges { cursor } } }", sam),
                ("query($n: Int) { search(query: \"x\", first: $n) { edges { cursor } } }", sam),
                ("query($n: Int) { archive(first: $n) { edges { cursor } } }", sam),
                ("query($n: Int) { suggestions(count: $n) }", sam),
                ("query($n: Int) { people(first: $n) { edges { cursor } } }", admin),
            ]
            for (query, token) in operations {
                for number in Self.hugeNumbers {
                    try await h.expectRefused(#"{"query":\#(GraphQLValue.string(query).json),"variables":{"n":\#(number)}}"#, token: token)
                    // The same as a literal in the document (a float or an out-of-range Int fails validation).
                    let literal = query.replacingOccurrences(of: "query($n: Int) ", with: "").replacingOccurrences(of: "$n", with: number)
                    try await h.expectRefused(GraphQLValue.object(["query": .string(literal)]).json, token: token)
                }
            }
            try await h.expectAlive()
        }
    }

    @Test func extremeDatesAndMonthsAreRefusedOrServedButNeverCrash() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            for month in ["99999-01", "0000-01", "0000-00", "2026-13", "-001-01", "+999-01", "2026-1", "９９９９-01", "", "2026-02-30"] {
                try await h.expectRefused(GraphQLValue.object(["query": .string("{ calendar(month: \(GraphQLValue.string(month).json)) { date } }")]).json, token: sam)
            }
            for date in ["99999-01-01", "0000-01-01", "0000-00-00", "2026-02-29", "9999-12-32", "-0001-01-01", "+2026-01-01", "2026-1-01", "1e308"] {
                try await h.expectRefused(
                    GraphQLValue.object([
                        "query": .string("mutation($i: EntryInput!) { createEntry(input: $i) { id } }"),
                        "variables": .object(["i": .object(["date": .string(date), "kind": .string("TEXT")])]),
                    ]).json, token: sam)
                try await h.expectRefused(
                    GraphQLValue.object([
                        "query": .string("query($d: Date) { entries(filter: { from: $d }) { edges { cursor } } }"),
                        "variables": .object(["d": .string(date)]),
                    ]).json, token: sam)
            }
            // The ends of what the Date scalar takes are real days: served, paged and listed.
            for date in ["0001-01-01", "9999-12-31"] {
                _ = try await h.createEntry(["date": .string(date), "kind": .string("TEXT"), "text": .string("far")], token: sam)
            }
            var after: GraphQLValue = .null
            var dates: [String] = []
            repeat {
                let page = try await h.graphQL(
                    "query($a: String) { entries(first: 1, after: $a) { edges { node { date } } pageInfo { hasNextPage endCursor } } }",
                    ["a": after], token: sam)
                let connection = try #require(page["data"]?["entries"], "\(page.json)")
                dates += connection.nodes.compactMap { $0["date"]?.stringValue }
                after = connection["pageInfo"]?["hasNextPage"] == .bool(true) ? connection["pageInfo"]?["endCursor"] ?? .null : .null
            } while after != .null
            #expect(dates == ["9999-12-31", "0001-01-01"])
            for month in ["0001-01", "9999-12"] {
                let calendar = try await h.graphQL("{ calendar(month: \(GraphQLValue.string(month).json)) { date entryCount } }", token: sam)
                let days = try #require(calendar["data"]?["calendar"]?.listValue, "\(calendar.json)")
                #expect(days.count == 31)
                #expect(days.compactMap { $0["entryCount"]?.intValue }.reduce(0, +) == 1)
            }
            try await h.expectAlive()
        }
    }

    @Test func rangeHeadersOfAnySizeAreAnsweredAsRFC9110Says() async throws {
        try await withAccounts(tweak: JournalHTTP.tenant) { h in
            let sam = try await h.youngPerson("sam").token
            let bytes = SampleMedia.mp3(bytes: 5_000)
            let media = try await h.uploadMedia(bytes, contentType: "audio/mpeg", token: sam)
            let url = try #require(media["url"]?.stringValue)
            let etag = "\"\(try #require(media["sha256"]?.stringValue))\""

            // A last position past the end is clamped to the end, however many digits it has.
            for last in ["9223372036854775807", "9223372036854775808", String(repeating: "9", count: 10_000), "5000", "4999"] {
                let part = try await h.get(url, token: sam, headers: [.range: "bytes=0-\(last)"])
                #expect(part.status == .partialContent, "bytes=0-\(last.prefix(30))")
                #expect(part.headers[.contentRange] == "bytes 0-4999/5000", "bytes=0-\(last.prefix(30))")
                #expect(Array(part.body.readableBytesView) == bytes)
            }
            let tail = try await h.get(url, token: sam, headers: [.range: "bytes=4990-9223372036854775807"])
            #expect(tail.headers[.contentRange] == "bytes 4990-4999/5000")
            #expect(Array(tail.body.readableBytesView) == Array(bytes[4990...]))
            // A suffix longer than the file is the whole file.
            for suffix in ["9223372036854775807", "9223372036854775808", "99999999999999999999999", "5000", "5001"] {
                let whole = try await h.get(url, token: sam, headers: [.range: "bytes=-\(suffix)"])
                #expect(whole.status == .partialContent, "bytes=-\(suffix)")
                #expect(whole.headers[.contentRange] == "bytes 0-4999/5000")
            }
            let last = try await h.get(url, token: sam, headers: [.range: "bytes=4999-4999"])
            #expect(last.headers[.contentRange] == "bytes 4999-4999/5000")
            #expect(Array(last.body.readableBytesView) == [bytes[4999]])
            // Starting at or after the end, or a zero-length suffix: 416, with the size.
            for range in ["bytes=5000-", "bytes=5000-5000", "bytes=9223372036854775807-", "bytes=9223372036854775807-9223372036854775807",
                          "bytes=" + String(repeating: "9", count: 10_000) + "-", "bytes=-0", "BYTES=5000-"] {
                let outside = try await h.get(url, token: sam, headers: [.range: range])
                #expect(outside.status == .rangeNotSatisfiable, "\(range.prefix(30))")
                #expect(outside.headers[.contentRange] == "bytes */5000", "\(range.prefix(30))")
            }
            // Malformed, reversed, several ranges or another unit: ignored, the whole file.
            for range in ["bytes=10-5", "bytes=+1-5", "bytes=-1-5", "bytes=1--5", "bytes=0x10-20", "bytes=1e3-", "bytes= - ",
                          "bytes=-", "bytes=", "bytes=0-1,5-6", "items=0-5", "bytes=٣-٤"] {
                let whole = try await h.get(url, token: sam, headers: [.range: range])
                #expect(whole.status == .ok, "\(range)")
                #expect(whole.body.readableBytes == 5000, "\(range)")
            }
            // If-Range: the file's own strong tag honours the range; any other tag or a date sends it whole.
            let matching = try await h.get(url, token: sam, headers: [.range: "bytes=0-9223372036854775807", .ifRange: etag])
            #expect(matching.status == .partialContent)
            for ifRange in ["W/\(etag)", "\"other\"", "Wed, 21 Oct 2015 07:28:00 GMT", ""] {
                let stale = try await h.get(url, token: sam, headers: [.range: "bytes=9223372036854775807-", .ifRange: ifRange])
                #expect(stale.status == .ok, "If-Range: \(ifRange)")
                #expect(stale.body.readableBytes == 5000)
            }
            try await h.expectAlive()
        }
    }

    @Test func extremeContentLengthsAreRefusedOrIgnored() async throws {
        try await withAccounts { h in
            let body = GraphQLValue.object(["query": .string("{ me { id } }")]).json
            for length in ["9223372036854775807", "9223372036854775808", "99999999999999999999999999", "-1", "-9223372036854775808", "1e308"] {
                let status = try await h.client.execute(
                    uri: "/t/\(h.tenant.slug)/graphql", method: .post,
                    headers: [.contentType: "application/json", .contentLength: length], body: ByteBuffer(string: body)
                ) { $0.status }
                #expect(status.code < 500, "Content-Length: \(length) got \(status)")
            }
            try await h.expectAlive()
        }
    }
}

extension AccountsHarness {
    /// POSTs `body` (raw JSON) with `token`, and expects a refusal a client can act on: a 4xx, or
    /// errors that each carry a code other than INTERNAL_SERVER_ERROR. Never a 5xx.
    func expectRefused(_ body: String, token: String?, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        let (status, json) = try await client.execute(
            uri: "/t/\(tenant.slug)/graphql", method: .post, headers: headers, body: ByteBuffer(string: body)
        ) { response in (response.status, try? response.json) }
        #expect(status.code < 500, "\(body): \(status)", sourceLocation: sourceLocation)
        if (400..<500).contains(status.code) { return }
        let errors = json?["errors"]?.listValue ?? []
        #expect(!errors.isEmpty, "\(body) was not refused: \(json?.json ?? "")", sourceLocation: sourceLocation)
        for error in errors {
            let code = error["extensions"]?["code"]?.stringValue
            #expect(code != nil && code != "INTERNAL_SERVER_ERROR", "\(body): \(error.json)", sourceLocation: sourceLocation)
        }
    }

    /// The process still serves: `/health/live` answers 200.
    func expectAlive(sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
        let status = try await client.execute(uri: "/health/live", method: .get, headers: [:], body: nil) { $0.status }
        #expect(status == .ok, sourceLocation: sourceLocation)
    }
}
