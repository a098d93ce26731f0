import HTTPTypes
public import Hummingbird
import Instrumentation
import Logging
import Tracing
import W3CTraceContext

/// W3C Trace Context for every request: the request runs in a server span of
/// swift-distributed-tracing's bootstrapped tracer, continuing the trace of a valid incoming
/// `traceparent` (and its `tracestate`), else starting a new one; a malformed `traceparent` is
/// ignored, as the W3C recommendation says, never refused.
///
/// The request's trace id goes on every log line of the request (`trace_id`, `traceId` in JSON
/// logs; ``RequestLogMetadata``), into the `extensions.traceId` of its GraphQL errors, and back
/// to the client in a `traceresponse` header (W3C Trace Context Level 2:
/// `00-<trace id>-<the server span's id>-<flags>`), which a client can quote as it quotes
/// `X-Request-Id`. The server does not answer `traceparent`: that header describes the caller of
/// a request, not its callee.
///
/// Which trace id: the tracer's, when a tracer that propagates W3C Trace Context is bootstrapped
/// (an OpenTelemetry SDK; README "Tracing"), so that logs and spans meet; without one, the
/// incoming trace id or a random new one, so that a client's trace and our logs meet even when
/// no spans are exported. Spans record the method, route and status, never the query string
/// (tokens ride there) nor a header.
public struct TraceContextMiddleware<Context: RequestContext>: RouterMiddleware {
    static var traceParent: HTTPField.Name { HTTPField.Name("traceparent")! }
    static var traceState: HTTPField.Name { HTTPField.Name("tracestate")! }
    static var traceResponse: HTTPField.Name { HTTPField.Name("traceresponse")! }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = InstrumentationContext.topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HeaderExtractor())
        let span = startSpan(request.method.rawValue, context: parent, ofKind: .server)
        let trace = Self.trace(of: span, incoming: Self.incoming(request.headers))
        let traceID = trace.traceID.description
        var context = context
        context.logger[metadataKey: Self.metadataKey] = .string(traceID)
        var response: Response
        do {
            response = try await InstrumentationContext.$current.withValue(span.context) {
                try await RequestLogMetadata.adding([Self.metadataKey: .string(traceID)]) { try await next(request, context) }
            }
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            span.setStatus(SpanStatus(code: .error))
            span.end()
            throw error
        }
        if span.isRecording {
            if let route = context.endpointPath { span.operationName = "\(request.method.rawValue) \(route)" }
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["http.route"] = context.endpointPath
            span.attributes["http.response.status_code"] = Int(response.status.code)
            if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
        }
        response.headers[Self.traceResponse] = trace.traceParentHeaderValue
        guard span.isRecording else {
            // Nothing records it (no tracer is bootstrapped): no need to wait for the body.
            span.end()
            return response
        }
        let body = response.body
        // The span ends once the body has been written, as the request log's duration does.
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            defer { span.end() }
            try await body.write(writer)
        }
        return response
    }

    /// The key of the trace id in the request's logger metadata and ``RequestLogMetadata``.
    static var metadataKey: String { "trace_id" }

    /// The request's valid `traceparent` (with its `tracestate` when that parses too), or nil.
    static func incoming(_ headers: HTTPFields) -> TraceContext? {
        guard let parent = headers[traceParent] else { return nil }
        let state = headers[values: traceState].joined(separator: ",")
        return (try? TraceContext(traceParentHeaderValue: parent, traceStateHeaderValue: state))
            ?? (try? TraceContext(traceParentHeaderValue: parent))
    }

    /// The trace the request's span is in: what the tracer propagates for it, when it speaks W3C
    /// Trace Context; else the incoming trace, or a new one, with a span id of our own (not sampled:
    /// nothing records it).
    static func trace(of span: any Span, incoming: TraceContext?) -> TraceContext {
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(span.context, into: &carrier, using: DictionaryInjector())
        if let propagated = carrier["traceparent"].flatMap({ try? TraceContext(traceParentHeaderValue: $0) }) { return propagated }
        return TraceContext(traceID: incoming?.traceID ?? .random(), spanID: .random(), flags: [], state: TraceState())
    }

    private struct HeaderExtractor: Extractor {
        func extract(key: String, from headers: HTTPFields) -> String? {
            HTTPField.Name(key).flatMap { headers[$0] }
        }
    }

    private struct DictionaryInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
            carrier[key.lowercased()] = value
        }
    }
}

extension RequestContext {
    /// The request's trace id (32 lowercase hexadecimal digits) as ``TraceContextMiddleware``
    /// chose it; nil where the middleware did not run.
    public var traceID: String? {
        if case .string(let id) = logger[metadataKey: TraceContextMiddleware<Self>.metadataKey] { return id }
        return nil
    }
}
