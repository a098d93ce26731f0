import GraphQL
import HTTPTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GraphQLHTTP

/// A multipart/form-data body, part by part.
struct MultipartBody {
    let boundary = "----storykeep-test-boundary"
    var parts: [(headers: String, body: String)] = []

    mutating func field(_ name: String, _ value: String) {
        parts.append(("Content-Disposition: form-data; name=\"\(name)\"", value))
    }

    mutating func file(_ name: String, filename: String, contentType: String? = "text/plain", _ contents: String) {
        var headers = "Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\""
        if let contentType { headers += "\r\nContent-Type: \(contentType)" }
        parts.append((headers, contents))
    }

    var text: String {
        parts.map { "--\(boundary)\r\n\($0.headers)\r\n\r\n\($0.body)\r\n" }.joined() + "--\(boundary)--\r\n"
    }

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }
}

extension TestClientProtocol {
    func post(_ multipart: MultipartBody, preflight: Bool = true, accept: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if preflight { headers[HTTPField.Name("GraphQL-Require-Preflight")!] = "1" }
        return try await post(multipart.text, contentType: multipart.contentType, accept: accept, headers: headers)
    }
}

/// The GraphQL multipart request specification.
@Suite struct GraphQLHTTPMultipartTests {
    let handler = GraphQLHTTPHandler(
        executor: EchoExecutor(), configuration: .init(maxFileSize: 100, maxFiles: 2, maxMultipartBodySize: 2000))

