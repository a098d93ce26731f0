import Foundation
import Postgres
import Storykeep
import StorykeepCore
import Synchronization

/// How far seeding has got, for a progress line.
public struct SeedProgress: Sendable {
    public enum Phase: String, Sendable { case tenants, people, journals, modules, done }
    public var phase: Phase
    /// The module seeding now, in the `modules` phase.
    public var module: String?
    public var peopleDone = 0
    public var peopleTotal = 0
    public var entriesDone = 0
    public var entriesTotal = 0
    public var elapsed: Duration = .zero
}

/// What was seeded.
public struct SeedSummary: Sendable {
    public var tenants: [SeedTenant]
    public var people: [PersonRole: Int]
    public var counts: SeedCounts
    /// What each module's own seed wrote, across tenants: module, kind of row, count.
    public var moduleCounts: [String: [String: Int]]
    /// SHA-256 (hex) of every person and journal row written, tenant ids left out: the same seed,
    /// the same digest. (A module's rows follow from these and the seed.)
    public var digest: String
    public var heavy: SeedPerson?
    public var elapsed: Duration
}

/// Fills a database with the synthetic tenants, people and journals of a `SeedPlan`, then asks
/// every module switched on in a tenant for its own data (``StorykeepModule/seed(_:)``).
///
/// People and journals are loaded here rather than by the accounts and journals modules: every
/// other module's data hangs on them, and their volume (millions of entries for a benchmark) needs
/// the batched `COPY` below rather than a module's statements.
///
/// HOW THE ROWS GET PAST ROW-LEVEL SECURITY
///
/// Nothing here bypasses it; every row is written by a role bound by the policies, in the context
/// the policies ask of anyone writing that row:
///
/// * tenants: `TenantStore.apply` as the owner role, as `storykeep tenant apply` does;
/// * people: as the tenant's operator (`AccountContext.tenantOperator`, an admin's rights), as
///   `storykeep user create` does (people_insert wants the AGENCY_ADMIN role);
/// * credentials, tags, media, entries and their links: in each person's own context
///   (`AccountContext.person`), the only context their insert policies admit (author, owner or
///   person = `current_person_id()`), switched to within one transaction as `ArchivePurge` does.
///
/// PostgreSQL refuses `COPY ... FROM` into a table with row-level security, so each batch is
/// copied into temporary tables of the session (which have none and hold no tenant id), then
/// moved by one `INSERT ... SELECT` per person, each row taking `current_tenant_id()` and only
/// the rows of `current_person_id()`: the policies' WITH CHECK holds every row to the context.
public enum Seeder {
    public static func run(
        _ plan: SeedPlan, owner: PostgresPool, app: PostgresPool, passwordHash: String,
        progress: @escaping @Sendable (SeedProgress) -> Void = { _ in }
    ) async throws -> SeedSummary {
        let clock = ContinuousClock(), start = clock.now
        var plan = plan
        let peopleTotal = plan.tenants.reduce(0) { $0 + $1.people.count }
        let entriesTotal = plan.options.entries
        progress(SeedProgress(phase: .tenants, peopleTotal: peopleTotal, entriesTotal: entriesTotal))

        // Tenants, through the tenant machinery, as the owner role. Never over existing ones.
        let store = TenantStore(pool: owner)
        let existing = Set(try await store.all().map(\.slug))
        if let clash = plan.tenants.first(where: { existing.contains($0.slug) }) {
            throw SeedError(
                "tenant \(clash.slug) exists already: seed a fresh database, or choose another --tenant-prefix")
        }
        _ = try await store.apply(plan.tenants.map(\.file))
        let ids = Dictionary(try await store.all().map { ($0.slug, $0.id) }, uniquingKeysWith: { a, _ in a })
        for index in plan.tenants.indices { plan.tenants[index].id = ids[plan.tenants[index].slug] }

        // People and their credentials, a transaction per tenant.
        var digests: [[UInt8]] = []
        var peopleDone = 0
        for tenant in plan.tenants {
            digests.append(try await loadPeople(tenant, hash: passwordHash, options: plan.options, pool: app))
            peopleDone += tenant.people.count
            progress(SeedProgress(
                phase: .people, peopleDone: peopleDone, peopleTotal: peopleTotal, entriesTotal: entriesTotal,
                elapsed: clock.now - start))
        }

        // Journals, in batches of young people, on `jobs` connections at once.
        let batches = plan.batches
        let state = SeedState()
        let frozen = plan
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<min(plan.options.jobs, max(batches.count, 1)) {
                group.addTask {
                    try await app.withConnection { connection in
                        try await connection.executeScript(SeedStatements.temporaryTables)
                        while true {
                            let number: Int = state.mutex.withLock { state in
                                defer { state.next += 1 }
                                return state.next
                            }
                            guard number < batches.count else { break }
                            let batch = batches[number]
                            let tenant = frozen.tenants[batch.tenant]
                            var rows = SeedJournalRows()
                            for person in batch.people { rows.add(person, of: tenant, options: frozen.options) }
                            try await load(rows, batch: batch, tenant: tenant, on: connection) { entries in
                                let done = state.mutex.withLock { state in
                                    state.entries += entries
                                    return state.entries
                                }
                                progress(SeedProgress(
                                    phase: .journals, peopleDone: peopleTotal, peopleTotal: peopleTotal,
                                    entriesDone: done, entriesTotal: entriesTotal, elapsed: clock.now - start))
                            }
                            let digest = rows.digest
                            state.mutex.withLock { state in
                                state.counts.add(rows.counts)
                                state.digests[number] = digest
                            }
                        }
                        try await connection.executeScript(SeedStatements.dropTemporaryTables)
                    }
                }
            }
            try await group.waitForAll()
        }
        let (counts, batchDigests) = state.mutex.withLock { ($0.counts, $0.digests) }
        digests += (0..<batches.count).compactMap { batchDigests[$0] }

