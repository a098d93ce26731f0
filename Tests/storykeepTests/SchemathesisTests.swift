import Foundation
import HTTPTestSupport
import StorykeepTestSupport
import Testing

/// Hostile clients (issue 18): schemathesis, in its GraphQL mode, sends generated queries and
/// mutations (valid ones and invalid ones) for every field of the schema to `storykeep serve`, the
/// built binary, as a signed-in young person and as an agency admin. No answer may be a 5xx or an
/// INTERNAL_SERVER_ERROR, or break the schema's types (scripts/schemathesis.sh). A short pass, a
/// few examples a field; `make fuzz` runs a longer one (scripts/schemathesis-pass.sh).
@Suite struct SchemathesisTests {
    /// Examples a field: enough to reach every field with valid and invalid arguments in a minute.
    static let examples = "3"

    @Test func noServerErrorForAYoungPersonOrAnAdmin() async throws {
        try TestDatabase.requireEnvironment()
        try await withAccounts { h in
            let (admin, sam) = try await (h.cast(.ada), h.cast(.sam))
            let server = try await ServeProcess()
            defer { server.stop() }
            let url = "http://127.0.0.1:\(server.port)/t/\(h.tenant.file.slug)/graphql"
            let script = repositoryRoot.appending(path: "scripts/schemathesis.sh").path
            for (who, token) in [("young person", sam.token), ("admin", admin.token)] {
                let (status, output) = try await runProcess([script, url, token, Self.examples])
                #expect(status == 0, "schemathesis as the \(who):\n\(output)")
                #expect(output.contains("passed"), "schemathesis as the \(who) ran nothing:\n\(output)")
            }
        }
    }
}
