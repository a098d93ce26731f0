import Foundation
import HTTPTypes
public import Hummingbird
import Storykeep
import StorykeepCore

/// `GET /metrics`: ``ServerMetrics`` in Prometheus's text format, on the API's port, for a
/// scraper on the same machine (a loopback peer that no proxy forwarded for) or one that presents
/// `Authorization: Bearer <metrics.bearerToken>`. Anyone else gets 404, as for a path that does
/// not exist: the metrics name the tenants.
public struct MetricsRoute: Sendable {
    let metrics: ServerMetrics
    /// `metrics.bearerToken`; nil for loopback scrapers only.
    let bearerToken: String?

    public init(metrics: ServerMetrics, bearerToken: String?) {
        self.metrics = metrics
        self.bearerToken = bearerToken
    }

    public func register(on router: Router<StorykeepRequestContext>) {
        router.get("metrics") { request, context -> Response in
            guard isAllowed(request, context: context) else { throw HTTPError(.notFound, message: "No such route.") }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.text())))
        }
    }

    func isAllowed(_ request: Request, context: StorykeepRequestContext) -> Bool {
        if let bearerToken, let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
            return Crypto.constantTimeEquals(Array(header.utf8.dropFirst(7)), Array(bearerToken.utf8))
        }
        let forwarded = request.headers[HTTPField.Name("Forwarded")!] != nil || request.headers[HTTPField.Name("X-Forwarded-For")!] != nil
        return !forwarded && context.peerAddress.map(Self.isLoopback) == true
    }

    static func isLoopback(_ address: String) -> Bool {
        [CIDR("127.0.0.0/8")!, CIDR("::1/128")!].contains { $0.contains(address) }
    }
}
