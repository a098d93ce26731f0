import Foundation
import Postgres
import StorykeepTestSupport
import Testing

/// Statements sent together in one round trip (libpq's pipeline mode): with BEGIN
/// (`transaction(beginningWith:)`), as a list (`query(together:)`), and gathered from concurrent
/// work (`StatementGathering`). A failure is the same `PostgresError` as sent alone, and aborts
/// the transaction: nothing of it is kept. The pool has one connection, so the temporary table
/// each test makes is there for all its transactions.
@Suite struct PipelineTests {
    /// Runs `test` on a pool of one connection with the temporary table `pipeline_check`, its
    /// gatherings as patient as `patience` (long, as these tests count round trips).
    func withCheckTable(
        patience: Duration = TestDatabase.countingRoundTrips, _ test: (PostgresPool) async throws -> Void
    ) async throws {
        try await withAppPool(size: 1, gatheringPatience: patience) { pool in
            try await pool.withConnection { connection in
                try await connection.executeScript("create temp table pipeline_check (x int constraint pipeline_check_x unique)")
            }
            try await test(pool)
        }
    }

    func count(_ pool: PostgresPool) async throws -> Int {
        try await pool.transaction { tx in try await tx.query("select count(*) from pipeline_check")[0].decode(Int.self, at: 0) }
    }

    @Test func statementsTogetherAreOneRoundTripWithTheirOwnRows() async throws {
        try await withCheckTable { pool in
            let (statements, roundTrips) = (pool.statementsSent, pool.roundTrips)
            let rows = try await pool.transaction(
                settings: ["storykeep.probe": "p"], beginningWith: [PostgresStatement("select current_setting('storykeep.probe')")]
            ) { rows, tx in
                #expect(try rows[0][0].decode(String.self, at: 0) == "p")
                return try await tx.query(together: [
                    PostgresStatement("insert into pipeline_check values ($1::int), ($2::int)", 1, 2),
                    PostgresStatement("select $1::int8 * 2", 21),
                    PostgresStatement("select x from pipeline_check order by x"),
                ])
            }
            #expect(rows[0].affectedRows == 2)
            #expect(try rows[1][0].decode(Int.self, at: 0) == 42)
            #expect(try rows[2].map { try $0.decode(Int.self, at: 0) } == [1, 2])
            // BEGIN, the settings and the first select; the three; COMMIT.
            #expect(pool.statementsSent - statements == 7)
            #expect(pool.roundTrips - roundTrips == 3)
            #expect(try await count(pool) == 2)
        }
    }

