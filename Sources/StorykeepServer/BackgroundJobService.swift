import Foundation
public import Logging
import Metrics
public import ServiceLifecycle
public import Storykeep

/// Runs a module's ``BackgroundJob`` (the archive's purge) every `interval` while the server
/// runs, the first round one interval after the start, so a restart loop does not hammer the
/// database. A round that did something is logged at info, one that found nothing to do at
/// debug; a failed round is logged as an error and the next one tries again.
///
/// Its metrics, by `job` (its name in snake case: `archive_purge`, `data_exports`,
/// `webhook_delivery`, `safety_escalation`): `storykeep_job_rounds_total` by `result` (`done`,
/// `failed`), and `storykeep_job_work_total` by `work`, each count a round reports (the archive
/// purge's `entries` and `media`, the exports `built`, the webhooks `delivered`, `failed` and
/// `dead`, the alerts escalated, the `tenants` gone over).
public struct BackgroundJobService: Service {
    let job: BackgroundJob
    let context: JobContext

    public init(job: BackgroundJob, context: JobContext) {
        self.job = job
        self.context = context
    }

    public func run() async throws {
        let label = job.name.replacing(" ", with: "_")
        await runRounds(every: job.interval) {
            let done = try await job.round(context)
            Counter(label: "storykeep_job_rounds_total", dimensions: [("job", label), ("result", "done")]).increment()
            guard let done else {
                context.logger.debug("Background job found nothing to do", metadata: ["job": "\(job.name)"])
                return
            }
            context.logger.info("Background job done", metadata: done.merging(["job": "\(job.name)"]) { $1 })
            for (work, count) in done {
                guard let count = Int("\(count)"), count > 0 else { continue }
                Counter(label: "storykeep_job_work_total", dimensions: [("job", label), ("work", work)]).increment(by: count)
            }
        } failed: { error in
            context.logger.error("Background job failed", metadata: ["job": "\(job.name)", "error": "\(error)"])
            Counter(label: "storykeep_job_rounds_total", dimensions: [("job", label), ("result", "failed")]).increment()
        }
    }
}

extension StorykeepApplication {
    /// The services that run the modules' background jobs, on the app role's pool, over every
    /// tenant of the database (a tenant whose row is no valid tenant file is logged and skipped).
    public static func backgroundServices(_ jobs: [BackgroundJob], graphQL: TenantGraphQL, logger: Logger) -> [any Service] {
        let pool = graphQL.services.pool
        let context = JobContext(
            pool: pool,
            tenants: {
                try await TenantStore(pool: pool).all { slug, problem in
                    logger.warning("A background job skips a tenant", metadata: ["tenant": "\(slug)", "problem": "\(problem)"])
                }
            },
            now: graphQL.services.now, logger: logger)
        return jobs.map { BackgroundJobService(job: $0, context: context) }
    }

    /// The HTTP endpoints the modules declare, served by `graphQL`'s authentication.
    public static func moduleEndpoints(_ endpoints: [ModuleEndpoint], graphQL: TenantGraphQL) -> [any TenantEndpoint] {
        endpoints.map { endpoint in
            switch endpoint {
            case .files(let path, let source): FilesEndpoint(path: path, source: source, graphQL: graphQL)
            case .signedFiles(let path, let source, let links): FilesEndpoint(path: path, source: source, graphQL: graphQL, links: links)
            case .clientCredentials(let path, let issuer): ClientCredentialsEndpoint(path: path, issuer: issuer, services: graphQL.services)
            }
        }
    }
}
