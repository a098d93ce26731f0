import CoreMetrics
import Synchronization

/// A swift-metrics backend that keeps the handlers another backend makes, by label and
/// dimensions, and hands the same one out again: `Counter(label:dimensions:)`,
/// `Timer(label:)`, `Meter(label:)` at each use (the pool's, Argon2's, the jobs') then cost a
/// dictionary lookup, not swift-prometheus's name sanitising and registry lookup under its lock.
/// The registry returns the one metric per name and labels either way, so what is counted is
/// the same. A destroyed handler is forgotten and destroyed by the backend.
final class KeptHandlersFactory: MetricsFactory {
    let backend: any MetricsFactory

    private struct Key: Hashable {
        /// Which make function: counter, floating-point counter, meter, aggregating recorder, recorder, timer.
        var kind: Int
        var label: String
        var dimensions: [String]

        init(_ kind: Int, _ label: String, _ dimensions: [(String, String)]) {
            self.kind = kind
            self.label = label
            self.dimensions = dimensions.flatMap { [$0.0, $0.1] }
        }
    }

    /// The handlers made (every swift-metrics handler is a class).
    private let kept = Mutex<[Key: AnyObject]>([:])

    init(backend: any MetricsFactory) {
        self.backend = backend
    }

    private func handler<Handler: Sendable>(_ key: Key, make: () -> Handler) -> Handler {
        kept.withLock { kept in
            if let handler = kept[key] as? Handler { return handler }
            let handler = make()
            kept[key] = handler as AnyObject
            return handler
        }
    }

    private func forget(_ handler: AnyObject) {
        let id = ObjectIdentifier(handler)
        kept.withLock { kept in
            for (key, value) in kept where ObjectIdentifier(value) == id { kept[key] = nil }
        }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        handler(Key(0, label, dimensions)) { backend.makeCounter(label: label, dimensions: dimensions) }
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        handler(Key(1, label, dimensions)) { backend.makeFloatingPointCounter(label: label, dimensions: dimensions) }
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        handler(Key(2, label, dimensions)) { backend.makeMeter(label: label, dimensions: dimensions) }
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        handler(Key(aggregate ? 3 : 4, label, dimensions)) { backend.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate) }
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        handler(Key(5, label, dimensions)) { backend.makeTimer(label: label, dimensions: dimensions) }
    }

    func destroyCounter(_ handler: any CounterHandler) {
        forget(handler)
        backend.destroyCounter(handler)
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        forget(handler)
        backend.destroyFloatingPointCounter(handler)
    }

    func destroyMeter(_ handler: any MeterHandler) {
        forget(handler)
        backend.destroyMeter(handler)
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        forget(handler)
        backend.destroyRecorder(handler)
    }

    func destroyTimer(_ handler: any TimerHandler) {
        forget(handler)
        backend.destroyTimer(handler)
    }
}