    @Test func aFailureInAPipelineIsTheSameErrorAndKeepsNothing() async throws {
        try await withCheckTable { pool in
            let failure = await #expect(throws: PostgresError.self) {
                try await pool.transaction { tx in
                    try await tx.query(together: [
                        PostgresStatement("insert into pipeline_check values ($1::int)", 1),
                        PostgresStatement("insert into pipeline_check values ($1::int)", 1),
                        PostgresStatement("insert into pipeline_check values ($1::int)", 3),
                    ])
                }
            }
            #expect(failure?.kind == .server)
            #expect(failure?.sqlState == PostgresError.SQLState.uniqueViolation)
            #expect(failure?.constraintName == "pipeline_check_x")
            #expect(failure?.detail == "Key (x)=(1) already exists.")
            let left = try await count(pool)
            #expect(left == 0)

            // Failing with BEGIN: the transaction never starts, and the connection serves on.
            let early = await #expect(throws: PostgresError.self) {
                try await pool.transaction(beginningWith: [PostgresStatement("select 1/0")]) { _, _ in }
            }
            #expect(early?.sqlState == "22012")
            #expect(early?.message == "division by zero")
            let leftAfterBegin = try await count(pool)
            #expect(leftAfterBegin == 0)
        }
    }

    @Test func concurrentWorkIsGatheredIntoOneRoundTrip() async throws {
        try await withCheckTable { pool in
            let roundTrips = try await pool.transaction { tx in
                let before = pool.roundTrips
                let gathering = tx.gathering(participants: 3)
                let sums = try await withThrowingTaskGroup(of: Int.self) { group in
                    for value in 1...3 {
                        group.addTask {
                            try await gathering.participate {
                                try await tx.query("select $1::int8 + 100", value)[0].decode(Int.self, at: 0)
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(Set(sums) == [101, 102, 103])
                return pool.roundTrips - before
            }
            #expect(roundTrips == 1)
        }
    }

    @Test func statementsTogetherJoinAGatheringOnTheirConnection() async throws {
        try await withCheckTable { pool in
            let (statements, roundTrips) = try await pool.transaction { tx in
                let before = (pool.statementsSent, pool.roundTrips)
                let gathering = tx.gathering(participants: 2)
                async let pair = gathering.participate {
                    try await tx.query(together: [PostgresStatement("select 1::int8"), PostgresStatement("select 2::int8")])
                        .map { try $0[0].decode(Int.self, at: 0) }
                }
                async let single = gathering.participate { try await tx.query("select 3::int8")[0].decode(Int.self, at: 0) }
                let (both, one) = try await (pair, single)
                #expect(both == [1, 2])
                #expect(one == 3)
                return (pool.statementsSent - before.0, pool.roundTrips - before.1)
            }
            #expect(statements == 3)
            #expect(roundTrips == 1)
        }
    }

    @Test func aFailedGatheredStatementAbortsTheTransaction() async throws {
        try await withCheckTable { pool in
            var outcomes: (inserted: Result<Int, any Error>, divided: Result<PostgresRows, any Error>)?
            let rolledBack = await #expect(throws: PostgresError.self) {
                try await pool.transaction { tx in
                    let gathering = tx.gathering(participants: 2)
                    let inserted = Task { try await gathering.participate { try await tx.execute("insert into pipeline_check values (1)") } }
                    let divided = Task { try await gathering.participate { try await tx.query("select 1/0") } }
                    outcomes = (await inserted.result, await divided.result)
                }
            }
            #expect(rolledBack?.kind == .transactionRolledBack)
            guard case .failure(let division as PostgresError)? = outcomes?.divided else {
                Issue.record("the division did not fail: \(String(describing: outcomes))")
                return
            }
            #expect(division.sqlState == "22012")
            // Sent before the division, the insert succeeded; after it, it was not run.
            if case .failure(let error as PostgresError)? = outcomes?.inserted {
                #expect(error.sqlState == PostgresError.SQLState.inFailedTransaction)
                #expect(error.message == "current transaction is aborted, commands ignored until end of transaction block")
            }
            let left = try await count(pool)
            #expect(left == 0)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aParticipantWaitingForAnotherDoesNotHoldItsStatementForever() async throws {
        try await withCheckTable(patience: PostgresConfiguration.defaultGatheringPatience) { pool in
            let answer = try await pool.transaction { tx in
                let gathering = tx.gathering(participants: 2)
                // The second participant waits for the first's result: the first's statement is
                // sent after the gathering's patience, not never.
                let first = Task { try await gathering.participate { try await tx.query("select 7::int8")[0].decode(Int.self, at: 0) } }
                return try await gathering.participate { try await first.value + 1 }
            }
            #expect(answer == 8)
        }
    }

    /// The patience's timer is armed under the gathering's lock: a timer that fires before the
    /// participant that armed it has recorded it must not leave a later statement waiting with
    /// no timer at all. With no patience at all the timer fires at once, as a busy machine can
    /// make a 5 ms one fire while its participant is descheduled; the first participant then
    /// waits for the second's result, so a statement left without a timer hangs the test. The
    /// time limit is against that hang: 2,000 rounds took over a minute beside the whole suite.
    @Test(.timeLimit(.minutes(3))) func participantsWaitingOnEachOtherNeverHangHoweverSoonThePatienceRunsOut() async throws {
        try await withCheckTable(patience: .zero) { pool in
            for round in 0..<300 {
                let sum = try await pool.transaction { tx in
                    let gathering = tx.gathering(participants: 2)
                    let second = Task { try await gathering.participate { try await tx.query("select $1::int8", round)[0].decode(Int.self, at: 0) } }
                    return try await gathering.participate {
                        try await tx.query("select 1::int8")[0].decode(Int.self, at: 0) + second.value
                    }
                }
                #expect(sum == round + 1)
            }
        }
    }

    @Test func aTransactionThatWroteNothingNeedNotWaitForItsCommit() async throws {
        try await withCheckTable { pool in
            var (statements, roundTrips) = (pool.statementsSent, pool.roundTrips)
            let five = try await pool.transaction(beginningWith: [PostgresStatement("select 5::int8")], waitForCommit: false) { rows, _ in
                try rows[0][0].decode(Int.self, at: 0)
            }
            #expect(five == 5)
            // BEGIN and the select, then COMMIT, whose answer nothing waits for.
            #expect(pool.statementsSent - statements == 3)
            #expect(pool.roundTrips - roundTrips == 1)

            // One that wrote waits for its COMMIT; the connection read the earlier one's answer first.
            (statements, roundTrips) = (pool.statementsSent, pool.roundTrips)
            try await pool.transaction(beginningWith: [], waitForCommit: false) { _, tx in
                try await tx.execute("insert into pipeline_check values (1)")
            }
            #expect(pool.statementsSent - statements == 3)
            #expect(pool.roundTrips - roundTrips == 3)
            let kept = try await count(pool)
            #expect(kept == 1)

            // A failed statement swallowed: the COMMIT is waited for, and answers that it rolled back.
            let rolledBack = await #expect(throws: PostgresError.self) {
                try await pool.transaction(beginningWith: [], waitForCommit: false) { _, tx in _ = try? await tx.query("select 1/0") }
            }
            #expect(rolledBack?.kind == .transactionRolledBack)
        }
    }
}
