import Instrumentation
import Synchronization
import Tracing
import W3CTraceContext

/// A real tracer, as an OpenTelemetry SDK is one: it propagates W3C Trace Context
/// (`traceparent`) and keeps the spans it ends in memory. It records only the traces a test
/// watches (the test's own `traceparent`); other traces are propagated but not recorded, so that
/// the rest of the test process, which shares the bootstrapped tracer, keeps nothing.
final class W3CTestTracer: Tracer {
    /// The process's tracer, bootstrapped on first use (swift-distributed-tracing allows one
    /// bootstrap per process).
    static let shared: W3CTestTracer = {
        let tracer = W3CTestTracer()
        InstrumentationSystem.bootstrap(tracer)
        return tracer
    }()

    /// A span as it ended.
    struct Finished: Sendable {
        var name: String
        var kind: SpanKind
        var traceID: TraceID
        var spanID: SpanID
        var parentSpanID: SpanID?
        var attributes: [String: String]
        var isError: Bool
        var errorDescriptions: [String]
    }

    private let watched = Mutex<Set<TraceID>>([])
    private let finished = Mutex<[Finished]>([])

    /// Records the spans of `trace` from now on.
    func watch(_ trace: TraceID) { watched.withLock { _ = $0.insert(trace) } }

    /// The ended spans of `trace`, in the order they ended.
    func spans(of trace: TraceID) -> [Finished] { finished.withLock { $0.filter { $0.traceID == trace } } }

    fileprivate func record(_ span: Finished) { finished.withLock { $0.append(span) } }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> TestSpan {
        var context = context()
        let parent = context.w3cTrace
        let trace = TraceContext(
            traceID: parent?.traceID ?? .random(), spanID: .random(), flags: parent?.flags ?? .sampled, state: parent?.state ?? TraceState())
        context.w3cTrace = trace
        let recording = watched.withLock { $0.contains(trace.traceID) }
        return TestSpan(name: operationName, kind: kind, context: context, parentSpanID: parent?.spanID, tracer: recording ? self : nil)
    }

    func forceFlush() {}

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        guard let header = extractor.extract(key: "traceparent", from: carrier),
            let trace = try? TraceContext(traceParentHeaderValue: header)
        else { return }
        context.w3cTrace = trace
    }

    func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let trace = context.w3cTrace else { return }
        injector.inject(trace.traceParentHeaderValue, forKey: "traceparent", into: &carrier)
    }
}

/// A span of ``W3CTestTracer``; it records only when its tracer watches its trace.
final class TestSpan: Span {
    let context: InstrumentationContext
    let kind: SpanKind
    let parentSpanID: SpanID?
    private let tracer: W3CTestTracer?
    private let state: Mutex<(name: String, attributes: SpanAttributes, isError: Bool, errors: [String], ended: Bool)>

    init(name: String, kind: SpanKind, context: InstrumentationContext, parentSpanID: SpanID?, tracer: W3CTestTracer?) {
        self.context = context
        self.kind = kind
        self.parentSpanID = parentSpanID
        self.tracer = tracer
        state = Mutex((name, [:], false, [], false))
    }

    var isRecording: Bool { tracer != nil }

    var operationName: String {
        get { state.withLock { $0.name } }
        set { state.withLock { $0.name = newValue } }
    }

    var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { $0.attributes = newValue } }
    }

    func setStatus(_ status: SpanStatus) {
        state.withLock { $0.isError = $0.isError || status.code == .error }
    }

    func addEvent(_ event: SpanEvent) {}

    func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {
        state.withLock { $0.errors.append("\(error)") }
    }

    func addLink(_ link: SpanLink) {}

    func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let now = state.withLock { state -> (String, SpanAttributes, Bool, [String])? in
            guard !state.ended else { return nil }
            state.ended = true
            return (state.name, state.attributes, state.isError, state.errors)
        }
        guard let tracer, let (name, attributes, isError, errors) = now, let trace = context.w3cTrace else { return }
        var values: [String: String] = [:]
        attributes.forEach { key, value in
            values[key] = switch value {
            case .string(let text): text
            case .int64(let number): String(number)
            default: "\(value)"
            }
        }
        tracer.record(
            W3CTestTracer.Finished(
                name: name, kind: kind, traceID: trace.traceID, spanID: trace.spanID, parentSpanID: parentSpanID,
                attributes: values, isError: isError, errorDescriptions: errors))
    }
}

private enum W3CTraceKey: InstrumentationContextKey {
    typealias Value = TraceContext
}

extension InstrumentationContext {
    /// The W3C trace context of the span this context belongs to.
    fileprivate var w3cTrace: TraceContext? {
        get { self[W3CTraceKey.self] }
        set { self[W3CTraceKey.self] = newValue }
    }
}
