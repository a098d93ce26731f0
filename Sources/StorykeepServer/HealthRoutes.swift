public import Hummingbird
import Logging

/// Something the server needs before it can take traffic.
public protocol ReadinessCheck: Sendable {
    /// Returns nil when ready, else a short reason (no secrets: it is shown to anyone).
    func problem() async -> String?
}

/// The two health endpoints, for an orchestrator or a load balancer.
///
/// - `GET /health/live`: 200 while the process runs and serves HTTP.
/// - `GET /health/ready`: 200 when every check passes, else 503 with the first problem: a replica
///   whose database is unreachable or behind on migrations takes no traffic.
public struct HealthRoutes<Context: RequestContext>: Sendable {
    let checks: [any ReadinessCheck]

    public init(checks: [any ReadinessCheck]) {
        self.checks = checks
    }

    struct Status: ResponseEncodable {
        var status: String
        var problem: String?
    }

    public func register(on router: Router<Context>) {
        router.get("/health/live") { _, _ in
            EditedResponse(status: .ok, response: Status(status: "live"))
        }
        router.get("/health/ready") { _, context in
            if let problem = await firstProblem() {
                context.logger.warning("Not ready", metadata: ["problem": .string(problem)])
                return EditedResponse(status: .serviceUnavailable, response: Status(status: "unavailable", problem: problem))
            }
            return EditedResponse(status: .ok, response: Status(status: "ready"))
        }
    }

    /// Runs the checks in turn. Each is bounded by its own means (a database check by the
    /// pool's acquire timeout and libpq's `connect_timeout`).
    private func firstProblem() async -> String? {
        for check in checks {
            if let problem = await check.problem() { return problem }
        }
        return nil
    }
}
