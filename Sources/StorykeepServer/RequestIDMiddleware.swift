public import Hummingbird
public import Logging

/// What every log line of a request carries, whichever logger writes it: the request id
/// (`hb.request.id`) and, once ``TenantMiddleware`` knows it, the tenant (`tenant`).
///
/// The middleware bind it for the request's task; ``provider``, given to
/// `LoggingSystem.bootstrap` (`storykeep serve` does), adds it to every line logged in that task,
/// so the domain's own loggers (a resolver's error, a statement timeout) say which request and
/// tenant they were about, as the request log line does.
public enum RequestLogMetadata {
    @TaskLocal public static var current: Logger.Metadata = [:]

    /// The metadata of the request being handled, if any.
    public static let provider = Logger.MetadataProvider { current }

    /// Runs `body` with `metadata` added to the request's.
    static func adding<T>(_ metadata: Logger.Metadata, _ body: () async throws -> T) async rethrows -> T {
        try await $current.withValue(current.merging(metadata) { $1 }, operation: body)
    }
}

/// Gives each request its id: a valid incoming `X-Request-Id` (a proxy's or a client's, so that
/// their logs and ours meet), else Hummingbird's own. The id goes into the context's logger
/// (`hb.request.id`), into ``RequestLogMetadata`` for every other logger, and back to the client
/// as `X-Request-Id` on every response, an error's included.
///
/// A valid id is a token of 1 to 128 characters from `A-Z a-z 0-9 - _ . : / + =` (what UUIDs,
/// W3C trace ids, AWS's and Heroku's request ids use): anything else (spaces, quotes, control
/// characters, a kilobyte) could forge or flood log lines, and is replaced.
public struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    public static var header: HTTPFields.Element.Name { HTTPFields.Element.Name("X-Request-Id")! }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let id = request.headers[Self.header].flatMap { Self.isValid($0) ? $0 : nil } ?? context.id
        context.logger[metadataKey: Self.metadataKey] = .string(id)
        var response: Response
        do {
            response = try await RequestLogMetadata.adding([Self.metadataKey: .string(id)]) { try await next(request, context) }
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[Self.header] = id
        return response
    }

    /// The key of the request id in the request's logger metadata (Hummingbird's own key).
    static var metadataKey: String { "hb.request.id" }

    /// A bounded token of printable characters that cannot break a log line.
    static func isValid(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
                case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "="): true
                default: false
                }
            }
    }
}

extension RequestContext {
    /// The request's id as ``RequestIDMiddleware`` chose it and answers it in `X-Request-Id`
    /// (kept in the context's logger metadata); Hummingbird's own id where the middleware did not run.
    public var requestID: String {
        if case .string(let id) = logger[metadataKey: RequestIDMiddleware<Self>.metadataKey] { return id }
        return id
    }
}
