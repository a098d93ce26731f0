import Foundation
import Logging
import Postgres
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

// The background jobs that look for work every few seconds in every tenant (data exports,
// webhook deliveries) find it with one statement per round, however many agencies there are
// (jobs_due_tenants, Migrations/0048_jobs_due_tenants.sql), and open transactions only in the
// tenants that have some. The statements are counted on the job's own pool
// (PostgresPool.statementsSent); each test looks at its own tenants only, since other tests'
// tenants in the same database have work of their own.

@Suite struct BackgroundJobScalingTests {
    /// The data-export and webhook jobs as `storykeep serve` makes them (the webhook sender
    /// knowing the receiver's secret, as if the environment held `HOOK_SECRET`).
    static let jobs = [
        PrivacyModule.exportJob(archive: PersonDataArchive(modules: { StorykeepModules.all }), interval: .milliseconds(50)),
        WebhooksModule.deliveryJob(
            interval: .milliseconds(50),
            dispatch: WebhookDispatch(timeout: .seconds(10)) { $0 == "HOOK_SECRET" ? WebhookReceiver.secret : nil }),
    ]

    /// The context of a round over `tenants` alone, on `pool`, logging to `logs`.
    static func context(_ tenants: [TestTenant], pool: PostgresPool, logs: CapturedLogs = CapturedLogs()) async throws -> JobContext {
        let ids = Set(tenants.map(\.id))
        let loaded = try await TenantStore(pool: pool).all().filter { ids.contains($0.id) }
        var logger = logs.logger
        logger.logLevel = .debug
        return JobContext(pool: pool, tenants: { loaded }, scope: tenants.map(\.id), logger: logger)
    }

    /// The statements `pool` sends while `work` runs.
    static func statements(on pool: PostgresPool, _ work: () async throws -> Void) async throws -> Int {
        let before = pool.statementsSent
        try await work()
        return pool.statementsSent - before
    }

    @Test func anIdleRoundIsOneStatementWithOneTenantAndWithForty() async throws {
        let tenants = try await makeTenants(40, slugPrefix: "idle")
        try await TestDatabase.appPool(size: 2).closing { pool in
            for scope in [Array(tenants.prefix(1)), tenants] {
                let context = try await Self.context(scope, pool: pool)
                for job in Self.jobs {
                    var report: Logger.Metadata?? = .none
                    let count = try await Self.statements(on: pool) { report = .some(try await job.round(context)) }
                    #expect(count == 1, "\(job.name) over \(scope.count) tenants")
                    #expect(report == .some(nil), "\(job.name) found nothing to do")
                }
            }
        }
    }

    @Test func workQueuedInOneTenantOfManyIsDoneThere() async throws {
        let receiver = try await WebhookReceiver()
        defer { receiver.stop() }
        let hooks = WebhookEndpoints([Webhook(url: receiver.url("/hooks"), events: [.entryShared], secretEnv: "HOOK_SECRET")])
        let tenants = try await makeTenants(30, slugPrefix: "busy") { index, file in
            if index == 23 { file.webhooks = hooks }
        }
        try await TestPools.run { pools in
            let (exporting, hooked) = (tenants[17], tenants[23])
            let person = try await pools.insertPeople([exporting.newPerson(.youngPerson, "robin")], into: exporting)[0]
            let export = try await pools.asPerson(.tenantOperator(tenantID: exporting.id)) { tx in
                try await tx.query("insert into data_exports (tenant_id, person_id) values (current_tenant_id(), $1) returning id", person)[0]
                    .decode(UUID.self, at: 0)
            }
            try await pools.asPerson(.tenantOperator(tenantID: hooked.id)) { tx in
                try await tx.execute(
                    "select webhook_enqueue(current_tenant_id(), 'entry.shared', jsonb_build_object('entryId', gen_random_uuid()))")
            }
            let logs = CapturedLogs()
            let context = try await Self.context(tenants, pool: pools.app, logs: logs)

            let (exports, deliveries) = (Self.jobs[0], Self.jobs[1])
            #expect(try await exports.round(context) == ["built": "1", "failed": "0", "expired": "0"])
            #expect(try await deliveries.round(context) == ["delivered": "1", "failed": "0", "dead": "0"])
            let status = try await pools.asPerson(.tenantOperator(tenantID: exporting.id)) { tx in
                try await tx.query("select status from data_exports where tenant_id = current_tenant_id() and id = $1", export)[0]
                    .decode(String.self, at: 0)
            }
            #expect(status == "READY")
            #expect(try receiver.messages().map(\.answered) == [204])
            // Done: the next rounds are idle again, one statement each.
            for job in Self.jobs {
                var report: Logger.Metadata?? = .none
                let count = try await Self.statements(on: pools.app) { report = .some(try await job.round(context)) }
                #expect(count == 1 && report == .some(nil), "\(job.name)")
            }
        }
    }

    @Test func theServiceLogsARoundAtInfoOnlyWhenItDidSomething() async throws {
        let tenants = try await makeTenants(3, slugPrefix: "quiet")
        try await TestPools.run { pools in
            let logs = CapturedLogs()
            let context = try await Self.context(tenants, pool: pools.app, logs: logs)
            let service = BackgroundJobService(job: Self.jobs[0], context: context)
            let running = Task { try await service.run() }
            defer { running.cancel() }
            // Idle rounds: at debug.
            for _ in 0..<100 where logs.all.count < 3 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(logs.all.count >= 3 && logs.all.allSatisfy { $0.level == .debug && $0.metadata["job"] == "data exports" })

            // A round that builds an export: at info, with what it did.
            let person = try await pools.insertPeople([tenants[1].newPerson(.youngPerson, "sky")], into: tenants[1])[0]
            try await pools.asPerson(.tenantOperator(tenantID: tenants[1].id)) { tx in
                try await tx.execute("insert into data_exports (tenant_id, person_id) values (current_tenant_id(), $1)", person)
            }
            for _ in 0..<200 where !logs.all.contains(where: { $0.level == .info }) { try await Task.sleep(for: .milliseconds(20)) }
            let info = logs.all.filter { $0.level == .info }
            #expect(info.count == 1 && info.first?.metadata["built"] == "1" && info.first?.metadata["job"] == "data exports")
        }
    }
}
