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
}

extension ServeProcess {
    /// POSTs `query` to the tenant's GraphQL endpoint of this server.
    func graphQL(slug: String, token: String?, _ query: String, _ variables: [String: String] = [:]) async throws -> ServedAnswer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/t/\(slug)/graphql")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables])
        let (body, _) = try await URLSession.shared.data(for: request)
        return ServedAnswer(json: try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:])
    }
}
