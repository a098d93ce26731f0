import Foundation
import Postgres
import StorykeepTestSupport
import Testing

/// Transactions, concurrency, failures and recovery of the pool.
@Suite struct PoolTests {
    @Test func hundredConcurrentTransactionsOnEightConnections() async throws {
        // What is asserted is that each transaction keeps its own settings and the pool shares
        // its connections, not how fast: the whole suite at once on two cores has made the last
        // of the hundred wait past the default 10 s for a connection.
        try await withAppPool(size: 8, acquireTimeout: .seconds(120)) { pool in
            let backends = try await withThrowingTaskGroup(of: Int32.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await pool.transaction(settings: ["storykeep.request": String(index)]) { tx in
                            let rows = try await tx.query(
                                "select $1::int8, current_setting('storykeep.request'), pg_backend_pid(), pg_sleep(0.01)", index)
                            #expect(try rows[0].decode(Int.self, at: 0) == index)
                            #expect(try rows[0].decode(String.self, at: 1) == String(index))
                            return try rows[0].decode(Int32.self, at: 2)
                        }
                    }
                }
                var backends = Set<Int32>()
                for try await pid in group { backends.insert(pid) }
                return backends
            }
            let used = backends.count
            #expect(used >= 2 && used <= 8)
        }
    }

    @Test func rollbackWhenTheBodyThrows() async throws {
        struct Oops: Error {}
        try await withAppPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try await connection.executeScript("create temp table rollback_check (x int)")
                await #expect(throws: Oops.self) {
                    try await connection.transaction { tx in
                        try await tx.execute("insert into rollback_check values ($1)", 1)
                        throw Oops()
                    }
                }
                let count = try await connection.query("select count(*) from rollback_check")
                #expect(try count[0].decode(Int.self, at: 0) == 0)
                let inserted = try await connection.transaction { tx in
                    try await tx.execute("insert into rollback_check select generate_series(1, $1::int)", 3)
                }
                #expect(inserted == 3)
                try await connection.executeScript("drop table rollback_check")
            }
        }
    }

    @Test func aSwallowedErrorStillRollsBack() async throws {
        try await withAppPool(size: 1) { pool in
            let error = await #expect(throws: PostgresError.self) {
                try await pool.transaction { tx in
                    _ = try? await tx.query("select 1/0")
                }
            }
            #expect(error?.kind == .transactionRolledBack)
            // The connection is clean for the next request.
            let one = try await pool.transaction { try await $0.query("select 1")[0].decode(Int.self, at: 0) }
            #expect(one == 1)
        }
    }

    @Test func settingsAreTransactionLocal() async throws {
        try await withAppPool(size: 1) { pool in
            let (pid, seen) = try await pool.transaction(settings: ["storykeep.tenant_id": "tenant-a", "storykeep.role": "x"]) { tx in
                let rows = try await tx.query(
                    "select pg_backend_pid(), current_setting('storykeep.tenant_id'), current_setting('storykeep.role')")
                return (try rows[0].decode(Int32.self, at: 0), try rows[0].decode(String.self, at: 1))
            }
            #expect(seen == "tenant-a")
            let (nextPID, after) = try await pool.transaction { tx in
                let rows = try await tx.query("select pg_backend_pid(), current_setting('storykeep.tenant_id', true)")
                return (try rows[0].decode(Int32.self, at: 0), try rows[0].decode(String?.self, at: 1))
            }
            #expect(nextPID == pid, "a pool of one reuses its connection")
            #expect(after == nil || after == "", "the setting must not survive its transaction")
            // Values are bound, so any text is a value, never SQL.
            let hostile = "x'; drop table tenants; --"
            let echoed = try await pool.transaction(settings: ["storykeep.tenant_id": hostile]) { tx in
                try await tx.query("select current_setting('storykeep.tenant_id')")[0].decode(String.self, at: 0)
            }
            #expect(echoed == hostile)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aKilledBackendIsSurvived() async throws {
        let killer = try TestDatabase.appPool(size: 1)
        defer { Task { await killer.close() } }
        func terminate(_ pid: Int32) async throws {
            let rows = try await killer.transaction { try await $0.query("select pg_terminate_backend($1, 5000)", pid) }
            #expect(try rows[0].decode(Bool.self, at: 0))
        }
        try await withAppPool(size: 2) { pool in
            // Killed in the middle of a transaction: that request fails clearly, and does not hang
            // (the test's time limit).
            let error = await #expect(throws: PostgresError.self) {
                try await pool.transaction { tx in
                    let pid = try await tx.connection.backendPID()
                    try await terminate(pid)
                    _ = try await tx.query("select 1")
                }
            }
            #expect(error?.kind == .connectionLost)

            // Killed while idle in the pool: the next transaction notices at BEGIN (alone, or
            // pipelined with the settings) and moves on to another connection.
            for settings in [[:], ["storykeep.tenant_id": "t"]] {
                let idlePID = try await pool.withConnection { try await $0.backendPID() }
                try await terminate(idlePID)
                let (pid, value) = try await pool.transaction(settings: settings) { tx in
                    (try await tx.connection.backendPID(), try await tx.query("select 42")[0].decode(Int.self, at: 0))
                }
                #expect(value == 42)
                #expect(pid != idlePID)
            }

            // And everything afterwards works, concurrently.
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<10 {
                    group.addTask { try await pool.transaction { try await $0.query("select $1::int8", index)[0].decode(Int.self, at: 0) } }
                }
                var sum = 0
                for try await value in group { sum += value }
                #expect(sum == 45)
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func poolExhaustionTimesOut() async throws {
        try await withAppPool(size: 1, acquireTimeout: .milliseconds(300)) { pool in
            // The holder keeps the only connection until the waiter has given up.
            let held = AsyncStream.makeStream(of: Void.self)
            let release = AsyncStream.makeStream(of: Void.self)
            let holder = Task {
                try await pool.withConnection { connection in
                    held.continuation.yield()
                    for await _ in release.stream { break }
                    _ = try await connection.query("select 1")
                }
            }
            for await _ in held.stream { break }
            let clock = ContinuousClock()
            let start = clock.now
            let error = await #expect(throws: PostgresError.self) {
                try await pool.transaction { try await $0.query("select 1") }
            }
            let waited = clock.now - start
            release.continuation.yield()
            #expect(error?.kind == .poolTimeout)
            #expect(waited >= .milliseconds(300), "gave up after \(waited)")
            try await holder.value
            // Once the connection is back, requests go through again.
            let value = try await pool.transaction { try await $0.query("select 7")[0].decode(Int.self, at: 0) }
            #expect(value == 7)
        }
    }

    /// Many short requests on two connections: each connection given back must reach a waiter,
    /// even when it comes back while a request is deciding to wait (a lost wake-up would leave
    /// that request to time out).
    @Test func waitersAreServedWhenConnectionsReturn() async throws {
        // A lost wake-up leaves a waiter waiting for good, so a long timeout still catches one;
        // under the whole suite on two cores a waiter has waited past 30 s without one.
        try await withAppPool(size: 2, acquireTimeout: .seconds(120)) { pool in
            let served = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<300 {
                    group.addTask {
                        try await pool.transaction { try await $0.query("select $1::int8", index)[0].decode(Int.self, at: 0) }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(served == 300 * 299 / 2)
        }
    }

    @Test func serverErrorsKeepTheirFields() async throws {
        try await withAppPool(size: 1) { pool in
            try await pool.withConnection { connection in
                let division = await #expect(throws: PostgresError.self) { try await connection.query("select 1/0") }
                #expect(division?.kind == .server)
                #expect(division?.sqlState == "22012")
                #expect(division?.message == "division by zero")

                let syntax = await #expect(throws: PostgresError.self) { try await connection.query("selec 1") }
                #expect(syntax?.sqlState == PostgresError.SQLState.syntaxError)
                #expect(syntax?.position == 1)

                try await connection.executeScript("create temp table unique_check (email text constraint unique_check_email unique)")
                try await connection.execute("insert into unique_check values ($1)", "a@example.org")
                let unique = await #expect(throws: PostgresError.self) {
                    try await connection.execute("insert into unique_check values ($1)", "a@example.org")
                }
                #expect(unique?.sqlState == PostgresError.SQLState.uniqueViolation)
                #expect(unique?.constraintName == "unique_check_email")
                #expect(unique?.tableName == "unique_check")
                #expect(unique?.detail == "Key (email)=(a@example.org) already exists.")

                let raised = await #expect(throws: PostgresError.self) {
                    try await connection.executeScript(
                        "do $$ begin raise exception 'boom' using detail = 'the detail', hint = 'the hint', errcode = 'P0042'; end $$")
                }
                #expect(raised?.sqlState == "P0042")
                #expect(raised?.message == "boom")
                #expect(raised?.detail == "the detail")
                #expect(raised?.hint == "the hint")
                try await connection.executeScript("drop table unique_check")
            }
        }
    }

    @Test func preparedStatementsAreCachedPerConnection() async throws {
        try await withAppPool(size: 1) { pool in
            try await pool.withConnection { connection in
                let sql = "select $1::int8 + 1 /* cache probe */"
                for value in 0..<5 { _ = try await connection.query(sql, value) }
                let prepared = try await connection.query(
                    "select count(*) from pg_prepared_statements where statement = $1", sql)
                #expect(try prepared[0].decode(Int.self, at: 0) == 1)
            }
        }
    }

    @Test func copyInLoadsRowsAndAbortsCleanly() async throws {
        struct Stop: Error {}
        try await withAppPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try await connection.executeScript("create temp table copy_check (id int8, label text)")
                let copied = try await connection.copyIn("copy copy_check (id, label) from stdin") { writer in
                    for id in 0..<20_000 { try await writer.write(row: [String(id), id == 7 ? nil : "row\t\(id)\n\\"]) }
                }
                #expect(copied == 20_000)
                let lines = AsyncStream<String> { continuation in
                    for id in 20_000..<20_010 { continuation.yield("\(id)\tline") }
                    continuation.finish()
                }
                #expect(try await connection.copyIn("copy copy_check (id, label) from stdin", rows: lines) == 10)
                await #expect(throws: Stop.self) {
                    _ = try await connection.copyIn("copy copy_check (id, label) from stdin") { writer in
                        try await writer.write(row: ["99999", "never"])
                        throw Stop()
                    }
                }
                let rows = try await connection.query(
                    "select count(*), count(label), max(id), (select label from copy_check where id = 5) from copy_check")
                #expect(try rows[0].decode(Int.self, at: 0) == 20_010)
                #expect(try rows[0].decode(Int.self, at: 1) == 20_009)
                #expect(try rows[0].decode(Int.self, at: 2) == 20_009)
                #expect(try rows[0].decode(String.self, at: 3) == "row\t5\n\\")
                try await connection.executeScript("drop table copy_check")
            }
        }
    }

    @Test func badConnectionStringsFailClearly() async throws {
        let pool = PostgresPool(
            configuration: .init(connectionString: "host=/nonexistent-socket-dir dbname=x connect_timeout=2"),
            logger: TestDatabase.logger)
        let error = await #expect(throws: PostgresError.self) { try await pool.transaction { try await $0.query("select 1") } }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.message.contains("nonexistent-socket-dir") == true)
        await pool.close()
        let closed = await #expect(throws: PostgresError.self) { try await pool.transaction { try await $0.query("select 1") } }
        #expect(closed?.kind == .poolClosed)
    }

    @Test func keyValueConnectionStringsWork() async throws {
        // The same server through libpq's key=value form, built from the URL's parts by the server.
        let url = try TestDatabase.url("DATABASE_URL")
        let parts = try await withAppPool(size: 1) { pool in
            try await pool.transaction { tx in
                let rows = try await tx.query(
                    "select current_database(), current_user, coalesce(inet_server_port(), current_setting('port')::int)")
                return (try rows[0].decode(String.self, at: 0), try rows[0].decode(String.self, at: 1), try rows[0].decode(Int.self, at: 2))
            }
        }
        let components = URLComponents(string: url)
        let host = components?.queryItems?.first { $0.name == "host" }?.value ?? components?.host ?? "localhost"
        let password = components?.password.map { " password='\($0)'" } ?? ""
        let pool = PostgresPool(
            configuration: .init(
                connectionString: "host='\(host)' port=\(parts.2) dbname='\(parts.0)' user='\(parts.1)'\(password)", poolSize: 1),
            logger: TestDatabase.logger)
        let user = try await pool.transaction { try await $0.query("select current_user")[0].decode(String.self, at: 0) }
        await pool.close()
        #expect(user == parts.1)
    }
}
