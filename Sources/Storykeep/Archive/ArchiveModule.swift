import Foundation
import GraphQL
public import StorykeepCore
import StorykeepJournals

/// The archive in the schema (Schema/archive.graphql): deleted entries listed with the day each
/// goes for good, and restored (``EntryRestored``). Switched on by `archive` in the tenant file;
/// `deleteEntry` (journals) archives whether it is on or not, and the server's purge
/// (``ArchivePurge``, every `archive.purgeIntervalSeconds`) follows each tenant's retention.
public struct ArchiveModule: StorykeepModule {
    public init() {}

    public var name: String { "archive" }
    public var switchedBy: TenantModule? { .archive }
    public var tenantSettings: [any TenantSettings.Type] { [TenantSection<ArchivePolicy>.self] }

    public func backgroundJobs(_ config: StorykeepConfig) -> [BackgroundJob] {
        [Self.purgeJob(interval: config.archive.purgeInterval)]
    }

    /// Removes, every `interval`, the entries each tenant's people deleted longer ago than the
    /// tenant's retention period, with their files: what `storykeep purge` does on demand.
    /// Disabled tenants are purged too, since their archives age all the same.
    public static func purgeJob(interval: Duration) -> BackgroundJob {
        BackgroundJob(name: "archive purge", interval: interval) { job in
            let tenants = try await job.tenants()
            let outcome = try await ArchivePurge.purge(tenants, pool: job.pool, now: job.now())
            guard outcome.entries + outcome.media > 0 else { return nil }
            return ["entries": "\(outcome.entries)", "media": "\(outcome.media)", "tenants": "\(tenants.count)"]
        }
    }

    public func register(_ module: inout ModuleRegistry) {
        module.query("archive", access: .authenticated) { arguments, context in
            let retention = Duration.seconds(context.tenant.file.archive.retentionDays * 86_400)
            let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: ArchivePosition.self)
            return try await context.transaction { tx in
                try await ArchiveStore(tx).archive(first: arguments["first"]?.intValue ?? 20, after: after, retention: retention)
            }.connection(
                cursors: context.cursors, node: { $0.entry },
                edge: { archived in
                    [
                        "deletedAt": archived.entry.archivedAt.map { .string(DateTimeScalar.string($0)) } ?? .null,
                        "purgeAt": .string(DateTimeScalar.string(archived.purgeAt)),
                    ]
                })
        }
        module.mutation("restoreEntry", access: .authenticated) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in
                let entry = try await ArchiveStore(tx).restoreEntry(id: id)
                try await context.publish(EntryRestored(entryID: id, authorID: try context.requireViewer().personID), in: tx)
                return entry
            }
        }
    }
}

/// An archived entry was brought back into its author's journal.
public struct EntryRestored: DomainEvent {
    public static let name = "entryRestored"
    public var entryID: UUID
    public var authorID: UUID
}
