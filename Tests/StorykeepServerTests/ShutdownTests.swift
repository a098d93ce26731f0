import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Storykeep
import StorykeepServer
import Synchronization
import StorykeepTestSupport
import Testing

/// A tenant endpoint that takes its time, to be caught in flight: `arrived` counts the requests
/// that reached it.
struct SlowEndpoint: TenantEndpoint {
    final class Arrivals: Sendable {
        let count = Atomic<Int>(0)
    }
    let arrived = Arrivals()

    func register(on group: RouterGroup<TenantRequestContext>) {
        group.get("slow") { [arrived] _, _ in
            arrived.count.add(1, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(700))
            return "finished"
        }
    }
}

@Suite struct ShutdownTests {
    @Test func gracefulShutdownFinishesTheRequestsInFlight() async throws {
        let tenant = try await makeTenants(1)[0]
        var config = try await testConfig()
        config.http.port = 0
        let pool = try TestDatabase.appPool()
        let logs = CapturedLogs()
        let tenants = TenantCache(source: TenantStore(pool: pool), refreshInterval: .seconds(60), logger: logs.logger)
        let port = Mutex<Int?>(nil)
        let slow = SlowEndpoint()
        let app = StorykeepApplication.make(
            config: config,
            parts: .init(tenants: tenants, readiness: [], endpoints: [slow]),
            logger: logs.logger,
            onServerRunning: { bound in port.withLock { $0 = bound } }
        )
        // What `runService` does on SIGTERM, without sending this test process a signal.
        let group = ServiceGroup(services: [app], logger: logs.logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var bound: Int?
            while bound == nil {
                try await Task.sleep(for: .milliseconds(20))
                bound = port.withLock { $0 }
            }
            let url = "http://127.0.0.1:\(bound!)/t/\(tenant.slug)/slow"
            let inFlight = Task {
                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
                return (response.status.code, String(buffer: try await response.body.collect(upTo: 1024)))
            }
            // Shut down once the request is being handled (a fixed wait lost the race on a busy machine).
            while slow.arrived.count.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(10)) }
            await group.triggerGracefulShutdown()

            let (status, body) = try await inFlight.value
            #expect(status == 200)
            #expect(body == "finished")
            try await tasks.waitForAll()  // the group, hence the server, has stopped
        }
        await pool.close()
    }
}
