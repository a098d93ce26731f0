import ArgumentParser
import Foundation
import Storykeep

/// `storykeep purge`: removes for good the archived entries (and their media) older than each
/// tenant's retention period.
struct PurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove archived entries older than each tenant's retention period, with their media.",
        discussion: """
            Runs as the owner role, one transaction per tenant in that tenant's PURGE context, \
            which sees archived entries only. An entry restored while the purge runs is kept. \
            Prints a line per tenant and a summary.
            """
    )

    @Option(help: "Only this tenant (its slug); default every tenant, disabled ones included.")
    var tenant: String?

    @Option(help: "Purge as if it were this moment (ISO 8601, e.g. 2026-12-25T00:00:00Z); default now.")
    var now: String?

    func run() async throws {
        let moment = try now.map { text in
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw ValidationError("--now: not an ISO 8601 moment such as 2026-12-25T00:00:00Z: \(text)")
            }
            return date
        } ?? Date()
        let config = try await CommandSupport.config()
        let logger = CommandSupport.bootstrapLogging(config)
        let total = try await CommandSupport.using(try CommandSupport.ownerPool(config, logger: logger)) { pool in
            var tenants = try await TenantStore(pool: pool).all { slug, problem in
                if tenant == nil || tenant == slug { print("\(slug)  skipped: not a valid tenant file: \(problem)") }
            }
            if let slug = tenant {
                tenants = tenants.filter { $0.slug == slug }
                guard !tenants.isEmpty else { throw ValidationError("no tenant has the slug \"\(slug)\"") }
            }
            var done = 0
            return try await ArchivePurge.purge(tenants, pool: pool, now: moment) { tenant, outcome in
                done += 1
                print("[\(done)/\(tenants.count)] \(tenant.slug): \(outcome.entries) entries, \(outcome.media) media files "
                    + "(archived more than \(tenant.file.archive.retentionDays) days)")
            }
        }
        print("purged \(total.entries) entries and \(total.media) media files")
    }
}
