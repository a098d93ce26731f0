public import Hummingbird
import HummingbirdWebSocket
public import ServiceLifecycle
public import Logging
public import Storykeep

/// The HTTP server: routing, tenants, health, request logs.
///
/// Middleware, outermost first (the trace's with `tracing.enabled`, the metrics' with
/// `metrics.enabled`):
/// 0. ``RequestIDMiddleware``, the request id (`X-Request-Id`) of every response and log line;
///    then ``TraceContextMiddleware``, the request's trace (`traceparent` in, `traceresponse`
///    out, the trace id on every log line and GraphQL error);
/// 1. ``TenantMiddleware`` resolves the tenant, so that everything after it, the request log
///    included, knows it;
/// 2. ``RequestMetricsMiddleware``, requests counted and timed (``ServerMetrics``);
/// 3. ``RequestLogMiddleware``, one line per request;
/// 4. ``TenantCORSMiddleware``, the tenant's `cors.origins` (not on the OAuth token endpoints);
/// 5. ``RateLimitMiddleware``, the tenant's `rateLimits` by client address (`http.trustedProxies`);
/// 6. ``CredentialMiddleware``, the bearer token;
/// 7. ``BodyLimitMiddleware``.
///
/// Hummingbird's own `MetricsMiddleware` is not among them: its `hb_*` series counted and timed
/// each request again (by method and path) through three swift-metrics handlers made per request,
/// a cost ``RequestMetricsMiddleware``'s series make unnecessary.
///
/// Under each tenant's root, ``GraphQLSSEMiddleware`` and, with `explorer.enabled`, ``ExplorerMiddleware``.
///
/// Routes: ``HealthRoutes`` at `/health/...`; ``MetricsRoute`` at `/metrics`; each ``TenantEndpoint`` under `/t/<slug>/` and under
/// `/` (for requests on a tenant's own host). Any other path under `/t/<slug>/` answers 404 JSON,
/// "No such tenant." when the slug names none, so probing slugs tells nothing more.
public enum StorykeepApplication {
    /// What the application is made of; `storykeep serve` builds these from the configuration,
    /// tests from theirs.
    public struct Parts: Sendable {
        public var tenants: TenantCache
        public var readiness: [any ReadinessCheck]
        public var endpoints: [any TenantEndpoint]
        /// Work the server runs beside the requests (the archive's purge), started and stopped
        /// with it.
        public var services: [any Service]
        /// GraphQL over WebSocket and over Server-Sent Events at the tenants' GraphQL URLs; nil
        /// for neither.
        public var liveSocket: LiveSocketEndpoint?

        public init(
            tenants: TenantCache, readiness: [any ReadinessCheck], endpoints: [any TenantEndpoint], services: [any Service] = [],
            liveSocket: LiveSocketEndpoint? = nil
        ) {
            self.tenants = tenants
            self.readiness = readiness
            self.endpoints = endpoints
            self.services = services
            self.liveSocket = liveSocket
        }
    }

    /// The router alone, for in-process tests.
    public static func router(config: StorykeepConfig, parts: Parts) -> Router<StorykeepRequestContext> {
        let router = Router(context: StorykeepRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        if config.tracing.enabled { router.add(middleware: TraceContextMiddleware()) }
        router.add(middleware: TenantMiddleware(tenants: parts.tenants))
        if config.metrics.enabled { router.add(middleware: RequestMetricsMiddleware(metrics: .shared)) }
        router.add(middleware: RequestLogMiddleware())
        let tokenPaths = Set(parts.endpoints.compactMap { ($0 as? ClientCredentialsEndpoint)?.path })
        router.add(middleware: TenantCORSMiddleware(excludedPaths: tokenPaths))
        router.add(middleware: RateLimitMiddleware(buckets: TokenBuckets(), trustedProxies: config.http.trustedProxies, tokenPaths: tokenPaths))
        router.add(middleware: CredentialMiddleware())
        router.add(middleware: BodyLimitMiddleware(limit: config.http.bodyLimitBytes))

        HealthRoutes(checks: parts.readiness).register(on: router)
        if config.metrics.enabled { MetricsRoute(metrics: .shared, bearerToken: config.metrics.bearerToken).register(on: router) }

        let byPath = router.group("t/:tenant", context: TenantRequestContext.self)
        let byHost = router.group(context: TenantRequestContext.self)
        for root in [byPath, byHost] {
            if let live = parts.liveSocket { root.add(middleware: GraphQLSSEMiddleware(endpoint: live)) }
            if config.explorer.enabled { root.add(middleware: ExplorerMiddleware(config: config.explorer)) }
            for endpoint in parts.endpoints {
                endpoint.register(on: root)
            }
        }
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            byPath.on("**", method: method) { _, _ -> Response in
                throw HTTPError(.notFound, message: "No such route.")
            }
        }
        return router
    }

    /// The application `storykeep serve` runs: the router, WebSocket upgrades to GraphQL over
    /// WebSocket (``LiveSocketEndpoint``) when the parts have it, the tenant cache as a service, and
    /// graceful shutdown on SIGTERM and SIGINT (Hummingbird's `runService`): the server stops
    /// accepting, finishes the requests in flight, then the services stop.
    public static func make(
        config: StorykeepConfig,
        parts: Parts,
        logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let sockets = Router(context: LiveSocketContext.self)
        parts.liveSocket?.register(on: sockets, tenants: parts.tenants)
        let socketConfiguration = WebSocketServerConfiguration(maxFrameSize: parts.liveSocket?.limits.maxMessageBytes ?? 1 << 14)
        return Application(
            router: router(config: config, parts: parts),
            server: .http1WebSocketUpgrade(webSocketRouter: sockets, configuration: .init(ws: socketConfiguration)),
            configuration: ApplicationConfiguration(
                address: .hostname(config.http.host, port: config.http.port),
                serverName: "Storykeep"
            ),
            services: [parts.tenants] + parts.services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? config.http.port) },
            logger: logger
        )
    }
}
