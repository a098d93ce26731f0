import HTTPTypes
import StorykeepTestSupport

/// The hostile requests of the fuzz pass's endpoint tests: ids, headers, bodies, multipart
/// bodies and raw requests, each with a name for the table.
enum FuzzHTTPCases {
    static let tenKB = String(repeating: "a", count: 10_000)

    // MARK: - Media

    /// Ids for `media/<id>`, percent-encoded where a path needs it.
    static func mediaIDs(_ own: String) -> [(String, String)] {
        [
            ("own id", own), ("own id uppercased", own.uppercased()), ("not a UUID", "not-a-uuid"),
            ("nil UUID", "00000000-0000-0000-0000-000000000000"), ("unknown UUID", "0b7f1c2e-9a4d-4e8b-8f00-123456789abc"),
            ("own id + %00", own + "%00"), ("%00", "%00"), ("bad escape %ZZ", "%ZZ"), ("10 KB", tenKB),
            ("dot dot", "..%2F..%2Fetc%2Fpasswd"), ("2^63", "9223372036854775808"), ("-1", "-1"),
            ("own id + space", own + "%20"), ("overlong NUL", "%C0%80"), ("UTF-8 surrogate", "%ED%A0%80"),
            ("emoji", "%F0%9F%98%80"), ("own id braces", "%7B\(own)%7D"),
        ]
    }

    /// `Range`, `If-Range` and `If-None-Match` values, against a file whose tag is `etag`.
    static func mediaHeaders(etag: String) -> [(HTTPField.Name, [(String, String)])] {
        let ranges = [
            "0-2^63-1": "bytes=0-9223372036854775807", "2^63-1-": "bytes=9223372036854775807-",
            "2^63-2-2^63-1": "bytes=9223372036854775806-9223372036854775807", "0-2^63-2": "bytes=0-9223372036854775806",
            "-2^63": "bytes=-9223372036854775808", "-(2^63-1)": "bytes=-9223372036854775807", "0-2^64": "bytes=0-18446744073709551616",
            "20 digits-": "bytes=99999999999999999999-", "-0": "bytes=-0", "0-0": "bytes=0-0", "5-1": "bytes=5-1",
            "--1": "bytes=--1", "empty spec": "bytes=", "two ranges": "bytes=0-1,2-3", "other unit": "items=0-1",
            "1e3-": "bytes=1e3-", "spaces": "bytes= 0 - 1 ", "-1": "bytes=-1", "0-": "bytes=0-", "+1-2": "bytes=+1-2",
            "-1-2": "bytes=-1-2", "1000 ranges": "bytes=" + (0..<1000).map { "\($0)-\($0)" }.joined(separator: ","),
            "10 KB": "bytes=0-" + String(repeating: "9", count: 10_000), "no unit": "0-1", "0x10-": "bytes=0x10-",
        ]
        let validators = [
            "garbage": "garbage", "own tag": etag, "weak own tag": "W/" + etag, "date": "Sun, 06 Nov 1994 08:49:37 GMT",
            "empty": "", "unterminated quote": "\"abc", "10 KB": tenKB, "1000 tags": (0..<1000).map { "\"\($0)\"" }.joined(separator: ","),
            "star": "*", "commas": ",,,,", "lone surrogate escape": "\"\\ud800\"",
        ]
        return [
            (.range, ranges.sorted { $0.key < $1.key }),
            (.ifRange, validators.sorted { $0.key < $1.key }),
            (.ifNoneMatch, validators.sorted { $0.key < $1.key }),
        ]
    }

    // MARK: - Headers

    /// `Authorization` values; `token` is a real session's.
    static func authorizations(token: String) -> [(String, String)] {
        [
            ("Bearer alone", "Bearer"), ("Bearer and space", "Bearer "), ("two spaces", "Bearer  \(token)"),
            ("Basic", "Basic YWxhZGRpbjpvcGVuc2VzYW1l"), ("10 KB token", "Bearer " + tenKB), ("three parts", "Bearer a b"),
            ("lowercase scheme", "bearer \(token)"), ("token + x", "Bearer \(token)x"), ("token uppercased", "Bearer \(token.uppercased())"),
            ("token truncated", "Bearer \(token.dropLast())"), ("path", "Bearer ../../etc/passwd"), ("empty", ""),
            ("non-ASCII", "Bearer \u{FFFF}\u{202E}"), ("SQL", "Bearer ' OR 1=1 --"),
        ]
    }

