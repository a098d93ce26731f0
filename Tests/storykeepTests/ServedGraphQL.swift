import Foundation
import StorykeepTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A GraphQL answer, as much as these tests read of it.
struct ServedAnswer: CustomStringConvertible {
    var json: [String: Any]
    /// The errors' messages and codes, or nil without errors.
    var errors: String? {
        (json["errors"] as? [[String: Any]]).map { errors in
            errors.map { "\($0["message"] ?? "") \((($0["extensions"] as? [String: Any])?["code"]) ?? "")" }.joined(separator: "; ")
        }
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

extension ServeProcess {
    /// POSTs `query` to the tenant's GraphQL endpoint of this server, through `session`.
    func graphQL(
        slug: String, token: String?, _ query: String, _ variables: [String: Any] = [:], session: URLSession = .shared
    ) async throws -> ServedAnswer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/t/\(slug)/graphql")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables])
        let (body, _) = try await session.data(for: request)
        return ServedAnswer(json: try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:])
    }

    /// The status of `GET /health/ready`, or nil when the server does not answer.
    func readiness() async -> Int? {
        let url = URL(string: "http://127.0.0.1:\(port)/health/ready")!
        return try? await (URLSession.shared.data(from: url).1 as? HTTPURLResponse)?.statusCode
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

/// A login a test needs did not succeed.
struct LoginFailed: Error, CustomStringConvertible {
    var answer: String
    var description: String { "login failed: \(answer)" }
}
