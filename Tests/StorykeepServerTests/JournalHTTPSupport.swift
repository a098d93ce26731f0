import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Postgres
import Storykeep
import Testing

/// What the journal's tests over HTTP share: a tenant with the journal's modules, young people,
/// files of each kind, uploads and downloads as an app makes them.
enum JournalHTTP {
    /// The test tenant with tags and the archive, several moods, prompts and suggested tags.
    static let tenant: @Sendable (Int, inout TenantFile) -> Void = { _, file in
        let sample = try! TenantFiles.decode(
            """
            slug: sample
            displayName: Sample
            timeZone: Europe/London
            termsVersion: "1"
            modules: [tags, archive]
            moodIcons:
              - { emoji: "😄", label: Happy }
              - { emoji: "🙂", label: Okay }
              - { emoji: "😢", label: Sad }
            suggestedTags: [Friends, Family, Sports]
            prompts:
              - text: What made you smile today?
                moods: [Happy]
              - text: Who helped you today?
              - text: What is on your mind?
                moods: [Sad]
            """, file: "sample")
        file.modules = sample.modules
        file.moodIcons = sample.moodIcons
        file.suggestedTags = sample.suggestedTags
        file.prompts = sample.prompts
    }

    // Files as the apps send them: the first bytes of each format, then some payload.
    static func png(_ size: Int = 300) -> [UInt8] { [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + payload(size - 8) }
    static func mp3(_ size: Int = 400) -> [UInt8] { Array("ID3".utf8) + payload(size - 3) }
    static func mp4(_ size: Int = 500) -> [UInt8] { [0, 0, 0, 0x18] + Array("ftypisom".utf8) + payload(size - 12) }
    /// A Windows executable.
    static func exe(_ size: Int = 200) -> [UInt8] { Array("MZ".utf8) + payload(size - 2) }

    /// `count` bytes that vary (so that a range read off by one shows), made a page at a time.
    static func payload(_ count: Int) -> [UInt8] {
        let page = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(count, 0))
        while bytes.count < count { bytes += page.prefix(count - bytes.count) }
        return bytes
    }

    /// The body and headers (but the token) of a GraphQL multipart request whose variables
    /// `files` name uploads: each file goes to the variable path `variables.<path>`.
    static func multipart(
        _ query: String, _ variables: GraphQLObject, files: [(path: String, bytes: [UInt8], contentType: String)]
    ) -> (headers: HTTPFields, body: [UInt8]) {
        let boundary = "journal-test-boundary"
        var body: [UInt8] = []
        body.reserveCapacity(files.reduce(4096) { $0 + $1.bytes.count + 256 })
        func part(_ headers: String, _ content: [UInt8]) {
            body += Array("--\(boundary)\r\n\(headers)\r\n\r\n".utf8) + content + Array("\r\n".utf8)
        }
        part("Content-Disposition: form-data; name=\"operations\"",
             Array(GraphQLValue.object(["query": .string(query), "variables": .object(variables)]).json.utf8))
        var map = GraphQLObject()
        for (index, file) in files.enumerated() { map["\(index)"] = .list([.string("variables.\(file.path)")]) }
        part("Content-Disposition: form-data; name=\"map\"", Array(GraphQLValue.object(map).json.utf8))
        for (index, file) in files.enumerated() {
            part("Content-Disposition: form-data; name=\"\(index)\"; filename=\"file\(index)\"\r\nContent-Type: \(file.contentType)", file.bytes)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        let headers: HTTPFields = [
            .contentType: "multipart/form-data; boundary=\(boundary)", HTTPField.Name("GraphQL-Require-Preflight")!: "1",
        ]
        return (headers, body)
    }

    /// The fields of an entry the tests read back.
    static let entryFields = "id date kind text mood background suggestion tags { id name } media { id contentType byteSize sha256 url }"
}

extension AccountsHarness {
    /// A young person created by the operator and activated: their token and id.
    func youngPerson(_ name: String, tenant: TestTenant? = nil) async throws -> (token: String, id: UUID) {
        let username = "\(name)-\((tenant ?? self.tenant).slug.suffix(8))"
        let issued = try await createAsOperator(
            NewPerson(role: .youngPerson, displayName: name.capitalized, username: username), tenant: tenant)
        let token = try await activate(issued.code.displayText, password: "\(name) likes long passwords", tenant: tenant)
        let me = try await graphQL("{ me { id } }", token: token, tenant: tenant)
        return (token, try #require(me["data"]?["me"]?["id"]?.stringValue.flatMap(UUID.init(uuidString:))))
    }

    /// A GraphQL operation whose variables `files` name uploads, sent as an app sends it
    /// (multipart, with the preflight header): each file `name` goes to the variable path
    /// `variables.<path>`.
    func upload(
        _ query: String, _ variables: GraphQLObject, files: [(path: String, bytes: [UInt8], contentType: String)], token: String
    ) async throws -> GraphQLValue {
        let request = JournalHTTP.multipart(query, variables, files: files)
        var headers = request.headers
        headers[.authorization] = "Bearer \(token)"
        return try await client.execute(
            uri: "/t/\(tenant.slug)/graphql", method: .post, headers: headers, body: ByteBuffer(bytes: request.body)
        ) { response in try response.json }
    }

    /// Uploads one file with `uploadMedia`: the `Media` object.
    func uploadMedia(_ bytes: [UInt8], contentType: String, token: String) async throws -> GraphQLValue {
        let response = try await upload(
            "mutation($f: Upload!) { uploadMedia(file: $f) { id contentType byteSize sha256 url } }", ["f": .null],
            files: [("f", bytes, contentType)], token: token)
        return try #require(response["data"]?["uploadMedia"], "\(response.json)")
    }

    /// Writes an entry: the `Entry` object.
    func createEntry(_ input: GraphQLObject, token: String) async throws -> GraphQLValue {
        let response = try await graphQL(
            "mutation($i: EntryInput!) { createEntry(input: $i) { \(JournalHTTP.entryFields) } }", ["i": .object(input)], token: token)
        return try #require(response["data"]?["createEntry"], "\(response.json)")
    }

    /// GETs `path` with the token (if any) and extra headers.
    func get(_ path: String, token: String?, headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: path, method: .get, headers: headers, body: nil) { $0 }
    }

    /// Counts rows of `table` the person `id` owns, read in their own database context.
    func count(_ table: String, ownedBy id: UUID, column: String = "owner_id") async throws -> Int {
        try await app.transaction(settings: AccountContext.person(tenantID: tenant.id, personID: id, role: .youngPerson).settings) { tx in
            try await tx.query("select count(*) from \(table) where \(column) = $1", id)[0].decode(Int.self, at: 0)
        }
    }
}

extension GraphQLValue {
    /// The nodes of a connection's edges.
    var nodes: [GraphQLValue] { self["edges"]?.listValue?.compactMap { $0["node"] } ?? [] }
    var id: String? { self["id"]?.stringValue }
}
