import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Postgres
import StorykeepServer
import StorykeepTestSupport
import Testing

@Suite struct HealthTests {
    @Test func liveAnswersWhileTheProcessRuns() async throws {
        try await withTestServer { client, _ in
            try await client.execute(uri: "/health/live", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.jsonObject?["status"] as? String == "live")
            }
        }
    }

    @Test func readyWhenTheDatabaseAnswersAndMigrationsAreCurrent() async throws {
        try await withTestServer { client, _ in
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.jsonObject?["status"] as? String == "ready")
            }
        }
    }

    @Test func notReadyWhenTheDatabaseIsUnreachable() async throws {
        // Port 1 on loopback: nothing listens there, the connection is refused at once.
        let dead = PostgresPool(
            configuration: PostgresConfiguration(
                connectionString: "postgresql://storykeep_app@127.0.0.1:1/storykeep?connect_timeout=2",
                poolSize: 1, acquireTimeout: .seconds(2)
            ),
            logger: Logger(label: "test")
        )
        try await withTestServer(readiness: { _ in [DatabaseReadiness(pool: dead, migrations: repositoryRoot.path + "/Migrations")] }) { client, _ in
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.jsonObject?["status"] as? String == "unavailable")
                #expect((response.jsonObject?["problem"] as? String)?.contains("database") == true)
            }
            // Live does not depend on the database.
            try await client.execute(uri: "/health/live", method: .get) { #expect($0.status == .ok) }
        }
        await dead.close()
    }

    @Test func notReadyWhenAMigrationIsPending() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.path + "/Migrations") {
            try FileManager.default.copyItem(atPath: repositoryRoot.path + "/Migrations/" + name, toPath: directory.appendingPathComponent(name).path)
        }
        try "SELECT 1;".write(to: directory.appendingPathComponent("9999_not_yet_applied.sql"), atomically: true, encoding: .utf8)
        try await withTestServer(readiness: { pool in [DatabaseReadiness(pool: pool, migrations: directory.path)] }) { client, _ in
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect((response.jsonObject?["problem"] as? String)?.contains("migration") == true)
            }
        }
    }
}
