import Foundation
public import Logging
public import Postgres
public import ServiceLifecycle
public import Storykeep

/// Removes, every `archive.purgeIntervalSeconds`, the entries each tenant's people deleted longer
/// ago than the tenant's retention period, with their files (``ArchivePurge``, what
/// `storykeep purge` runs on demand). The first purge runs one interval after the start, so a
/// restart loop does not hammer the database; disabled tenants are purged too, since their
/// archives age all the same. A failed round is logged and the next one tries again.
public struct ArchivePurgeService: Service {
    let pool: PostgresPool
    let interval: Duration
    let logger: Logger
    let now: @Sendable () -> Date

    public init(pool: PostgresPool, interval: Duration, logger: Logger, now: @escaping @Sendable () -> Date = Date.init) {
        self.pool = pool
        self.interval = interval
        self.logger = logger
        self.now = now
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            do {
                let tenants = try await TenantStore(pool: pool).all { slug, problem in
                    logger.warning("Archive purge skips a tenant", metadata: ["tenant": "\(slug)", "problem": "\(problem)"])
                }
                let outcome = try await ArchivePurge.purge(tenants, pool: pool, now: now())
                logger.info(
                    "Archive purged", metadata: ["entries": "\(outcome.entries)", "media": "\(outcome.media)", "tenants": "\(tenants.count)"])
            } catch {
                logger.error("Archive purge failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
