import Foundation
import HTTPTestSupport
import StorykeepTestSupport
import Synchronization
import Testing

/// Two `storykeep serve` processes, the built binary, on the test database: what one is told
/// through its HTTP API reaches a subscriber of the other, through PostgreSQL's NOTIFY and each
/// server's DatabaseListenerService (issue 15: servers scale out).
@Suite struct TwoServersTests {
    @Test func anAlertRaisedThroughOneServerReachesASubscriberOfTheOther() async throws {
        try TestDatabase.requireEnvironment()
        try await withAccounts { h in
            let (admin, sam, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy))
            try await h.assign(sam, wendy, .socialWorker, admin: admin)
            let subscribed = try await ServeProcess()
            defer { subscribed.stop() }
            let raising = try await ServeProcess()
            defer { raising.stop() }
            #expect(subscribed.port != raising.port)

            // Wendy subscribes through the first (Python gql over WebSocket) until one alert reaches her.
            let script = repositoryRoot.appending(path: "Tests/StorykeepServerTests/Client/live_client.py").path
            let url = "ws://127.0.0.1:\(subscribed.port)/t/\(h.tenant.file.slug)/graphql"
            let done = Mutex(false)
            let client = Task {
                defer { done.withLock { $0 = true } }
                return try await runProcess(["python3", script, url, wendy.token, "subscription { safetyAlertChanged { id youngPerson { id } } }", "1", "60"])
            }
            // Sam raises alerts through the second until then: she may subscribe after the first.
            var raised: [String] = []
            while !done.withLock({ $0 }) && raised.count < 30 {
                raised.append(try await raising.raiseAlert(tenant: h.tenant.file.slug, token: sam.token))
                for _ in 0..<10 where !done.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(100)) }
            }
            let (status, output) = try await client.value
            #expect(status == 0, "\(output)")
            let received = try #require(output.firstMatch(of: /^result (.*)\n$/)?.1, "\(output)")
            let alert = try JSONSerialization.jsonObject(with: Data(received.utf8)) as? [String: [String: Any]]
            let id = try #require(alert?["safetyAlertChanged"]?["id"] as? String)
            #expect(raised.contains(id), "\(output)")
        }
    }
}

extension ServeProcess {
    /// Raises a safety alert through this server's HTTP API as the young person of `token`: its id.
    func raiseAlert(tenant slug: String, token: String) async throws -> String {
        let answer = try await graphQL(slug: slug, token: token, #"mutation { raiseSafetyAlert(message: "Help") { id } }"#)
        let alert = (answer.json["data"] as? [String: Any])?["raiseSafetyAlert"] as? [String: Any]
        return try #require(alert?["id"] as? String, "\(answer)")
    }
}
