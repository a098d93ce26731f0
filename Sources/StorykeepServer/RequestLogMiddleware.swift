public import Hummingbird
import Foundation
import Logging

/// Logs one line per request when its response has been written: method, path, status and
/// duration (and the GraphQL operation's name, as ``ServerMetrics`` bounds it), with the context logger's metadata — Hummingbird's request id (`hb.request.id`)
/// and the tenant (`tenant`, from ``TenantMiddleware``).
///
/// Hummingbird's `LogRequestsMiddleware` logs when a request arrives, before its status and
/// duration are known, so it cannot write this line. Nothing that may carry a secret is logged:
/// no query string (tokens), no header (Authorization, cookies), no body (passwords, entries).
public struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    public init(level: Logger.Level = .info) {
        self.level = level
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let observation = RequestObservation.current
        do {
            var response = try await next(request, context)
            let status = response.status
            let body = response.body
            // Log once the body has been written (or failed to be): the duration includes it.
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer { log(request, status: status, since: start, operation: observation, logger: context.logger) }
                try await body.write(writer)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            log(request, status: status, since: start, operation: observation, logger: context.logger)
            throw error
        }
    }

    private func log(
        _ request: Request, status: HTTPResponse.Status, since start: ContinuousClock.Instant, operation: RequestObservation?, logger: Logger
    ) {
        let elapsed = start.duration(to: .now)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.log(
            level: level,
            "\(request.method) \(request.uri.path) \(status.code)",
            metadata: [
                "http.status": .stringConvertible(status.code),
                "duration_ms": .string(String(format: "%.2f", milliseconds)),
            ].merging(operation?.loggedName.map { ["operation": .string($0)] } ?? [:]) { $1 }
        )
    }
}
