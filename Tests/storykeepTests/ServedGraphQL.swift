import AsyncHTTPClient
import Foundation
import NIOCore
import StorykeepTestSupport

/// A GraphQL answer, as much as these tests read of it.
struct ServedAnswer: CustomStringConvertible {
    var json: [String: Any]
    /// The errors' messages and codes, or nil without errors.
    var errors: String? {
        (json["errors"] as? [[String: Any]]).map { errors in
            errors.map { "\($0["message"] ?? "") \((($0["extensions"] as? [String: Any])?["code"]) ?? "")" }.joined(separator: "; ")
        }
    }
    /// The first error's `extensions.code`.
    var errorCode: String? {
        ((json["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any])?["code"] as? String
    }
    /// The texts of `entries`' nodes.
    var texts: [String] {
        let edges = ((json["data"] as? [String: Any])?["entries"] as? [String: Any])?["edges"] as? [[String: Any]] ?? []
        return edges.compactMap { ($0["node"] as? [String: Any])?["text"] as? String }
    }
    var description: String { "\(json)" }

    /// The value at `path` under `data` (`["login", "token"]`).
    func data(_ path: String...) -> Any? {
        path.reduce(json["data"] as Any?) { ($0 as? [String: Any])?[$1] }
    }
}

/// Where Storykeep answers over HTTP: one `storykeep serve`, or a load balancer in front of
/// several (``LoadBalancer``).
protocol Served: Sendable {
    /// `http://127.0.0.1:<port>`.
    var baseURL: String { get }
}

extension ServeProcess: Served {
    var baseURL: String { "http://127.0.0.1:\(port)" }
}

extension Served {
    /// POSTs `query` to the tenant's GraphQL endpoint, through `client` (AsyncHTTPClient: it
    /// sends a request once, where FoundationNetworking's libcurl sends one again, without its
    /// body, when its connection closes under it), waiting `timeout` for the answer.
    func graphQL(
        slug: String, token: String?, _ query: String, _ variables: [String: Any] = [:], client: HTTPClient = .shared,
        timeout: TimeAmount = .seconds(30)
    ) async throws -> ServedAnswer {
        let body = Array(try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables]))
        return try await post(slug: slug, token: token, contentType: "application/json", body: body, client: client, timeout: timeout)
    }

    /// POSTs `query` with `files` as a GraphQL multipart request (the files' bytes, each for the
    /// variable at its path: `variables.file`, `variables.files.0`), through `client`.
    func graphQL(
        slug: String, token: String?, _ query: String, _ variables: [String: Any], files: [(path: String, bytes: [UInt8])],
        client: HTTPClient = .shared, timeout: TimeAmount = .seconds(60)
    ) async throws -> ServedAnswer {
        let boundary = "storykeep-test-\(UUID().uuidString)"
        var body: [UInt8] = []
        func part(_ headers: String, _ content: [UInt8]) {
            body += Array("--\(boundary)\r\n\(headers)\r\n\r\n".utf8) + content + Array("\r\n".utf8)
        }
        part(#"Content-Disposition: form-data; name="operations""#, Array(try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables])))
        let map = Dictionary(uniqueKeysWithValues: files.enumerated().map { ("\($0.offset)", [$0.element.path]) })
        part(#"Content-Disposition: form-data; name="map""#, Array(try JSONSerialization.data(withJSONObject: map)))
        for (index, file) in files.enumerated() {
            part("Content-Disposition: form-data; name=\"\(index)\"; filename=\"file\(index)\"\r\nContent-Type: application/octet-stream", file.bytes)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return try await post(
            slug: slug, token: token, contentType: "multipart/form-data; boundary=\(boundary)", body: body, client: client, timeout: timeout)
    }

    /// The GraphQL answer to a POST of `body`, or ``NotGraphQL`` with its status when what came
    /// back is not JSON (a load balancer's 502).
    private func post(
        slug: String, token: String?, contentType: String, body: [UInt8], client: HTTPClient, timeout: TimeAmount
    ) async throws -> ServedAnswer {
        var request = HTTPClientRequest(url: "\(baseURL)/t/\(slug)/graphql")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        request.headers.add(name: "GraphQL-Require-Preflight", value: "1")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: timeout)
        let answer = try await response.body.collect(upTo: 16 << 20)
        guard let json = (try? JSONSerialization.jsonObject(with: Data(answer.readableBytesView))) as? [String: Any] else {
            throw NotGraphQL(status: Int(response.status.code))
        }
        return ServedAnswer(json: json)
    }

    /// The status of `GET /health/ready`, or nil when the server does not answer.
    func readiness() async -> Int? {
        guard let response = try? await HTTPClient.shared.execute(HTTPClientRequest(url: "\(baseURL)/health/ready"), timeout: .seconds(10))
        else { return nil }
        _ = try? await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    /// Logs in on the tenant and returns the session's token.
    func login(slug: String, _ username: String, _ password: String) async throws -> String {
        let answer = try await graphQL(
            slug: slug, token: nil, "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }",
            ["u": username, "p": password])
        guard let token = answer.data("login", "token") as? String else { throw LoginFailed(answer: answer.description) }
        return token
    }
}

/// An answer that is not GraphQL's JSON: an HTTP error of something in between.
struct NotGraphQL: Error, CustomStringConvertible {
    var status: Int
    var description: String { "HTTP \(status), not a GraphQL answer" }
}

/// A login a test needs did not succeed.
struct LoginFailed: Error, CustomStringConvertible {
    var answer: String
    var description: String { "login failed: \(answer)" }
}
