import Foundation
import Logging
@testable import StorykeepServer
import Synchronization
import Testing

/// Issue 17: `log.format: json`, one JSON object per line.
@Suite struct JSONLogTests {
    @Test func eachLineIsOneJSONObjectWithTheRequestsKeys() async throws {
        let lines = Mutex<[String]>([])
        var logger = Logger(label: "storykeep") { label in
            JSONLogHandler(label: label, metadataProvider: RequestLogMetadata.provider) { line in lines.withLock { $0.append(line) } }
        }
        logger.logLevel = .debug
        RequestLogMetadata.$current.withValue(["hb.request.id": "req-1", "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "tenant": "demo"]) {
            logger.info("POST /t/demo/graphql 200", metadata: ["http.status": "200", "duration_ms": "1.50", "operation": "FeedQuery"])
            logger.debug("a \"quoted\"\nsecond line")
        }
        let written = lines.withLock { $0 }
        #expect(written.count == 2)
        #expect(written.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().allSatisfy { $0 != "\n" } })
        let first = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: String])
        #expect(first["requestId"] == "req-1" && first["tenant"] == "demo" && first["operation"] == "FeedQuery")
        #expect(first["traceId"] == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(first["status"] == "200" && first["durationMs"] == "1.50" && first["level"] == "info")
        #expect(first["time"].map { $0.hasSuffix("Z") && $0.contains("T") } == true, "\(first)")
        let second = try #require(try JSONSerialization.jsonObject(with: Data(written[1].utf8)) as? [String: String])
        #expect(second["message"] == "a \"quoted\"\nsecond line" && second["level"] == "debug")
    }
}
