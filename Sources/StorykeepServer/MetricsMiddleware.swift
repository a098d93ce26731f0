public import Hummingbird
import Synchronization

/// What a request's handlers tell its metrics: that it ran a GraphQL operation, and the name
/// the client gave it; and where they record the rest (``metrics``). Bound for the request's
/// task by ``RequestMetricsMiddleware``: without metrics there is none, and nothing is recorded.
public final class RequestObservation: Sendable {
    @TaskLocal public static var current: RequestObservation?

    /// Where the request's GraphQL metrics go.
    let metrics: ServerMetrics

    init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    /// nil until a GraphQL operation is seen; then its name, if it has one.
    private let operation = Mutex<String??>(nil)

    /// Notes the GraphQL operation the request runs, named `name` by the client or not.
    public func ranOperation(named name: String?) {
        operation.withLock { $0 = .some(name) }
    }

    /// nil for a request that ran no GraphQL operation, else the operation's name if it has one.
    var operationName: String?? { operation.withLock { $0 } }

    /// The operation's name for the request log: a GraphQL name of at most 64 characters, or
    /// nil (none, or one that could forge or flood a log line).
    var loggedName: String? {
        guard case .some(.some(let name)) = operationName, ServerMetrics.isPlainName(name) else { return nil }
        return name
    }
}

/// Counts each tenant request and times it, by tenant, operation name (a GraphQL operation's,
/// `none` for other endpoints; bounded, see ``ServerMetrics/operationLabel(_:tenant:)``) and
/// status: `storykeep_http_requests_total` and `storykeep_http_request_duration_seconds`.
/// Requests that name no tenant (health checks, `/metrics`) are counted as tenant `none`.
public struct RequestMetricsMiddleware: RouterMiddleware {
    public typealias Context = StorykeepRequestContext

    let metrics: ServerMetrics

    public init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let observation = RequestObservation(metrics: metrics)
        let tenant = if case .found(let tenant) = context.tenant { tenant.slug } else { "none" }
        do {
            let response = try await RequestObservation.$current.withValue(observation) { try await next(request, context) }
            record(tenant: tenant, operation: observation.operationName, status: response.status.code, since: start)
            return response
        } catch {
            record(tenant: tenant, operation: observation.operationName, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start)
            throw error
        }
    }

    /// `operation` is nil for a request that was no GraphQL operation.
    private func record(tenant: String, operation: String??, status: Int, since start: ContinuousClock.Instant) {
        let label = operation.map { metrics.operationLabel($0, tenant: tenant) } ?? "none"
        let labels = [("tenant", tenant), ("operation", label), ("status", String(status))]
        metrics.counter("storykeep_http_requests_total", labels).increment()
        metrics.histogram("storykeep_http_request_duration_seconds", labels).record(start.duration(to: .now))
    }
}
