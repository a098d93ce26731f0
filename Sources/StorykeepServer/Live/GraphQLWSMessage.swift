import GraphQL

/// The messages of the graphql-ws protocol (subprotocol `graphql-transport-ws`), as JSON text
/// frames: `{"type": ..., "id": ..., "payload": ...}`.
enum GraphQLWSMessage: Equatable {
    case connectionInit(payload: GraphQLObject?)
    case ping(payload: GraphQLValue?)
    case pong
    case subscribe(id: String, request: GraphQLRequest)
    case complete(id: String)

    /// The WebSocket subprotocol.
    static let subprotocol = "graphql-transport-ws"

    /// A client's message, or nil for text that is none (the connection is then closed with
    /// ``GraphQLWSClose/badMessage``).
    init?(text: String) {
        guard let message = try? GraphQLValue(json: text), let type = message["type"]?.stringValue else { return nil }
        let payload = message["payload"]
        switch type {
        case "connection_init":
            guard payload == nil || payload == .null || payload?.objectValue != nil else { return nil }
            self = .connectionInit(payload: payload?.objectValue)
        case "ping": self = .ping(payload: payload)
        case "pong": self = .pong
        case "subscribe":
            guard let id = message["id"]?.stringValue, !id.isEmpty, let request = Self.request(payload) else { return nil }
            self = .subscribe(id: id, request: request)
        case "complete":
            guard let id = message["id"]?.stringValue else { return nil }
            self = .complete(id: id)
        default: return nil
        }
    }

    /// The request of a JSON object `{"query", "variables", "operationName", "extensions"}` (a
    /// `subscribe` payload, a graphql-sse body); nil when it is none.
    static func request(_ payload: GraphQLValue?) -> GraphQLRequest? {
        guard let query = payload?["query"]?.stringValue else { return nil }
        let variables = payload?["variables"]
        let operationName = payload?["operationName"]
        let extensions = payload?["extensions"]
        guard variables == nil || variables == .null || variables?.objectValue != nil,
            operationName == nil || operationName == .null || operationName?.stringValue != nil,
            extensions == nil || extensions == .null || extensions?.objectValue != nil
        else { return nil }
        return GraphQLRequest(
            query: query, operationName: operationName?.stringValue, variables: variables?.objectValue, extensions: extensions?.objectValue)
    }

    /// `connection_ack`.
    static let connectionAckText = #"{"type":"connection_ack"}"#
    /// `pong`.
    static let pongText = #"{"type":"pong"}"#

    /// `next`: a response of the operation `id`.
    static func next(id: String, _ response: GraphQLResponse) -> String {
        var out: [UInt8] = []
        out.append(contentsOf: #"{"id":"#.utf8)
        GraphQLValue.string(id).writeJSON(to: &out)
        out.append(contentsOf: #","type":"next","payload":"#.utf8)
        out.append(contentsOf: response.jsonBytes())
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `error`: the operation `id` failed before it ran (its document, its variables, who asks).
    static func error(id: String, _ errors: [GraphQLError]) -> String {
        json(["id": .string(id), "type": .string("error"), "payload": .list(errors.map(\.jsonValue))])
    }

    /// `complete`: the operation `id` has nothing more to send.
    static func complete(id: String) -> String {
        json(["id": .string(id), "type": .string("complete")])
    }

    private static func json(_ object: GraphQLObject) -> String {
        var out: [UInt8] = []
        GraphQLValue.object(object).writeJSON(to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// Why the server closes a graphql-ws connection: the protocol's close codes, and the WebSocket
/// ones for the server's limits.
struct GraphQLWSClose: Error, Equatable {
    var code: UInt16
    var reason: String

    /// A message that is no graphql-ws message.
    static let badMessage = GraphQLWSClose(code: 4400, reason: "Invalid message received")
    /// `subscribe` before `connection_ack`, or `connection_init` without a token.
    static let unauthorized = GraphQLWSClose(code: 4401, reason: "Unauthorized")
    /// A token that is no live session, or a session that ended while connected.
    static let forbidden = GraphQLWSClose(code: 4403, reason: "Forbidden")
    /// No `connection_init` in time.
    static let initTimeout = GraphQLWSClose(code: 4408, reason: "Connection initialisation timeout")
    /// A second `connection_init`.
    static let tooManyInits = GraphQLWSClose(code: 4429, reason: "Too many initialisation requests")
    /// More connections than the person or the agency may have at once.
    static let tooManyConnections = GraphQLWSClose(code: 4429, reason: "Too many connections")
    /// Nothing happened on the connection for the idle timeout.
    static let idle = GraphQLWSClose(code: 1000, reason: "Idle")
    /// The client did not read its events: the server does not keep them for it without bound.
    static let slowConsumer = GraphQLWSClose(code: 1008, reason: "Events were not read in time")

    /// `subscribe` with the id of an operation still running.
    static func duplicate(_ id: String) -> GraphQLWSClose {
        GraphQLWSClose(code: 4409, reason: "Subscriber for \(id) already exists")
    }
}