    static let contentTypes: [(String, String?)] = [
        ("none", nil), ("empty", ""), ("latin1", "application/json; charset=latin1"), ("utf-16", "application/json; charset=utf-16"),
        ("quoted utf-8", "application/json; charset=\"utf-8\""), ("upper case", "APPLICATION/JSON"),
        ("two charsets", "application/json; charset=utf-8; charset=utf-16"), ("graphql", "application/graphql"),
        ("form", "application/x-www-form-urlencoded"), ("text", "text/plain"), ("semicolons", "application/json;;;"),
        ("unterminated quote", "application/json; a=\"unterminated"), ("multipart without boundary", "multipart/form-data"),
        ("multipart 71-char boundary", "multipart/form-data; boundary=" + String(repeating: "b", count: 71)),
        ("multipart mixed", "multipart/mixed; boundary=x"), ("any", "*/*"), ("no subtype", "application/"), ("slash", "/"),
        ("10 KB", "application/" + tenKB), ("graphql-response", "application/graphql-response+json"),
    ]

    static let accepts: [(String, String)] = [
        ("empty", ""), ("html", "text/html"), ("q=0", "application/graphql-response+json;q=0, application/json;q=0"),
        ("q=abc", "application/json;q=abc"), ("any q=0", "*/*;q=0"), ("10 KB", "application/" + tenKB),
        ("500 types", Array(repeating: "application/json", count: 500).joined(separator: ", ")), ("semicolons", ";;;"),
        ("q=1e308", "application/json;q=1e308"), ("q=-1", "application/json;q=-1"),
    ]

    // MARK: - Bodies