        // Then each module's own data, tenant by tenant, in the composition's order.
        var moduleCounts: [String: [String: Int]] = [:]
        for module in StorykeepModules.all {
            for tenant in plan.tenants {
                guard let id = tenant.id, module.switchedBy.map(tenant.file.modules.contains) ?? true else { continue }
                progress(SeedProgress(
                    phase: .modules, module: module.name, peopleDone: peopleTotal, peopleTotal: peopleTotal,
                    entriesDone: counts.entries, entriesTotal: entriesTotal, elapsed: clock.now - start))
                let seeded = try await module.seed(ModuleSeedTenant(
                    id: id, slug: tenant.slug, file: tenant.file,
                    people: tenant.people.map { ModuleSeedTenant.Person(id: $0.id, role: $0.role, index: $0.index) },
                    seed: plan.options.seed, settings: plan.options.moduleSettings[module.name] ?? [:], pool: app))
                moduleCounts[module.name, default: [:]].merge(seeded, uniquingKeysWith: +)
            }
        }
        let elapsed = clock.now - start
        progress(SeedProgress(
            phase: .done, peopleDone: peopleTotal, peopleTotal: peopleTotal, entriesDone: counts.entries,
            entriesTotal: entriesTotal, elapsed: elapsed))
        var people: [PersonRole: Int] = [:]
        for tenant in plan.tenants { for person in tenant.people { people[person.role, default: 0] += 1 } }
        return SeedSummary(
            tenants: plan.tenants, people: people, counts: counts, moduleCounts: moduleCounts.filter { !$0.value.isEmpty },
            digest: Crypto.hex(Crypto.sha256(digests.flatMap { $0 })),
            heavy: plan.heavy, elapsed: elapsed)
    }

    /// The tenant's people, as its operator; then each one's credentials, as themselves.
    /// Returns the digest of the rows.
    static func loadPeople(_ tenant: SeedTenant, hash: String, options: SeedOptions, pool: PostgresPool) async throws -> [UInt8] {
        guard let tenantID = tenant.id else { throw SeedError("tenant \(tenant.slug) was not created") }
        var rows = CopyText()
        for person in tenant.people {
            rows.uuid(person.id); rows.plain(person.role.rawValue); rows.text(person.username); rows.text(person.email)
            rows.text(person.displayName); rows.text(person.externalRef)
            rows.endRow()
        }
        let firstDay = SeedJournalRows.micros(day: options.until.daysSince2000 - options.days, second: 9 * 3600)
        try await pool.withConnection { connection in
            try await connection.transaction(settings: AccountContext.tenantOperator(tenantID: tenantID).settings) { tx in
                try await tx.executeScript(SeedStatements.createPeople)
                try await rows.copy(SeedStatements.copyPeople, on: tx)
                let inserted = try await tx.execute(SeedStatements.insertPeople, tenant.file.termsVersion, firstDay)
                guard inserted == tenant.people.count else {
                    throw SeedError("\(tenant.slug): \(inserted) of \(tenant.people.count) people inserted")
                }
                for person in tenant.people {
                    try await AccountContext.person(tenantID: tenantID, personID: person.id, role: person.role).enter(on: tx)
                    try await Login.setPassword(hash: hash, personID: person.id, in: tx)
                }
            }
        }
        return Crypto.sha256(rows.bytes)
    }

    /// Copies a batch's rows into the session's temporary tables, then moves each young person's
    /// into the tenant's tables in their own context, telling `moved` their number of entries.
    static func load(
        _ rows: SeedJournalRows, batch: SeedBatch, tenant: SeedTenant, on connection: PostgresConnection,
        moved: (Int) -> Void
    ) async throws {
        guard let tenantID = tenant.id else { throw SeedError("tenant \(tenant.slug) was not created") }
        try await connection.transaction(settings: AccountContext.anonymous(tenantID: tenantID).settings) { tx in
            try await rows.tags.copy(SeedStatements.copyTags, on: tx)
            try await rows.media.copy(SeedStatements.copyMedia, on: tx)
            try await rows.entries.copy(SeedStatements.copyEntries, on: tx)
            try await rows.entryTags.copy(SeedStatements.copyEntryTags, on: tx)
            try await rows.entryMedia.copy(SeedStatements.copyEntryMedia, on: tx)
            try await tx.executeScript(SeedStatements.analyzeStaged)
            for person in batch.people {
                try await AccountContext.person(tenantID: tenantID, personID: person.id, role: person.role).enter(on: tx)
                let row = try await tx.query(SeedStatements.moveJournal)[0]
                let entries = try row.decode(Int.self, at: 0)
                guard entries == person.entryCount else {
                    throw SeedError("\(tenant.slug), \(person.loginName): \(entries) of \(person.entryCount) entries inserted")
                }
                moved(entries)
            }
        }
    }
}

/// What the loading connections share.
final class SeedState: Sendable {
    let mutex = Mutex((next: 0, entries: 0, counts: SeedCounts(), digests: [Int: [UInt8]]()))
}
