import Foundation
import Postgres
public import StorykeepCore

/// The change log of `storykeep seed`: the sharing module's seed writes shares with SQL, not
/// through the events whose handlers note changes (``ChangeLog``), so this notes one change for
/// each standing share's entry, oldest share first, as if each had been shared then. A client's
/// feed then starts with every seeded entry it may hold (`scripts/bench-export.sh` pulls them).
///
/// As EXPORT_LOG, which sees the tenant's standing shares (Migrations/0018_export_feed.sql), in
/// one statement; it runs after the sharing module's seed (the composition's order).
extension ExportModule {
    public func seed(_ tenant: ModuleSeedTenant) async throws -> [String: Int] {
        try await tenant.pool.transaction(settings: AccountContext.exportLog(tenantID: tenant.id).settings) { tx in
            ["changes": try await tx.query(ExportStatements.seedChanges)[0].decode(Int.self, at: 0)]
        }
    }
}
