import GraphQL
import Hummingbird
import Metrics
import ServiceLifecycle
import Storykeep
import StorykeepCore

/// GraphQL over Server-Sent Events, the graphql-sse protocol's distinct connections mode, for
/// clients that cannot open a WebSocket: a `POST` to a tenant's GraphQL URL with
/// `Accept: text/event-stream` and the usual JSON body runs the operation as the request's
/// bearer token says, and answers with an event stream: `event: next` with each response (one
/// for a query or mutation, one per event the person sees for a subscription), then
/// `event: complete`. An operation refused before it ran is answered as JSON instead, with the
/// status graphql-sse gives it (400; 401 without a live session; 403 for a field not for the
/// person's role). A session that ends while the stream is open gets a last `next` with
/// UNAUTHENTICATED, then `complete`. The stream sends a comment every `keepAlive`, which also
/// finds a client that went away. Every other request goes on to GraphQL over HTTP.
struct GraphQLSSEMiddleware: RouterMiddleware {
    typealias Context = TenantRequestContext

    let endpoint: LiveSocketEndpoint
    var keepAlive = Duration.seconds(15)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post, request.uri.path.hasSuffix("/graphql"),
            request.headers[values: .accept].contains(where: { $0.contains("text/event-stream") })
        else { return try await next(request, context) }
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        guard let graphQLRequest = GraphQLWSMessage.request(try? GraphQLValue(json: body.readableBytesView)) else {
            return Self.refusal([GraphQLError.badUserInput(field: "query", "The body must be a JSON object with a `query` string.")])
        }
        guard case .bearer(let token) = context.credential else {
            return Self.refusal([GraphQLError.unauthenticated()])
        }
        let graphQL = endpoint.graphQL
        let tenant = context.tenant
        guard graphQL.operationType(of: graphQLRequest, tenant: tenant) == .subscription else {
            let outcome = await graphQL.execute(graphQLRequest, tenant: tenant, credential: context.credential, links: context.links)
            guard case .response(let response) = outcome, !response.isRequestError else {
                if case .response(let response) = outcome { return Self.refusal(response.errors) }
                return Self.refusal([GraphQLError.badUserInput(field: "query", "This operation cannot run here.")])
            }
            return Self.stream { sink in sink(Self.event("next", response.jsonBytes())) }
        }
        switch await graphQL.subscribe(graphQLRequest, tenant: tenant, token: token, links: context.links) {
        case .failed(let response):
            return Self.refusal(response.errors)
        case .subscribed(let subscription):
            let viewer = subscription.viewer
            guard endpoint.connections.admit(person: viewer.personID, tenant: tenant.id, limits: endpoint.limits) else {
                var error = GraphQLError(message: "Too many live connections.")
                error.extensions = ["code": .string("TOO_MANY_CONNECTIONS")]
                return Self.refusal([error], status: .tooManyRequests)
            }
            let ends = graphQL.services.live.stream(
                tenantID: tenant.id, kinds: [LiveEvent.sessionRevoked, LiveEvent.personDisabled]
            ) { $0.ends(session: viewer.sessionID, of: viewer.personID) }
            let (connections, keepAlive) = (endpoint.connections, keepAlive)
            return Self.stream { sink in
                defer { connections.release(person: viewer.personID, tenant: tenant.id) }
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        do {
                            for try await update in subscription {
                                guard case .response(let response) = update else { return sink(Self.sessionEnded) }
                                sink(Self.event("next", response.jsonBytes()))
                            }
                        } catch {}
                    }
                    group.addTask {
                        var iterator = ends.makeAsyncIterator()
                        if (try? await iterator.next()) != nil { sink(Self.sessionEnded) }
                    }
                    group.addTask {
                        while (try? await Task.sleep(for: keepAlive)) != nil { sink(Array(":\n\n".utf8)) }
                    }
                    // The first to end ends the stream.
                    await group.next()
                    group.cancelAll()
                }
            }
        }
    }

    /// An event of the stream.
    static func event(_ name: String, _ data: [UInt8]) -> [UInt8] {
        Array("event: \(name)\ndata: ".utf8) + data + Array("\n\n".utf8)
    }

    /// The last `next` of a stream whose session ended.
    static let sessionEnded = event(
        "next", GraphQLResponse(errors: [.unauthenticated("Your session has ended. Please log in again.")]).jsonBytes())

    /// A `text/event-stream` response of what `produce` gives its sink, then `complete`. When the
    /// client has gone, writing fails (at the latest at the next keep-alive) and `produce` is
    /// cancelled; so is it when the server shuts down. Open streams are counted in
    /// `storykeep_live_connections{transport="sse"}`.
    static func stream(_ produce: @escaping @Sendable (_ sink: @escaping @Sendable ([UInt8]) -> Void) async -> Void) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                let open = Meter(label: "storykeep_live_connections", dimensions: [("transport", "sse")])
                open.increment()
                defer { open.decrement() }
                let (chunks, sink) = AsyncStream<[UInt8]>.makeStream()
                let producer = Task {
                    await produce { sink.yield($0) }
                    sink.yield(Array("event: complete\ndata:\n\n".utf8))
                    sink.finish()
                }
                defer { producer.cancel() }
                // The server's shutdown ends the stream at once (its events would hold it open).
                try await withGracefulShutdownHandler {
                    for await chunk in chunks {
                        try await writer.write(ByteBuffer(bytes: chunk))
                    }
                } onGracefulShutdown: {
                    producer.cancel()
                }
                try await writer.finish(nil)
            })
    }

    /// An operation refused before it ran, as JSON, with graphql-sse's status for it.
    static func refusal(_ errors: [GraphQLError], status: HTTPResponse.Status? = nil) -> Response {
        let code = errors.first?.extensions?["code"]?.stringValue
        let status = status ?? (code == "UNAUTHENTICATED" ? .unauthorized : code == "FORBIDDEN" ? .forbidden : .badRequest)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: GraphQLResponse(errors: errors).jsonBytes())))
    }
}
