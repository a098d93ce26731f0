/// A field value that is not known yet: a `DataLoader` load waiting for its batch, or async
/// work. A resolver returns one in place of the value.
///
/// The executor never suspends for a single field. It runs in rounds: a synchronous pass over
/// everything that can be completed now (every plain read, at every depth), then one round of
/// waiting in which each `DataLoader` with queued keys makes ONE call to its batch function and
/// the async work of all pending fields runs concurrently; then the results are completed in
/// the order the fields were met (which may queue the next round's loads), and so on. Siblings'
/// loads therefore always land in the same batch, with no timers and no task per item.
public final class Deferred: Sendable {
    enum Origin: Sendable {
        /// Resolved already (a load of a key loaded in an earlier round, or a failure).
        case ready(Result<(any Sendable)?, any Error>)
        /// One key's slot in a request's load queue.
        case load(LoadQueue, Int)
        /// Several keys' slots: the value is the list of their values.
        case loadMany(LoadQueue, [Int])
        /// Async work, run in the next round.
        case work(@Sendable () async throws -> (any Sendable)?)
    }

    typealias Transform = @Sendable ((any Sendable)?) throws -> (any Sendable)?

    let origin: Origin
    let transforms: [Transform]

    init(origin: Origin, transforms: [Transform] = []) {
        self.origin = origin
        self.transforms = transforms
    }

    /// Async work whose value becomes the field's value. Prefer a `DataLoader` when siblings
    /// would each do the same kind of work (one query per item).
    public convenience init(_ work: @escaping @Sendable () async throws -> (any Sendable)?) {
        self.init(origin: .work(work))
    }

    /// A value known at once (useful where a code path must return a `Deferred`).
    public convenience init(value: (any Sendable)?) {
        self.init(origin: .ready(.success(value)))
    }

    /// The same value, transformed once known; the transform may return another `Deferred`
    /// (e.g. load a row, then load its owner), which waits for a later round.
    public func map(_ transform: @escaping @Sendable ((any Sendable)?) throws -> (any Sendable)?) -> Deferred {
        Deferred(origin: origin, transforms: transforms + [transform])
    }

    /// The value if it is known without waiting; nil while it is not.
    var readyResult: Result<(any Sendable)?, any Error>? {
        switch origin {
        case .ready(let result): result
        case .load(let queue, let slot): queue.result(at: slot)
        case .loadMany(let queue, let slots): queue.results(at: slots)
        case .work: nil
        }
    }

    /// The value with the transforms applied; a transform that returns a `Deferred` gives one
    /// that carries the remaining transforms.
    func finish(_ result: Result<(any Sendable)?, any Error>) throws -> (any Sendable)? {
        var value = try result.get()
        for (index, transform) in transforms.enumerated() {
            if let next = value as? Deferred {
                return Deferred(origin: next.origin, transforms: next.transforms + transforms[index...])
            }
            value = try transform(value)
        }
        return value
    }
}
