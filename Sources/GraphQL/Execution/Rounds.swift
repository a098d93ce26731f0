/// The rounds of an execution: after the synchronous pass, the fields that returned a
/// `Deferred` wait together. Each round makes one batch call per `DataLoader` with queued keys
/// and runs the pending async work, concurrently; then completes the waiting fields in the order
/// they were met and writes their values into the response. Completing them may leave new
/// fields waiting: the next round takes them, until none is left.

/// A position of the response waiting for a `Deferred`.
struct Pending {
    let deferred: Deferred
    let completion: Completion
    let field: FieldPlan
    let path: [PathEntry]
    let nullableDepth: Int
}

extension ExecutionContext {
    /// Completes a `Deferred` now if its value is known, or leaves its position null and queues it.
    func wait(for deferred: Deferred, _ completion: Completion, _ field: FieldPlan) throws -> GraphQLValue {
        if let result = deferred.readyResult {
            return try complete(completion, try deferred.finish(result), field)
        }
        pending.append(
            Pending(deferred: deferred, completion: completion, field: field, path: path, nullableDepth: nullableDepth))
        return .null
    }

    /// Runs rounds until no field waits, writing each value into `data`.
    func drain(_ data: inout GraphQLValue) async {
        while !pending.isEmpty {
            let round = pending
            pending = []
            let results = await wait(round)
            for (index, item) in round.enumerated() {
                let result = results[index] ?? item.deferred.readyResult
                finish(item, result ?? .failure(GraphQLError(message: "A load was not dispatched.")), into: &data)
            }
        }
    }

    /// One round of waiting: one call per load queue with queued keys and every async work, all
    /// at once. Returns the works' results by the index of their item in `round`.
    private func wait(_ round: [Pending]) async -> [Int: Result<(any Sendable)?, any Error>] {
        var works: [(Int, @Sendable () async throws -> (any Sendable)?)] = []
        for (index, item) in round.enumerated() {
            if case .work(let work) = item.deferred.origin { works.append((index, work)) }
        }
        let queues = queuesWithQueuedKeys()
        let context = contextValue
        if works.isEmpty && queues.count == 1 {
            await queues[0].dispatch(context: context)
            return [:]
        }
        if works.count == 1 && queues.isEmpty {
            let (index, work) = works[0]
            do { return [index: .success(try await work())] } catch { return [index: .failure(error)] }
        }
        return await withTaskGroup(of: (Int, Result<(any Sendable)?, any Error>)?.self) { group in
            for queue in queues {
                group.addTask {
                    await queue.dispatch(context: context)
                    return nil
                }
            }
            for (index, work) in works {
                group.addTask {
                    do { return (index, .success(try await work())) } catch { return (index, .failure(error)) }
                }
            }
            var results: [Int: Result<(any Sendable)?, any Error>] = [:]
            for await case let (index, result)? in group { results[index] = result }
            return results
        }
    }

    /// Completes a waiting field with its value and writes it into `data`; an error nulls the
    /// field, or (in a non-null position) its nearest nullable ancestor.
    private func finish(_ item: Pending, _ result: Result<(any Sendable)?, any Error>, into data: inout GraphQLValue) {
        // Inside a position an error has nulled since: nothing to write, and its errors are dropped.
        let itemPath = item.path.components
        if isNulled(itemPath) { return }
        path = item.path
        nullableDepth = item.nullableDepth
        do {
            let completed = try complete(item.completion, try item.deferred.finish(result), item.field)
            write(completed, at: itemPath[...], into: &data)
        } catch {
            let located = locatedError(error, item.field)
            let position = item.completion.isNullable ? itemPath : Array(itemPath.prefix(item.nullableDepth))
            record(located, at: position)
            write(.null, at: position[...], into: &data)
        }
    }

    /// Replaces the value at `path`; a path that no longer exists (an ancestor was nulled)
    /// changes nothing.
    private func write(_ value: GraphQLValue, at path: ArraySlice<PathComponent>, into target: inout GraphQLValue) {
        guard let first = path.first else {
            target = value
            return
        }
        switch (first, target) {
        case (.key(let key), .object(var object)):
            guard var child = object[key] else { return }
            target = .null  // leaves `object` the only owner, so it is changed in place
            object[key] = .null
            write(value, at: path.dropFirst(), into: &child)
            object[key] = child
            target = .object(object)
        case (.index(let index), .list(var items)) where index < items.count:
            target = .null
            write(value, at: path.dropFirst(), into: &items[index])
            target = .list(items)
        default:
            return
        }
    }
}
