public import Foundation
public import Postgres
import StorykeepCore
public import StorykeepJournals

/// An entry in the archive and the moment it will be removed for good.
public struct ArchivedEntry: Sendable, Hashable {
    public var entry: Entry
    /// `entry.archivedAt` plus the tenant's retention period.
    public var purgeAt: Date
}

/// The archive of deleted entries, in the transaction it is given, for the person that
/// transaction runs as. Deleting (`JournalStore.deleteEntry`) archives: the entry leaves the
/// journal, search and calendar at once and keeps its tags and media, restorable until the purge
/// (`ArchivePurge`) removes it.
/// Times are the caller's to give, so that tests move through retention periods without waiting.
public struct ArchiveStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// Brings the archived entry `id` back into the journal, with its tags and media. `notFound`
    /// if the person has no archived entry `id` (never had, or purged already); refused if it is
    /// a check-in and its day has had another check-in since.
    public func restoreEntry(id: UUID) async throws -> Entry {
        let row = try await database.query(ArchiveStatements.restoreCheck, id).first
        guard let row else { throw JournalError.notFound(id: id) }
        guard try !row.decode(Bool.self, at: 0) else {
            throw JournalError.badInput(field: "id", message: "that day has a newer mood check-in; change that one instead")
        }
        // The purge may have taken it since: then nothing is restored.
        let restored = try await database.execute(ArchiveStatements.restore, id)
        guard restored == 1 else { throw JournalError.notFound(id: id) }
        return try await JournalStore(database).entry(id: id)!
    }

    /// A page of the person's archive, most recently deleted first, each with the date it will
    /// be purged after `retention`. Three statements whatever `first` is.
    public func archive(
        first: Int, after: ArchivePosition? = nil, retention: Duration
    ) async throws -> Page<ArchivedEntry, ArchivePosition> {
        guard (0...JournalStore<Database>.maxPageSize).contains(first) else {
            throw JournalError.badInput(field: "first", message: "must be 0 to \(JournalStore<Database>.maxPageSize)")
        }
        let position = after ?? .pastNewest
        let rows = try await database.query(ArchiveStatements.archivePage, position.moment, position.id, first + 1)
        var entries = try rows.prefix(first).map { try EntryRows.decode($0).entry }
        let archivedAt = try rows.prefix(first).map { try $0.decode(PostgresTimestamp.self, at: 10) }
        try await EntryRows.attach(to: &entries, on: database)
        let seconds = Double(retention.components.seconds) + Double(retention.components.attoseconds) / 1e18
        return Page(
            items: zip(entries, archivedAt).map { entry, archivedAt in
                (ArchivedEntry(entry: entry, purgeAt: entry.archivedAt!.addingTimeInterval(seconds)),
                 ArchivePosition(moment: archivedAt, id: entry.id))
            },
            hasNextPage: rows.count > first)
    }
}

/// A person's archive in the order of `archive`: (archived_at, id), both descending.
public enum ArchiveList: MomentOrderedList {
    public static var name: String { "archive" }
}

/// A place in `archive`, what its cursors hold: `archived_at` exactly, and the id.
public typealias ArchivePosition = MomentPosition<ArchiveList>

/// The archive's clean-up: removes a tenant's entries archived longer than the retention period,
/// with their tags' links and their media.
///
/// Journals are their authors' alone, archived entries included (Migrations/0004_journals_author_only.sql),
/// so the purge acts in each author's own context: it lists the tenant's people as the tenant's
/// operator (who sees people, never journals), then, in the same transaction, enters each
/// person's context and deletes their entries archived before the cut-off, in one statement per
/// person. An entry restored while a purge runs is never removed: the deletion re-checks
/// `archived_at` on the row it locks (PostgreSQL re-evaluates a DELETE's condition, and the
/// delete policy's, on the newest version of a row updated concurrently), and the files go only
/// with the entries actually deleted.
public enum ArchivePurge {
    /// What was removed.
    public struct Outcome: Sendable, Hashable {
        public var entries: Int
        public var media: Int

        public init(entries: Int, media: Int) {
            self.entries = entries
            self.media = media
        }
    }

    /// Purges each of `tenants` (disabled ones too: their archives age all the same) with its
    /// own retention period, one transaction per tenant, telling `progress` after each (for
    /// `storykeep purge`'s progress line). Returns the totals.
    public static func purge(
        _ tenants: [Tenant], pool: PostgresPool, now: Date,
        progress: (_ tenant: Tenant, _ outcome: Outcome) -> Void = { _, _ in }
    ) async throws -> Outcome {
        var total = Outcome(entries: 0, media: 0)
        for tenant in tenants {
            let retention = Duration.seconds(tenant.file.archive.retentionDays * 86_400)
            let outcome = try await pool.transaction { tx in
                try await purge(tenantID: tenant.id, olderThan: retention, now: now, on: tx)
            }
            total.entries += outcome.entries
            total.media += outcome.media
            progress(tenant, outcome)
        }
        return total
    }

    /// Removes the entries of the tenant `tenantID` archived before `now - retention`, and their
    /// media, in the transaction `database`, whose context it sets (and leaves on the last person
    /// purged: end the transaction after it). 1 + 2 × people statements.
    public static func purge(
        tenantID: UUID, olderThan retention: Duration, now: Date, on database: some PostgresQueryable
    ) async throws -> Outcome {
        let seconds = Double(retention.components.seconds) + Double(retention.components.attoseconds) / 1e18
        let cutoff = now.addingTimeInterval(-seconds)
        try await AccountContext.tenantOperator(tenantID: tenantID).enter(on: database)
        let people = try await database.query(ArchiveStatements.people)
            .map { (try $0.decode(UUID.self, at: 0), try $0.decode(String.self, at: 1)) }
        var total = Outcome(entries: 0, media: 0)
        for (person, roleName) in people {
            guard let role = PersonRole(rawValue: roleName) else { continue }
            try await AccountContext.person(tenantID: tenantID, personID: person, role: role).enter(on: database)
            let row = try await database.query(ArchiveStatements.purgePerson, cutoff)[0]
            total.entries += try row.decode(Int.self, at: 0)
            total.media += try row.decode(Int.self, at: 1)
        }
        return total
    }
}
