import Foundation
import GraphQL
import Postgres
public import StorykeepCore

/// Webhooks for agencies' systems (Schema/webhooks.graphql): the tenant file's `webhooks`
/// (``WebhookEndpoints``) name receivers and the events each wants; the database writes a
/// delivery for each in the transaction of the event (Migrations/0028_webhooks.sql), and a
/// background job every `webhooks.deliveryIntervalSeconds` sends them (``WebhookDispatch``).
/// Agency admins list them (`webhookDeliveries`). Always on: a tenant without `webhooks` has none.
public struct WebhooksModule: StorykeepModule {
    public init() {}

    public var name: String { "webhooks" }
    public var switchedBy: TenantModule? { nil }
    public var tenantSettings: [any TenantSettings.Type] { [TenantSection<WebhookEndpoints>.self] }

    public func backgroundJobs(_ config: StorykeepConfig) -> [BackgroundJob] {
        [Self.deliveryJob(interval: config.webhooks.deliveryInterval, dispatch: WebhookDispatch(timeout: config.webhooks.timeout))]
    }

    /// Sends, every `interval`, the deliveries due, in the tenants that have any (asked in one
    /// statement: ``JobContext/tenants(withWork:due:stale:)``).
    public static func deliveryJob(interval: Duration, dispatch: WebhookDispatch) -> BackgroundJob {
        BackgroundJob(name: DueWork.webhookDelivery.rawValue, interval: interval) { job in
            let now = job.now()
            let tenants = try await job.tenants(withWork: .webhookDelivery, due: now)
            guard !tenants.isEmpty else { return nil }
            let round = try await dispatch.deliver(tenants, pool: job.pool, now: now)
            return ["delivered": "\(round.delivered)", "failed": "\(round.failed)", "dead": "\(round.dead)"]
        }
    }

    public func register(_ module: inout ModuleRegistry) {
        module.query("webhookDeliveries", access: .roles([.agencyAdmin])) { arguments, context in
            let status = arguments["status"]?.stringValue.flatMap(WebhookDeliveryStatus.init(rawValue:))
            let first = arguments["first"]?.intValue ?? 50
            try PageSize.check(first)
            let position =
                try context.cursors.position(after: arguments["after"]?.stringValue, of: WebhookDeliveryPosition.self) ?? .pastNewest
            let deliveries = try await context.transaction { tx in
                try await tx.query(WebhookStatements.page, status?.rawValue, position.moment, position.id, first + 1)
                    .map(WebhookDeliveryRecord.init(row:))
            }
            let page = Page(items: deliveries.prefix(first).map { ($0, $0.position) }, hasNextPage: deliveries.count > first)
            return page.connection(cursors: context.cursors, node: { $0 })
        }
    }
}