    static let jsonBodies: [(String, [UInt8])] = {
        var cases: [(String, String)] = [
            ("empty", ""), ("open brace", "{"), ("list", "[]"), ("null", "null"), ("number", "1e999"), ("string", "\"x\""),
            ("query number", #"{"query":1}"#), ("query null", #"{"query":null}"#), ("query object", #"{"query":{}}"#),
            ("variables string", #"{"query":"{ me { id } }","variables":"x"}"#),
            ("variables list", #"{"query":"{ me { id } }","variables":[1]}"#),
            ("operationName object", #"{"query":"{ me { id } }","operationName":{}}"#),
            ("operationName unknown", #"{"query":"query A { me { id } }","operationName":"B"}"#),
            ("extensions string", #"{"query":"{ me { id } }","extensions":"x"}"#),
            ("persisted garbage hash", #"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"zz"}}}"#),
            ("persisted version 2^63", #"{"extensions":{"persistedQuery":{"version":9223372036854775808,"sha256Hash":"zz"}}}"#),
            ("persisted hash + NUL", #"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"\u0000"}}}"#),
            ("lone surrogate in query", #"{"query":"{ me { id } }\ud800"}"#),
            ("lone surrogate in string literal", #"{"query":"{ search(query: \"\ud800\") { __typename } }"}"#),
            ("NUL escape in query", #"{"query":"{ me\u0000 { id } }"}"#),
            ("duplicate keys", #"{"query":"{ me { id } }","query":"mutation { logout }"}"#),
            ("BOM", "\u{FEFF}{\"query\":\"{ me { id } }\"}"), ("truncated", #"{"query":"{ me"#),
            ("trailing garbage", #"{"query":"{ me { id } }"} x"#), ("10,000 deep", String(repeating: "[", count: 10_000)),
            ("deep variables",
             #"{"query":"{ me { id } }","variables":{"a":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}}"),
            ("syntax error", #"{"query":"{ me { id "}"#), ("mutation over batch", #"[{"query":"{ me { id } }"}]"#),
            ("5,001 tokens", #"{"query":"{ "# + String(repeating: "me ", count: 5_001) + #"}"}"#),
            ("deep selection", #"{"query":""# + String(repeating: "{ me ", count: 200) + String(repeating: "}", count: 200) + #""}"#),
            ("1e309 variable", #"{"query":"query($n: Int) { suggestions(count: $n) }","variables":{"n":1e309}}"#),
            ("2 MB body", #"{"query":"{ me { id } }","x":""# + String(repeating: "x", count: 2 << 20) + #""}"#),
        ]
        cases.append(("huge number", #"{"query":"{ me { id } }","x":"# + String(repeating: "9", count: 100_000) + "}"))
        var bytes = cases.map { ($0.0, Array($0.1.utf8)) }
        bytes.append(("invalid UTF-8", Array(#"{"query":"{ me { id } }","x":""#.utf8) + [0xFF, 0xC0, 0x80] + Array(#""}"#.utf8)))
        bytes.append(("raw NUL", Array(#"{"query":"{ me {"#.utf8) + [0] + Array(#" id } }"}"#.utf8)))
        return bytes
    }()

    static let queryStrings: [(String, String)] = [
        ("bad escape", "query=%ZZ"), ("NUL", "query=%7B%20me%00%20%7B%20id%20%7D%20%7D"), ("no query", "variables=%7B%7D"),
        ("variables not JSON", "query=%7B%20me%20%7B%20id%20%7D%20%7D&variables=%7B"), ("mutation", "query=mutation%20%7B%20logout%20%7D"),
        ("surrogate escape", "query=%ED%A0%80"), ("query twice", "query=%7B%20me%20%7B%20id%20%7D%20%7D&query=x"),
        ("10 KB", "query=" + tenKB), ("empty", ""), ("only ampersands", "&&&&"),
    ]

    // MARK: - Multipart

    /// A multipart body to send, with its boundary and whether it carries the preflight header.
    struct Multipart {
        var boundary = "fuzz-boundary"
        var body: [UInt8]
        var preflight = true

        /// The whole HTTP request: `POST path` with the body and its length, and `token`, if any.
        func request(path: String, token: String?) -> [UInt8] {
            var head = "POST \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Content-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(body.count)\r\n"
            if preflight { head += "GraphQL-Require-Preflight: 1\r\n" }
            if let token { head += "Authorization: Bearer \(token)\r\n" }
            return Array((head + "\r\n").utf8) + body
        }
    }

    static let upload = #"{"query":"mutation($f: Upload!) { uploadMedia(file: $f) { id byteSize } }","variables":{"f":null}}"#
    static let map = #"{"0":["variables.f"]}"#

    /// A body of `parts` (headers, content), closed unless `closed` is false.
    static func multipart(_ parts: [(String, [UInt8])], boundary: String = "fuzz-boundary", closed: Bool = true) -> [UInt8] {
        var body: [UInt8] = []
        for (headers, content) in parts {
            body += Array("--\(boundary)\r\n\(headers)\r\n\r\n".utf8) + content + Array("\r\n".utf8)
        }
        return closed ? body + Array("--\(boundary)--\r\n".utf8) : body
    }

    static func field(_ name: String, _ value: String) -> (String, [UInt8]) {
        ("Content-Disposition: form-data; name=\"\(name)\"", Array(value.utf8))
    }

    /// A file part (a file name with bytes that are not UTF-8 is written by hand: `rawNameFile`).
    static func file(_ name: String, filename: String = "a.png", type: String = "image/png", _ bytes: [UInt8] = SampleMedia.png)
        -> (String, [UInt8])
    {
        ("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(type)", bytes)
    }

    static let multipartBodies: [(String, Multipart)] = {
        let operations = field("operations", upload)
        let mapField = field("map", map)
        func standard(_ file: (String, [UInt8])) -> [UInt8] { multipart([operations, mapField, file]) }
        // A file name with a NUL and a byte that is not UTF-8.
        var rawNameFile = multipart([operations, mapField])
        rawNameFile.removeLast("--fuzz-boundary--\r\n".utf8.count)
        rawNameFile += Array("--fuzz-boundary\r\nContent-Disposition: form-data; name=\"0\"; filename=\"a".utf8) + [0, 0xFF]
            + Array(".png\"\r\nContent-Type: image/png\r\n\r\n".utf8) + SampleMedia.png + Array("\r\n--fuzz-boundary--\r\n".utf8)
        let files = (0..<11).map { file("\($0)") }
        let tenThousandMap = "{" + (0..<10_000).map { "\"\($0)\":[\"variables.f\"]" }.joined(separator: ",") + "}"
        let longBoundary = String(repeating: "b", count: 71)
        let surrogateOperations = upload.replacingOccurrences(of: "} }", with: "} }\\ud800")
        let elevenMap = "{" + (0..<11).map { "\"\($0)\":[\"variables.f.\($0)\"]" }.joined(separator: ",") + "}"
        let elevenOperations =
            #"{"query":"mutation($f: [Upload!]) { createEntry(input: {date: \"2020-01-01\", kind: IMAGE}, files: $f) { id } }","#
            + #""variables":{"f":["# + Array(repeating: "null", count: 11).joined(separator: ",") + "]}}"
        return [
            ("valid", Multipart(body: standard(file("0")))),
            ("no preflight header", Multipart(body: standard(file("0")), preflight: false)),
            ("NUL in filename", Multipart(body: standard(file("0", filename: "a\u{0}.png")))),
            ("NUL and 0xFF in raw filename", Multipart(body: rawNameFile)),
            ("10 KB filename", Multipart(body: standard(file("0", filename: tenKB)))),
            ("NUL in part Content-Type", Multipart(body: standard(file("0", type: "image/png\u{0}")))),
            ("10 KB part Content-Type", Multipart(body: standard(file("0", type: tenKB)))),
            ("empty file", Multipart(body: standard(file("0", [])))),
            ("executable", Multipart(body: standard(file("0", type: "image/png", SampleMedia.exe)))),
            ("2 MiB file (limit 1 MiB)", Multipart(body: standard(file("0", SampleMedia.png(bytes: 2 << 20))))),
            ("operations not JSON", Multipart(body: multipart([field("operations", "{"), mapField, file("0")]))),
            ("operations empty", Multipart(body: multipart([field("operations", ""), mapField, file("0")]))),
            ("operations list", Multipart(body: multipart([field("operations", "[]"), mapField, file("0")]))),
            ("operations query number", Multipart(body: multipart([field("operations", #"{"query":1,"variables":{"f":null}}"#), mapField, file("0")]))),
            ("operations lone surrogate", Multipart(body: multipart([field("operations", surrogateOperations), mapField, file("0")]))),
            ("operations 2 MB", Multipart(body: multipart([field("operations", #"{"x":""# + String(repeating: "x", count: 2 << 20) + #""}"#), mapField]))),
            ("map not JSON", Multipart(body: multipart([operations, field("map", "nope"), file("0")]))),
            ("map list", Multipart(body: multipart([operations, field("map", "[]"), file("0")]))),
            ("map entry string", Multipart(body: multipart([operations, field("map", #"{"0":"variables.f"}"#), file("0")]))),
            ("map entry empty", Multipart(body: multipart([operations, field("map", #"{"0":[]}"#), file("0")]))),
            ("map path too deep", Multipart(body: multipart([operations, field("map", #"{"0":["variables.f.0.0"]}"#), file("0")]))),
            ("map path to query", Multipart(body: multipart([operations, field("map", #"{"0":["query"]}"#), file("0")]))),
            ("map path NUL", Multipart(body: multipart([operations, field("map", #"{"0":["variables.f\u0000"]}"#), file("0")]))),
            ("map path index 2^63", Multipart(body: multipart([operations, field("map", #"{"0":["variables.f.9223372036854775808"]}"#), file("0")]))),
            ("map 10,000 entries", Multipart(body: multipart([operations, field("map", tenThousandMap), file("0")]))),
            ("one file, two paths", Multipart(body: multipart([operations, field("map", #"{"0":["variables.f","variables.f"]}"#), file("0")]))),
            ("file missing", Multipart(body: multipart([operations, mapField]))),
            ("file twice", Multipart(body: multipart([operations, mapField, file("0"), file("0")]))),
            ("file not in map", Multipart(body: multipart([operations, mapField, file("0"), file("9")]))),
            ("part without name", Multipart(body: multipart([operations, mapField, ("Content-Disposition: form-data", [1])]))),
            ("part without disposition", Multipart(body: multipart([operations, mapField, ("Content-Type: image/png", [1])]))),
            ("malformed disposition", Multipart(body: multipart([operations, mapField, ("Content-Disposition: form-data; name=\"0", [1])]))),
            ("map before operations", Multipart(body: multipart([mapField, operations, file("0")]))),
            ("not closed", Multipart(body: multipart([operations, mapField, file("0")], closed: false))),
            ("other boundary", Multipart(body: multipart([operations, mapField, file("0")], boundary: "other"))),
            ("empty body", Multipart(body: [])),
            ("only the end", Multipart(body: Array("--fuzz-boundary--\r\n".utf8))),
            ("71-char boundary", Multipart(boundary: longBoundary, body: multipart([operations, mapField, file("0")], boundary: longBoundary))),
            ("11 files (limit 10)", Multipart(body: multipart([field("operations", elevenOperations), field("map", elevenMap)] + files))),
        ]
    }()

    // MARK: - Raw requests

    /// Requests as bytes, each closing its connection when answered.
    static func rawRequests(slug: String, token: String, media: String) -> [(String, [UInt8])] {
        let path = "/t/\(slug)/graphql"
        let json = #"{"query":"{ me { id } }"}"#
        func post(_ headers: String, body: String = json) -> [UInt8] {
            Array("POST \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\n\(headers)\r\n".utf8) + Array(body.utf8)
        }
        func get(_ target: String, _ headers: [UInt8]) -> [UInt8] {
            Array("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAuthorization: Bearer \(token)\r\n".utf8) + headers + Array("\r\n".utf8)
        }
        let length = json.utf8.count
        return [
            ("Content-Length shorter", post("Content-Length: 5\r\n")),
            ("Content-Length longer", post("Content-Length: \(length + 100)\r\n")),
            ("Content-Length -1", post("Content-Length: -1\r\n")),
            ("Content-Length abc", post("Content-Length: abc\r\n")),
            ("Content-Length 1e3", post("Content-Length: 1e3\r\n")),
            ("Content-Length 2^63", post("Content-Length: 9223372036854775808\r\n")),
            ("Content-Length 20 digits", post("Content-Length: 99999999999999999999\r\n")),
            ("two Content-Lengths", post("Content-Length: \(length)\r\nContent-Length: 3\r\n")),
            ("Content-Length and chunked", post("Content-Length: \(length)\r\nTransfer-Encoding: chunked\r\n")),
            ("chunk size zz", post("Transfer-Encoding: chunked\r\n", body: "zz\r\n\(json)\r\n0\r\n\r\n")),
            ("chunk size 2^64", post("Transfer-Encoding: chunked\r\n", body: "10000000000000000\r\n\(json)\r\n0\r\n\r\n")),
            ("chunked not ended", post("Transfer-Encoding: chunked\r\n", body: "5\r\n{\"que")),
            ("header without colon", post("Content-Length: \(length)\r\nNoColonHere\r\n")),
            ("space in header name", post("Content-Length: \(length)\r\nBad Name: x\r\n")),
            ("NUL in header value", post("Content-Length: \(length)\r\nAuthorization: Bearer \u{0}\(token)\r\n")),
            ("NUL in header name", post("Content-Length: \(length)\r\nX-\u{0}: x\r\n")),
            ("folded header", post("Content-Length: \(length)\r\nX-Folded: a\r\n  b\r\n")),
            ("bare LF", Array(String(decoding: post("Content-Length: \(length)\r\n"), as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").utf8)),
            ("60 KB header", post("Content-Length: \(length)\r\nX-Big: \(String(repeating: "x", count: 60_000))\r\n")),
            ("200 KB header", post("Content-Length: \(length)\r\nX-Big: \(String(repeating: "x", count: 200_000))\r\n")),
            ("10 KB header name", post("Content-Length: \(length)\r\nX-\(tenKB): v\r\n")),
            ("200 headers", post("Content-Length: \(length)\r\n" + (0..<200).map { "X-\($0): v\r\n" }.joined())),
            ("2,000 headers", post("Content-Length: \(length)\r\n" + (0..<2_000).map { "X-\($0): v\r\n" }.joined())),
            ("garbage request line", Array("GET\u{0}/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)),
            ("HTTP/9.9", Array("GET /health/live HTTP/9.9\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)),
            ("100 KB path", Array("GET /t/\(slug)/\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)),
            ("NUL in path", Array("GET /t/\(slug)/graph\u{0}ql HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)),
            ("no Host", Array("GET /t/\(slug)/graphql?query=%7B%20me%20%7B%20id%20%7D%20%7D HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)),
            ("10 KB Host", Array("GET /graphql HTTP/1.1\r\nHost: \(tenKB)\r\nConnection: close\r\n\r\n".utf8)),
            ("NUL in Host", Array("GET /graphql HTTP/1.1\r\nHost: demo\u{0}.storykeep.localhost\r\nConnection: close\r\n\r\n".utf8)),
            ("media Range with NUL", get("/t/\(slug)/media/\(media)", Array("Range: bytes=0-\u{0}9\r\n".utf8))),
            ("media Range not UTF-8", get("/t/\(slug)/media/\(media)", Array("Range: bytes=".utf8) + [0xFF, 0xFE] + Array("0-1\r\n".utf8))),
            ("media If-None-Match not UTF-8", get("/t/\(slug)/media/\(media)", Array("If-None-Match: \"".utf8) + [0xC0, 0x80] + Array("\"\r\n".utf8))),
            ("media id not UTF-8", Array("GET /t/\(slug)/media/".utf8) + [0xFF] + Array(" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)),
        ]
    }
}
