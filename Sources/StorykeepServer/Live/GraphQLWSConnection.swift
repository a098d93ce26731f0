import Foundation
import GraphQL
import HummingbirdWebSocket
import Logging
import Storykeep
import StorykeepCore

/// One graphql-ws connection (subprotocol `graphql-transport-ws`) of a tenant's GraphQL URL.
///
/// `connection_init` carries the bearer token in its payload (`{"authorization": "Bearer …"}`,
/// as Apollo Client's `connectionParams` send it, or `{"token": "…"}`): without one the
/// connection is closed with 4401, with one that is no live session with 4403; then
/// `connection_ack`. Each `subscribe` runs its operation as that person: a subscription sends a
/// `next` per event they see (``LiveSubscription``), a query or mutation one `next`, then
/// `complete`; an operation refused before it ran (its document, variables, role) gets `error`.
/// A session that ends while connected (logout, password change, disabling) closes the
/// connection with 4403 at once: the listener's `sessionRevoked`/`personDisabled` event, and
/// the check of the session at each event. The other close codes are ``GraphQLWSClose``'s.
actor GraphQLWSConnection {
    let tenant: Tenant
    let graphQL: TenantGraphQL
    let links: TenantLinks
    let limits: LiveLimits
    let connections: LiveConnections
    let outbound: WebSocketOutboundWriter
    let logger: Logger

    private var initReceived = false
    /// The token and its person, once `connection_init` authenticated them.
    private var session: (token: SessionToken, viewer: Viewer)?
    /// The operations running, by the client's id.
    private var operations: [String: Task<Void, Never>] = [:]
    private var sessionWatch: Task<Void, Never>?
    private var closed = false
    private var lastActivity = ContinuousClock.now

    init(
        tenant: Tenant, graphQL: TenantGraphQL, links: TenantLinks, limits: LiveLimits, connections: LiveConnections,
        outbound: WebSocketOutboundWriter, logger: Logger
    ) {
        self.tenant = tenant
        self.graphQL = graphQL
        self.links = links
        self.limits = limits
        self.connections = connections
        self.outbound = outbound
        self.logger = logger
    }

    /// Serves the connection until it closes.
    func run(_ inbound: WebSocketInboundStream) async {
        let watchdog = Task { await self.watch() }
        do {
            for try await message in inbound.messages(maxSize: limits.maxMessageBytes) {
                lastActivity = .now
                guard case .text(let text) = message, let parsed = GraphQLWSMessage(text: text) else {
                    await close(.badMessage)
                    break
                }
                do {
                    try await handle(parsed)
                } catch let reason as GraphQLWSClose {
                    await close(reason)
                }
                if closed { break }
            }
        } catch {
            logger.debug("Live connection ended", metadata: ["error": "\(error)"])
        }
        watchdog.cancel()
        end()
    }

    private func handle(_ message: GraphQLWSMessage) async throws {
        switch message {
        case .connectionInit(let payload):
            guard !initReceived else { throw GraphQLWSClose.tooManyInits }
            initReceived = true
            try await authenticate(payload)
            try await send(GraphQLWSMessage.connectionAckText)
        case .ping:
            try await send(GraphQLWSMessage.pongText)
        case .pong:
            break
        case .subscribe(let id, let request):
            guard let session else { throw GraphQLWSClose.unauthorized }
            guard operations[id] == nil else { throw GraphQLWSClose.duplicate(id) }
            guard operations.count < limits.subscriptionsPerConnection else {
                var error = GraphQLError(message: "At most \(limits.subscriptionsPerConnection) operations may run at once on a connection.")
                error.extensions = ["code": .string("TOO_MANY_SUBSCRIPTIONS")]
                return try await send(GraphQLWSMessage.error(id: id, [error]))
            }
            try await start(id, request, token: session.token)
        case .complete(let id):
            operations.removeValue(forKey: id)?.cancel()
        }
    }

    /// `connection_init`: the token of its payload, which must be a live session of the tenant.
    private func authenticate(_ payload: GraphQLObject?) async throws {
        guard let presented = Self.presentedToken(payload) else { throw GraphQLWSClose.unauthorized }
        guard let token = SessionToken(presented: presented),
            let viewer = try? await graphQL.authenticated(token, tenant: tenant, { viewer, _ in viewer })
        else { throw GraphQLWSClose.forbidden }
        guard connections.admit(person: viewer.personID, tenant: tenant.id, limits: limits) else {
            throw GraphQLWSClose.tooManyConnections
        }
        session = (token, viewer)
        let ends = graphQL.services.live.stream(
            tenantID: tenant.id, kinds: [LiveEvent.sessionRevoked, LiveEvent.personDisabled]
        ) { $0.ends(session: viewer.sessionID, of: viewer.personID) }
        sessionWatch = Task {
            var iterator = ends.makeAsyncIterator()
            if (try? await iterator.next()) != nil { await self.close(.forbidden) }
        }
    }

    /// The token of a `connection_init` payload: `authorization` (or `Authorization`), with or
    /// without `Bearer `, or `token`.
    static func presentedToken(_ payload: GraphQLObject?) -> String? {
        guard let payload else { return nil }
        if let header = (payload["authorization"] ?? payload["Authorization"])?.stringValue {
            return header.lowercased().hasPrefix("bearer ") ? String(header.dropFirst("bearer ".count)) : header
        }
        return payload["token"]?.stringValue
    }

    /// Starts the operation `id`. A subscription is subscribed here, before the next message is
    /// read, so that a client's later messages find it listening.
    private func start(_ id: String, _ request: GraphQLRequest, token: SessionToken) async throws {
        guard graphQL.operationType(of: request, tenant: tenant) == .subscription else {
            operations[id] = Task { await self.answer(id, request, token: token) }
            return
        }
        switch await graphQL.subscribe(request, tenant: tenant, token: token, links: links) {
        case .failed(let response):
            try await send(GraphQLWSMessage.error(id: id, response.errors))
        case .subscribed(let subscription):
            operations[id] = Task { await self.deliver(id, subscription) }
        }
    }

    /// A query or mutation: its response, then `complete`; a request error as `error`.
    private func answer(_ id: String, _ request: GraphQLRequest, token: SessionToken) async {
        let outcome = await graphQL.execute(request, tenant: tenant, credential: .bearer(token), links: links)
        // Cancelled: the client completed it (or the connection closed), and its id may be reused.
        guard !Task.isCancelled else { return }
        guard case .response(let response) = outcome else { return await finish(id) }
        if response.isRequestError {
            operations[id] = nil
            try? await send(GraphQLWSMessage.error(id: id, response.errors))
        } else {
            try? await send(GraphQLWSMessage.next(id: id, response))
            await finish(id)
        }
    }

    /// A subscription's updates as `next`s, then `complete` when its events end.
    private func deliver(_ id: String, _ subscription: LiveSubscription) async {
        do {
            for try await update in subscription {
                switch update {
                case .response(let response): try await send(GraphQLWSMessage.next(id: id, response))
                case .sessionEnded: return await close(.forbidden)
                }
            }
            if !Task.isCancelled { await finish(id) }
        } catch is LiveEvents.SlowConsumer {
            await close(.slowConsumer)
        } catch {
            logger.warning("Live subscription failed", metadata: ["error": "\(error)"])
            if !Task.isCancelled { await finish(id) }
        }
    }

    /// The operation `id` is done: `complete`, unless the client completed it first.
    private func finish(_ id: String) async {
        guard operations.removeValue(forKey: id) != nil else { return }
        try? await send(GraphQLWSMessage.complete(id: id))
    }

    /// Closes the connection when `connection_init` does not come in time, or when nothing
    /// happens on it, with no operation running, for the idle timeout.
    private func watch() async {
        do { try await Task.sleep(for: limits.initTimeout) } catch { return }
        guard initReceived else { return await close(.initTimeout) }
        while !closed {
            if !operations.isEmpty { lastActivity = .now }
            let due = lastActivity + limits.idleTimeout
            if ContinuousClock.now >= due { return await close(.idle) }
            do { try await Task.sleep(until: due) } catch { return }
        }
    }

    private func send(_ text: String) async throws {
        guard !closed else { return }
        try await outbound.write(.text(text))
    }

    /// Closes the connection with `reason`'s code, stopping its operations.
    func close(_ reason: GraphQLWSClose) async {
        guard !closed else { return }
        end()
        // In a task of its own: `end` may just have cancelled this one (the session's watch, an
        // operation), and a cancelled task's writes fail.
        let outbound = self.outbound
        await Task { try? await outbound.close(.init(codeNumber: Int(reason.code)), reason: reason.reason) }.value
    }

    /// Stops the operations and the session's watch, and forgets the connection.
    private func end() {
        guard !closed else { return }
        closed = true
        for operation in operations.values { operation.cancel() }
        operations = [:]
        sessionWatch?.cancel()
        if let session { connections.release(person: session.viewer.personID, tenant: tenant.id) }
    }
}