    func upload(_ files: [(String, String)] = [("0", "hello\r\nworld")], map: String = #"{"0":["variables.file"]}"#)
        -> MultipartBody
    {
        var body = MultipartBody()
        body.field("operations", #"{"query":"mutation($file: Upload!) { upload(file: $file) }","variables":{"file":null}}"#)
        body.field("map", map)
        for (name, contents) in files { body.file(name, filename: "a \"quoted\".txt", contents) }
        return body
    }

    @Test func theResolverReceivesTheFile() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(upload())
            #expect(response.status == .ok)
            let data = try response.json["data"]
            #expect(data?["variables"]?["file"] == .string("upload:0"))
            #expect(data?["uploads"]?["file"] == .object([
                "filename": .string("a \"quoted\".txt"), "contentType": .string("text/plain"), "text": .string("hello\r\nworld"),
            ]))
        }
    }

    @Test func oneFileMayFillSeveralPathsAndListsHoldFiles() async throws {
        var body = MultipartBody()
        body.field("operations", #"{"query":"mutation { a }","variables":{"files":[null,null],"again":null}}"#)
        body.field("map", #"{"x":["variables.files.0","variables.again"],"y":["variables.files.1"]}"#)
        body.file("x", filename: "x.bin", contentType: nil, "X")
        body.file("y", filename: "y.bin", "Y")
        let request = body
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(request)
            #expect(response.status == .ok)
            let variables = try response.json["data"]?["variables"]
            #expect(variables?["files"] == .list([.string("upload:x"), .string("upload:y")]))
            #expect(variables?["again"] == .string("upload:x"))
            #expect(try response.json["data"]?["uploads"]?["again"]?["contentType"] == .string("application/octet-stream"))
        }
    }

    @Test(arguments: [
        ("misordered", "Misordered multipart fields"),
        ("missing operations", "Missing multipart field `operations`."),
        ("missing map", "Missing multipart field `map`."),
        ("bad operations JSON", "The multipart field `operations` is not valid JSON"),
        ("bad map JSON", "The multipart field `map` is not valid JSON"),
        ("map not an object", "The multipart field `map` must be an object"),
        ("map entry not a list", "The `map` entry `0` must be a non-empty array of paths."),
        ("path to nowhere", "The `map` entry `0` has a path that does not lead to a null in `operations`"),
        ("path to a non-null", "The `map` entry `0` has a path that does not lead to a null in `operations`"),
        ("file missing", "File missing in the request: `0`."),
        ("file twice", "The file `0` is sent twice."),
        ("no name", "A multipart part has no name."),
        ("garbage", "The multipart body is malformed: it has no boundary line."),
        ("no boundary", "The multipart boundary must have 1 to 70 characters of those RFC 2046 allows."),
    ])
    func malformedMultipartRequestsAre400(_ kind: String, _ message: String) async throws {
        var body = MultipartBody()
        var contentType: String?
        let operations = #"{"query":"mutation { a }","variables":{"file":null,"n":1}}"#
        switch kind {
        case "misordered":
            body.field("map", #"{"0":["variables.file"]}"#)
            body.field("operations", operations)
        case "missing operations":
            break
        case "missing map":
            body.field("operations", operations)
        case "bad operations JSON":
            body.field("operations", "{")
        case "bad map JSON":
            body.field("operations", operations)
            body.field("map", "nope")
        case "map not an object":
            body.field("operations", operations)
            body.field("map", #"["variables.file"]"#)
        case "map entry not a list":
            body.field("operations", operations)
            body.field("map", #"{"0":"variables.file"}"#)
        case "path to nowhere":
            body.field("operations", operations)
            body.field("map", #"{"0":["variables.nope.deeper"]}"#)
        case "path to a non-null":
            body.field("operations", operations)
            body.field("map", #"{"0":["variables.n"]}"#)
        case "file missing":
            body.field("operations", operations)
            body.field("map", #"{"0":["variables.file"]}"#)
        case "file twice":
            body.field("operations", operations)
            body.field("map", #"{"0":["variables.file"]}"#)
            body.file("0", filename: "a", "a")
            body.file("0", filename: "b", "b")
        case "no name":
            body.field("operations", operations)
            body.parts.append(("Content-Disposition: form-data", "x"))
        case "garbage":
            contentType = body.contentType
        case "no boundary":
            contentType = "multipart/form-data"
            body.field("operations", operations)
        default:
            Issue.record("unknown case \(kind)")
        }
        let text = kind == "garbage" ? "this is not multipart at all" : body.text
        let type = contentType ?? body.contentType
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(
                text, contentType: type,
                headers: [HTTPField.Name("Apollo-Require-Preflight")!: "true"])
            #expect(response.status == .badRequest, "\(kind)")
            #expect(response.errorMessages.first?.hasPrefix(message) == true, "\(kind): \(response.errorMessages)")
            try await client.expectAlive()
        }
    }

    @Test func filesOverTheLimitsAre413() async throws {
        try await withGraphQLServer(handler) { client in
            let large = try await client.post(upload([("0", String(repeating: "x", count: 101))]))
            #expect(large.status == .contentTooLarge)
            #expect(large.errorMessages == ["The file `0` is larger than the limit of 100 bytes."])

            let tooMany = try await client.post(
                upload([("0", "a"), ("1", "b"), ("2", "c")], map: #"{"0":["variables.file"],"1":["variables.file"],"2":["variables.file"]}"#))
            #expect(tooMany.status == .contentTooLarge)
            #expect(tooMany.errorMessages == ["The request has more than 2 files."])

            var big = upload()
            big.file("unmapped", filename: "big", String(repeating: "y", count: 1900))
            let total = try await client.post(big)
            #expect(total.status == .contentTooLarge)
            #expect(total.errorMessages == ["The multipart body is larger than 2000 bytes."])
            try await client.expectAlive()
        }
    }

    /// An executor with an upload limit of its own, as a tenant's.
    struct LimitedExecutor: GraphQLHTTPExecutor {
        typealias Context = BasicRequestContext
        let limit: Int

        func execute(_ operation: GraphQLHTTPOperation, request: Request, context: Context) async -> GraphQLHTTPResult {
            await EchoExecutor().execute(operation, request: request, context: context)
        }

        func uploadLimit(for request: Request, context: Context) -> Int? { limit }
    }

    @Test func theExecutorsUploadLimitIsJudgedBeforeTheServersCeiling() async throws {
        let limited = GraphQLHTTPHandler(
            executor: LimitedExecutor(limit: 50), configuration: .init(maxBodySize: 1000, maxFileSize: 10_000, maxMultipartBodySize: 100_000))
        try await withGraphQLServer(limited) { client in
            // Its Content-Length is over the limit and room for the other fields (50 + 1000).
            var long = upload([("0", "small")])
            long.file("unmapped", filename: "u", String(repeating: "u", count: 1200))
            let refused = try await client.post(long)
            #expect(refused.status == .contentTooLarge)
            #expect(refused.errorMessages == ["The upload is larger than this endpoint accepts: at most 50 bytes of files per request."])

            let one = try await client.post(upload([("0", String(repeating: "x", count: 51))]))
            #expect(one.status == .contentTooLarge)
            #expect(one.errorMessages == ["The file `0` is larger than the limit of 50 bytes."])
            let two = try await client.post(
                upload([("0", String(repeating: "a", count: 30)), ("1", String(repeating: "b", count: 30))],
                       map: #"{"0":["variables.file"],"1":["variables.file"]}"#))
            #expect(two.status == .contentTooLarge)
            #expect(two.errorMessages == ["The files of this request are larger than the limit of 50 bytes in all."])

            let fits = try await client.post(upload([("0", String(repeating: "x", count: 50))]))
            #expect(fits.status == .ok)
            #expect(try fits.json["data"]?["uploads"]?["file"]?["text"] == .string(String(repeating: "x", count: 50)))
        }
    }

    @Test func unmappedFilesAreIgnored() async throws {
        var body = upload()
        body.file("stray", filename: "s", "ignored")
        let request = body
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(request)
            #expect(response.status == .ok)
        }
    }

    @Test func multipartNeedsAPreflightHeader() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(upload(), preflight: false)
            #expect(response.status == .badRequest)
            #expect(try response.json["errors"]?.listValue?.first?["extensions"]?["code"] == .string("CSRF_PREFLIGHT_REQUIRED"))
        }
        let open = GraphQLHTTPHandler(executor: EchoExecutor(), configuration: .init(multipartRequiresPreflightHeader: false))
        try await withGraphQLServer(open) { client in
            let response = try await client.post(upload(), preflight: false)
            #expect(response.status == .ok)
        }
    }

    @Test func uploadsCanBeTurnedOff() async throws {
        let off = GraphQLHTTPHandler(executor: EchoExecutor(), configuration: .init(uploadsEnabled: false))
        try await withGraphQLServer(off) { client in
            let response = try await client.post(upload())
            #expect(response.status == .unsupportedMediaType)
        }
    }

    @Test func jsonRequestsCannotForgeUploads() async throws {
        try await withGraphQLServer(handler) { client in
            let response = try await client.post(
                #"{"query":"mutation($file: Upload!) { upload(file: $file) }","variables":{"file":"upload:0"}}"#)
            #expect(try response.json["data"]?["uploads"] == .object([:]))
        }
    }
}
