import Foundation
import GraphQL

/// The archive in the schema (Schema/archive.graphql): deleted entries listed with the day each
/// goes for good, and restored. Switched on by `archive` in the tenant file; `deleteEntry`
/// (journals) archives whether it is on or not, and the purge follows the tenant's retention.
public struct ArchiveModule: StorykeepModule {
    public init() {}

    public var name: String { "archive" }
    public var switchedBy: TenantModule? { .archive }

    public func register(_ resolvers: inout ResolverRegistry) {
        resolvers.query("archive", access: .authenticated) { arguments, context in
            let retention = Duration.seconds(context.tenant.file.archive.retentionDays * 86_400)
            let cursors = Cursors(tenant: context.tenant)
            let after = try cursors.position(after: arguments["after"]?.stringValue, of: ArchivePosition.self)
            let page = try await context.transaction { tx in
                try await ArchiveStore(tx).archive(first: arguments["first"]?.intValue ?? 20, after: after, retention: retention)
            }
            return JournalValues.connection(
                page, cursors: cursors, node: { JournalValues.entry($0.entry, tenant: context.tenant) },
                edge: { archived in
                    [
                        "deletedAt": archived.entry.archivedAt.map { .string(DateTimeScalar.string($0)) } ?? .null,
                        "purgeAt": .string(DateTimeScalar.string(archived.purgeAt)),
                    ]
                })
        }
        resolvers.mutation("restoreEntry", access: .authenticated) { arguments, context in
            let id = try JournalValues.id(arguments, "id")
            return try await context.transaction { tx in
                JournalValues.entry(try await ArchiveStore(tx).restoreEntry(id: id), tenant: context.tenant)
            }
        }
    }
}
