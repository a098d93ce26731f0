import Foundation
import struct GraphQL.GraphQLError
import enum GraphQL.GraphQLValue
import Postgres
import Synchronization
import Testing

import Storykeep
import StorykeepTestSupport
@testable import StorykeepCore
@testable import StorykeepJournals

// The journal's stores and policies (Migrations/0003_journals.sql) against the real PostgreSQL of
// `make test`, as the server's role. Each test makes tenants of its own, so the tests run in
// parallel on one database.

/// A tenant of its own with an admin and two young people, Sam and Alex, made through the
/// policies as the server will.
struct JournalTenant {
    let id: UUID
    let admin: UUID, sam: UUID, alex: UUID

    var samContext: AccountContext { .person(tenantID: id, personID: sam, role: .youngPerson) }
    var alexContext: AccountContext { .person(tenantID: id, personID: alex, role: .youngPerson) }
    var adminContext: AccountContext { .person(tenantID: id, personID: admin, role: .agencyAdmin) }

    init(_ pools: TestPools) async throws {
        let tenant = try await pools.makeTenant(slugPrefix: "journal")
        id = tenant.id
        let people = try await pools.insertPeople(
            [
                tenant.newPerson(.agencyAdmin, "admin", displayName: "Ada Admin"),
                tenant.newPerson(.youngPerson, "sam"), tenant.newPerson(.youngPerson, "alex"),
            ], into: tenant)
        (admin, sam, alex) = (people[0], people[1], people[2])
    }
}

/// The pools and a fresh tenant of one test; the pools are closed whatever happens.
struct JournalDatabase {
    let pools: TestPools
    let tenant: JournalTenant

    var app: PostgresPool { pools.app }
    var owner: PostgresPool { pools.owner }

    static func run(_ body: (JournalDatabase) async throws -> Void) async throws {
        try await TestPools.run(app: 3, owner: 1) { pools in
            try await body(JournalDatabase(pools: pools, tenant: try await JournalTenant(pools)))
        }
    }

    /// Runs `body` as Sam in a fresh tenant: the whole set-up of a test of Sam's own journal.
    static func runAsSam(_ body: (PostgresTransaction) async throws -> Void) async throws {
        try await run { db in try await db.asSam(body) }
    }

    /// Runs `body` as storykeep_app in `context`, committing at the end.
    @discardableResult
    func asPerson<T>(_ context: AccountContext, _ body: (PostgresTransaction) async throws -> T) async throws -> T {
        try await pools.asPerson(context, body)
    }

    /// Runs `body` as Sam, the journal's author in most tests.
    @discardableResult
    func asSam<T>(_ body: (PostgresTransaction) async throws -> T) async throws -> T {
        try await asPerson(tenant.samContext, body)
    }

    /// Another tenant, with people of its own.
    func otherTenant() async throws -> JournalTenant { try await JournalTenant(pools) }
}

/// Counts the statements run through it, to hold reads to a constant number whatever their size.
struct CountingDatabase<Base: PostgresQueryable>: PostgresQueryable {
    let base: Base
    let counter = Counter()

    final class Counter: Sendable {
        private let value = Mutex(0)
        func increment() { value.withLock { $0 += 1 } }
        /// The count so far, reset to zero.
        func take() -> Int { value.withLock { count in defer { count = 0 }; return count } }
    }

    func query(_ sql: String, parameters: [(any PostgresEncodable)?]) async throws -> PostgresRows {
        counter.increment()
        return try await base.query(sql, parameters: parameters)
    }

    func executeScript(_ sql: String) async throws {
        counter.increment()
        try await base.executeScript(sql)
    }

    func copyIn(_ sql: String, _ feed: (PostgresCopyWriter) async throws -> Void) async throws -> Int {
        counter.increment()
        return try await base.copyIn(sql, feed)
    }
}

extension PostgresDate {
    /// A day of November 2026, where most tests' entries are.
    static func november(_ day: Int) -> PostgresDate { PostgresDate(year: 2026, month: 11, day: day) }
}

/// Expects `cursor` to be refused as an `after` of the list of `Position` (BAD_USER_INPUT on
/// `after`) by the cursors of the tenant with `key`: what a page's resolver asks before its store.
func expectBadCursor<Position: CursorPosition>(
    _ cursor: String, of _: Position.Type, key: CursorKey = .random(), sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let position = try Cursors(key: key).position(after: cursor, of: Position.self)
        Issue.record("expected a refused cursor, got \(String(describing: position))", sourceLocation: sourceLocation)
    } catch let error as GraphQLError {
        #expect(error.extensions?["code"] == .string("BAD_USER_INPUT"), sourceLocation: sourceLocation)
        #expect(error.extensions?["field"] == .string("after"), sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a refused cursor, got \(error)", sourceLocation: sourceLocation)
    }
}

/// Expects `body` to throw a `badInput` error naming `field`.
func expectBadInput(
    _ field: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("expected bad input in \(field), nothing was thrown", sourceLocation: sourceLocation)
    } catch JournalError.badInput(let actual, _) {
        #expect(actual == field, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected bad input in \(field), got \(error)", sourceLocation: sourceLocation)
    }
}

extension PostgresTransaction {
    /// The tags of the entry `id`, as the tags module's `Entry.tags` loader reads them.
    func tags(of id: UUID) async throws -> [StorykeepTags.Tag] {
        try await TagStore(self).tags(ofEntries: [id])[id] ?? []
    }
}
