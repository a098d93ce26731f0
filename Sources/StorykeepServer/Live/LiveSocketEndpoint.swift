public import Hummingbird
public import HummingbirdWebSocket
import Metrics
public import Storykeep

/// The context of a WebSocket upgrade request.
public struct LiveSocketContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
    }
}

/// GraphQL over WebSocket (graphql-ws, subprotocol `graphql-transport-ws`) at each tenant's
/// GraphQL URL: `GET /t/<slug>/graphql` (and `/graphql` on a tenant's hosts) upgraded when the
/// client offers that subprotocol; any other GET there stays GraphQL over HTTP. Each connection
/// is a ``GraphQLWSConnection``, held to ``LiveLimits``, and counted while open in
/// `storykeep_live_connections{transport="websocket"}`.
public struct LiveSocketEndpoint: Sendable {
    public let graphQL: TenantGraphQL
    public let limits: LiveLimits
    let connections = LiveConnections()

    public init(graphQL: TenantGraphQL, limits: LiveLimits = LiveLimits()) {
        self.graphQL = graphQL
        self.limits = limits
    }

    func register(on router: Router<LiveSocketContext>, tenants: TenantCache) {
        for path in ["t/:tenant/graphql", "graphql"] {
            router.ws(RouterPath(path)) { request, _ in
                guard Self.offersSubprotocol(request), case .found = await TenantMiddleware.resolve(request, in: tenants) else {
                    return .dontUpgrade
                }
                return .upgrade([.secWebSocketProtocol: GraphQLWSMessage.subprotocol])
            } onUpgrade: { inbound, outbound, context in
                let request = context.request
                guard case .found(let tenant) = await TenantMiddleware.resolve(request, in: tenants) else { return }
                let root = TenantMiddleware.slug(inPath: request.uri.path) == nil ? "/" : "/t/\(tenant.slug)/"
                let connection = GraphQLWSConnection(
                    tenant: tenant, graphQL: graphQL, links: TenantLinks(root: root), limits: limits, connections: connections,
                    outbound: outbound, logger: context.logger)
                let open = Meter(label: "storykeep_live_connections", dimensions: [("transport", "websocket")])
                open.increment()
                defer { open.decrement() }
                await connection.run(inbound)
            }
        }
    }

    /// Whether the request's `Sec-WebSocket-Protocol` offers `graphql-transport-ws`.
    static func offersSubprotocol(_ request: Request) -> Bool {
        request.headers[values: .secWebSocketProtocol].contains { offered in
            offered.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == GraphQLWSMessage.subprotocol }
        }
    }
}
