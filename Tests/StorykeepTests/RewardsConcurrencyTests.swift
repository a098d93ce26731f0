import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore
import StorykeepJournals
import StorykeepRewards

// Concurrency cannot beat a limit, nor pay a cause twice, nor spend a star twice: two transactions
// of one young person, the second made to start its earning (or spending) while the first, which
// has earned, has not committed yet. The second must wait for the first and then see what it did,
// which a read-then-write would not (its statement's snapshot was taken before the first
// committed). Deterministic: the first commits only once PostgreSQL shows the second waiting on a
// lock. As the app role, through `Earning` and `RewardStore`, as requests run them.

@Suite("Rewards: concurrent earning and spending, interleaved")
struct RewardsConcurrencyTests {
    /// One rule of each kind, each paying once a day; no achievements.
    static let rewards: Rewards = {
        let file = try! TenantFiles.decode(
            """
            slug: sample
            displayName: Sample
            timeZone: Europe/London
            termsVersion: "1"
            modules: [rewards]
            moodIcons: [{ emoji: "🙂", label: Okay }]
            rewards:
              rules:
                - { id: new-entry, on: entryCreated, stars: 2, dailyLimit: 1 }
                - { id: daily-check-in, on: checkIn, stars: 1 }
                - { id: shared-entry, on: entryShared, stars: 3 }
              unlockables:
                - { id: theme-sunset, kind: theme, name: Sunset colours, stars: 4 }
                - { id: avatar-fox, kind: avatar, name: Fox avatar, stars: 4 }
            """, file: "sample")
        return file.rewards
    }()

    static let day = PostgresDate(year: 2026, month: 6, day: 10)

    /// Runs `first` in a transaction of `person` and holds it open; runs `second` in another once
    /// the first is done, and commits the first only when the second waits on a lock: both
    /// results.
    static func interleave<T: Sendable>(
        _ db: CaseloadDatabase, _ person: UUID, first: @escaping @Sendable (PostgresTransaction) async throws -> T,
        second: @escaping @Sendable (PostgresTransaction) async throws -> T
    ) async throws -> (T, T) {
        let (firstDone, firstSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let (secondPID, secondPIDSignal) = AsyncStream<Int>.makeStream()
        let context = db.tenant.context(person)
        async let one: T = db.pools.asPerson(context) { tx in
            let result = try await first(tx)
            firstSignal.yield()
            for await _ in release { break }
            return result
        }
        for await _ in firstDone { break }
        async let two: T = db.pools.asPerson(context) { tx in
            secondPIDSignal.yield(try await tx.query("select pg_backend_pid()")[0].decode(Int.self, at: 0))
            return try await second(tx)
        }
        var pid = 0
        for await value in secondPID {
            pid = value
            break
        }
        // The second's backend waits on a lock: the first holds it.
        try await db.pools.app.withConnection { connection in
            for _ in 0..<2_000 {
                let waiting = try await connection.query(
                    "select coalesce(wait_event_type = 'Lock', false) from pg_stat_activity where pid = $1", pid)
                if try waiting.first?.decode(Bool.self, at: 0) == true { return }
                try await Task.sleep(for: .milliseconds(5))
            }
            Issue.record("the second transaction never waited on a lock")
        }
        releaseSignal.yield()
        releaseSignal.finish()
        return (try await one, try await two)
    }

    static func earning(_ db: CaseloadDatabase, _ tx: PostgresTransaction) -> Earning {
        Earning(rewards: rewards, personID: db.tenant.sam, today: day, tx: tx)
    }

    @Test func aDailyLimitHoldsAgainstAnEntryWrittenAtTheSameTime() async throws {
        try await CaseloadDatabase.run { db in
            let (first, second) = try await Self.interleave(
                db, db.tenant.sam,
                first: { tx in try await Self.earning(db, tx).entryCreated(UUID(), kind: .text) },
                second: { tx in try await Self.earning(db, tx).entryCreated(UUID(), kind: .text) })
            #expect(first.stars == 2)
            #expect(second.stars == 0)
            #expect(try await db.asPerson(db.tenant.sam) { tx in try await RewardStore(tx).balance() } == 2)
        }
    }

    @Test func aCheckInAndAShareArePaidOnceWhenTwiceAtOnce() async throws {
        try await CaseloadDatabase.run { db in
            let checkIns = try await Self.interleave(
                db, db.tenant.sam,
                first: { tx in try await Self.earning(db, tx).checkedIn(day: Self.day) },
                second: { tx in try await Self.earning(db, tx).checkedIn(day: Self.day) })
            #expect(checkIns.0.stars == 1 && checkIns.1.stars == 0)
            let entry = UUID()
            let shares = try await Self.interleave(
                db, db.tenant.sam,
                first: { tx in try await Self.earning(db, tx).entryShared(entry) },
                second: { tx in try await Self.earning(db, tx).entryShared(entry) })
            #expect(shares.0.stars == 3 && shares.1.stars == 0)
            #expect(try await db.asPerson(db.tenant.sam) { tx in try await RewardStore(tx).balance() } == 4)
        }
    }

    @Test func twoUnlocksAtOnceSpendTheStarsOnce() async throws {
        try await CaseloadDatabase.run { db in
            // 3 + 1 stars: enough for one of two unlockables of 4.
            try await db.asPerson(db.tenant.sam) { tx in
                _ = try await Self.earning(db, tx).entryShared(UUID())
                _ = try await Self.earning(db, tx).checkedIn(day: Self.day)
            }
            let (first, second) = try await Self.interleave(
                db, db.tenant.sam,
                first: { tx in try await RewardStore(tx).unlock(Self.rewards.unlockable("theme-sunset")!, day: Self.day) },
                second: { tx in try await RewardStore(tx).unlock(Self.rewards.unlockable("avatar-fox")!, day: Self.day) })
            #expect(first == .unlocked(balance: 0))
            #expect(second == .notEnoughStars(balance: 0))
        }
    }
}
