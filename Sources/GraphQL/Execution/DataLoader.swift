import Synchronization

/// Batches the loads of sibling resolvers into one call: the tags of 20 entries become one
/// SQL statement, not 20.
///
/// Declare a loader once, next to the resolvers that use it (it holds no per-request state);
/// the executor keeps a queue per request, so keys and cached values never leak between
/// requests. A resolver returns the `Deferred` that `load` gives, instead of a value:
///
/// ```swift
/// let tagsOfEntry = DataLoader<UUID, [TagRow]> { entryIDs, context in
///     // One statement for every entry of this round; answer in the order of the keys.
///     let rows = try await (context as! RequestContext).db.tags(ofEntries: entryIDs)
///     let byEntry = Dictionary(grouping: rows, by: \.entryID)
///     return entryIDs.map { byEntry[$0] ?? [] }
/// }
/// schema.objectType("Entry").fields["tags"]?.resolve = .sync { entry, _, _, info in
///     tagsOfEntry.load((entry as! EntryRow).id, info)
/// }
/// ```
///
/// The executor completes every field it can before it waits (see `Deferred`): when the
/// `entries` list has been walked, each entry's `tags` resolver has queued its key, and the
/// batch function is called once with all of them. Loads queued while completing those tags
/// (e.g. each tag's owner) form the next round's batch, one per nesting level. Within a
/// request, a key is loaded once: later loads of it are answered from the queue.
///
/// Return loads; do not wait for them inside an async resolver (they are dispatched only once
/// the round's synchronous work is done). To use a loaded value, `map` it.
public final class DataLoader<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Loads the values of `keys` (distinct, in the order first asked for), returning one value
    /// per key in the same order. A thrown error fails every load of the batch.
    public typealias BatchFunction = @Sendable (_ keys: [Key], _ context: any Sendable) async throws -> [Value]

    let batch: BatchFunction

    public init(_ batch: @escaping BatchFunction) {
        self.batch = batch
    }

    /// The value of `key`, loaded in this request's next batch (or at once if this request
    /// has loaded it already).
    public func load(_ key: Key, _ info: ResolveInfo) -> Deferred {
        info.execution.loadQueue(for: self).load(key)
    }

    /// The values of `keys`, as a list in the same order, loaded in the same batch.
    public func loadMany(_ keys: [Key], _ info: ResolveInfo) -> Deferred {
        info.execution.loadQueue(for: self).loadMany(keys)
    }
}

/// The keys queued for one loader in one request, and the values loaded so far.
protocol LoadQueue: AnyObject, Sendable {
    var hasQueuedKeys: Bool { get }
    func result(at slot: Int) -> Result<(any Sendable)?, any Error>?
    func results(at slots: [Int]) -> Result<(any Sendable)?, any Error>?
    /// Calls the batch function once with every key queued since the last dispatch.
    func dispatch(context: any Sendable) async
}

final class TypedLoadQueue<Key: Hashable & Sendable, Value: Sendable>: LoadQueue {
    private struct State {
        var keys: [Key] = []
        var slots: [Key: Int] = [:]
        var results: [Result<(any Sendable)?, any Error>?] = []
        var dispatched = 0
    }

    let loader: DataLoader<Key, Value>
    private let state = Mutex(State())

    init(loader: DataLoader<Key, Value>) {
        self.loader = loader
    }

    private func slot(for key: Key, in state: inout State) -> Int {
        if let slot = state.slots[key] { return slot }
        let slot = state.keys.count
        state.keys.append(key)
        state.slots[key] = slot
        state.results.append(nil)
        return slot
    }

    func load(_ key: Key) -> Deferred {
        state.withLock { state in
            let slot = slot(for: key, in: &state)
            if let result = state.results[slot] { return Deferred(origin: .ready(result)) }
            return Deferred(origin: .load(self, slot))
        }
    }

    func loadMany(_ keys: [Key]) -> Deferred {
        state.withLock { state in
            let slots = keys.map { slot(for: $0, in: &state) }
            return Deferred(origin: .loadMany(self, slots))
        }
    }

    var hasQueuedKeys: Bool { state.withLock { $0.dispatched < $0.keys.count } }

    func result(at slot: Int) -> Result<(any Sendable)?, any Error>? {
        state.withLock { $0.results[slot] }
    }

    func results(at slots: [Int]) -> Result<(any Sendable)?, any Error>? {
        state.withLock { state in
            var values: [any Sendable] = []
            values.reserveCapacity(slots.count)
            for slot in slots {
                switch state.results[slot] {
                case nil: return nil
                case .failure(let error)?: return .failure(error)
                case .success(let value)?: values.append(value ?? GraphQLValue.null)
                }
            }
            return .success(values)
        }
    }

    func dispatch(context: any Sendable) async {
        let (start, keys) = state.withLock { state in
            let start = state.dispatched
            state.dispatched = state.keys.count
            return (start, Array(state.keys[start...]))
        }
        guard !keys.isEmpty else { return }
        let outcome: [Result<(any Sendable)?, any Error>]
        do {
            let values = try await loader.batch(keys, context)
            if values.count == keys.count {
                outcome = values.map { .success(unwrapOptional($0)) }
            } else {
                let error = GraphQLError(
                    message: "The batch function of a DataLoader returned \(values.count) values for \(keys.count) keys.")
                outcome = Array(repeating: .failure(error), count: keys.count)
            }
        } catch {
            outcome = Array(repeating: .failure(error), count: keys.count)
        }
        state.withLock { state in
            for (offset, result) in outcome.enumerated() { state.results[start + offset] = result }
        }
    }
}

/// A value as the executor sees it: an `Optional` that a generic `Value` hides is unwrapped,
/// so that a loader of `User?` that found no user gives null.
func unwrapOptional<T: Sendable>(_ value: T) -> (any Sendable)? {
    guard let optional = value as? any OptionalValue else { return value }
    guard let wrapped = optional.wrapped else { return nil }
    return unwrapOptional(sendable(wrapped))
}

/// An element of a `Sendable` container as `Sendable` (the container's being `Sendable` is what
/// makes the element so). `Sendable` is a marker protocol that no run-time check can refute, so the
/// cast always succeeds; it is made through a type parameter because the compiler warns of a cast
/// from `Any` to `any Sendable` written out that it always succeeds, yet refuses `as`.
func sendable(_ value: Any) -> any Sendable {
    forceCast(value, to: (any Sendable).self)
}

private func forceCast<T>(_ value: Any, to type: T.Type) -> T {
    value as! T
}

protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    var wrapped: Any? { self.map { $0 } }
}
