public import Foundation
public import Postgres
public import StorykeepCore

/// The server's delivery of the webhook outbox (Migrations/0028_webhooks.sql): each round takes
/// what is due in each tenant, POSTs it signed (``WebhookSignature``) with the Standard Webhooks
/// headers, and records the attempt. A 2xx delivers; anything else (another status, no answer
/// within the timeout, a secret missing from the environment) is tried again after an
/// exponential back-off (``retryDelay(afterAttempts:)``) until 24 hours after the event, then the
/// delivery is DEAD.
///
/// At least once: a delivery is taken for a lease (no other server sends it meanwhile), sent, then
/// recorded; a server stopped between sending and recording sends it again once the lease is
/// over, with the same `webhook-id`, which receivers use to drop duplicates. Everything is judged
/// by the round's `now` (tests move it), and runs as each tenant's operator.
public struct WebhookDispatch: Sendable {
    /// How long after its event a delivery is tried at all.
    public static let retryWindow: TimeInterval = 24 * 3600
    /// The wait after the first failed attempt; each further failure doubles it, up to
    /// ``longestRetryDelay``.
    public static let firstRetryDelay: TimeInterval = 30
    public static let longestRetryDelay: TimeInterval = 2 * 3600
    /// The most deliveries of one tenant a round sends, at once.
    static let batchSize = 50

    private let sender: WebhookSender
    private let timeout: Duration
    private let secret: @Sendable (String) -> String?

    /// A dispatcher whose POSTs give up after `timeout`, reading each webhook's secret by the
    /// name of its environment variable with `secret` (the process's environment by default).
    public init(timeout: Duration, secret: @escaping @Sendable (String) -> String? = { ProcessInfo.processInfo.environment[$0] }) {
        sender = WebhookSender(timeout: timeout)
        self.timeout = timeout
        self.secret = secret
    }

    /// The wait before the next attempt after `attempts` failed ones (1 or more): 30 s, 1 min,
    /// 2 min, ... up to 2 hours: about 19 attempts in the 24 hours.
    public static func retryDelay(afterAttempts attempts: Int) -> TimeInterval {
        min(firstRetryDelay * pow(2, Double(max(attempts, 1) - 1)), longestRetryDelay)
    }

    /// What a round did.
    public struct Round: Sendable, Equatable {
        public var delivered: Int
        public var failed: Int
        public var dead: Int

        public init(delivered: Int = 0, failed: Int = 0, dead: Int = 0) {
            self.delivered = delivered
            self.failed = failed
            self.dead = dead
        }
    }

    /// Sends what is due at `now` in each of `tenants`.
    public func deliver(_ tenants: [Tenant], pool: PostgresPool, now: Date) async throws -> Round {
        var round = Round()
        for tenant in tenants {
            let settings = AccountContext.tenantOperator(tenantID: tenant.id).settings
            let lease = now.addingTimeInterval(Double(timeout.components.seconds) + 60)
            let due = try await pool.transaction(settings: settings) { tx in
                try await tx.query(WebhookStatements.claim, now, lease, Self.batchSize).map(DueDelivery.init(row:))
            }
            guard !due.isEmpty else { continue }
            let outcomes = await withTaskGroup(of: (DueDelivery, WebhookSender.Outcome).self) { group in
                for delivery in due {
                    group.addTask { (delivery, await send(delivery, at: now)) }
                }
                var outcomes: [(DueDelivery, WebhookSender.Outcome)] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            let attempts = outcomes.map { delivery, outcome in Attempt(delivery: delivery, outcome: outcome, at: now) }
            try await pool.transaction(settings: settings) { tx in
                for attempt in attempts {
                    try await tx.execute(
                        WebhookStatements.record, attempt.delivery.id, attempt.status.rawValue, now, attempt.outcome.statusCode,
                        attempt.outcome.error, attempt.next, attempt.status == .delivered ? now : nil)
                }
            }
            for attempt in attempts {
                switch attempt.status {
                case .delivered: round.delivered += 1
                case .dead: round.dead += 1
                case .failed, .pending: round.failed += 1
                }
            }
        }
        return round
    }

    /// One attempt of `delivery`, timestamped `now`.
    private func send(_ delivery: DueDelivery, at now: Date) async -> WebhookSender.Outcome {
        guard let value = secret(delivery.secretEnv), let signature = WebhookSignature(secret: value) else {
            return .init(statusCode: nil, error: "no usable secret in the environment variable \(delivery.secretEnv)")
        }
        let id = delivery.id.lowercased
        let timestamp = Int(now.timeIntervalSince1970)
        return await sender.post(
            delivery.body, to: delivery.url,
            headers: [
                "webhook-id": id, "webhook-timestamp": String(timestamp),
                "webhook-signature": signature.header(id: id, timestamp: timestamp, body: delivery.body),
            ])
    }
}

/// An attempt of a delivery and what follows from it.
struct Attempt: Sendable {
    var delivery: DueDelivery
    var outcome: WebhookSender.Outcome
    /// DELIVERED, FAILED (tried again at ``next``) or DEAD (the next try would be past the window).
    var status: WebhookDeliveryStatus
    var next: Date?

    init(delivery: DueDelivery, outcome: WebhookSender.Outcome, at now: Date) {
        self.delivery = delivery
        self.outcome = outcome
        let retry = now.addingTimeInterval(WebhookDispatch.retryDelay(afterAttempts: delivery.attempts + 1))
        if outcome.delivered {
            status = .delivered
            next = nil
        } else if retry > delivery.createdAt.addingTimeInterval(WebhookDispatch.retryWindow) {
            status = .dead
            next = nil
        } else {
            status = .failed
            next = retry
        }
    }
}

/// A delivery taken by ``WebhookStatements/claim``.
struct DueDelivery: Sendable {
    var id: UUID
    var event: String
    var url: String
    var secretEnv: String
    var body: String
    var attempts: Int
    var createdAt: Date

    init(row: PostgresRow) throws {
        id = try row.decode(UUID.self, at: 0)
        event = try row.decode(String.self, at: 1)
        url = try row.decode(String.self, at: 2)
        secretEnv = try row.decode(String.self, at: 3)
        body = try row.decode(String.self, at: 4)
        attempts = try row.decode(Int.self, at: 5)
        createdAt = try row.decode(Date.self, at: 6)
    }
}
