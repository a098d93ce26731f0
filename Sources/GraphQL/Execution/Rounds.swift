/// The rounds of an execution: after the synchronous pass, the fields that returned a
/// `Deferred` wait together. Each round makes one batch call per `DataLoader` with queued keys
/// and runs the pending async work, concurrently; then completes the waiting fields in the order
/// they were met, each into its hole's fill (`ResponseTape`). Completing them may leave new
/// fields waiting: the next round takes them, until none is left.

/// A position of the response waiting for a `Deferred`: the hole it left on the tape.
struct Pending {
    let deferred: Deferred
    let completion: Completion
    let field: FieldPlan
    let path: [PathEntry]
    let nullable: NullablePosition
    let hole: Int
}

extension ExecutionContext {
    /// Completes a `Deferred` now if its value is known, or leaves a hole in its position and
    /// queues it.
    func wait(for deferred: Deferred, _ completion: Completion, _ field: FieldPlan) throws {
        if let result = deferred.readyResult {
            return try complete(completion, try deferred.finish(result), field)
        }
        let hole = fills.count
        fills.append([.value(.null)])
        pending.append(
            Pending(deferred: deferred, completion: completion, field: field, path: path, nullable: nullable, hole: hole))
        tape.append(.hole(hole))
    }

    /// Runs rounds until no field waits, filling each hole.
    func drain() async {
        while !pending.isEmpty {
            let round = pending
            pending = []
            let results = await wait(round)
            for (index, item) in round.enumerated() {
                let result = results[index] ?? item.deferred.readyResult
                finish(item, result ?? .failure(GraphQLError(message: "A load was not dispatched.")))
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
        let gathering = (context as? any RoundGathering)?.gathering(participants: queues.count + works.count)
        return await withTaskGroup(of: (Int, Result<(any Sendable)?, any Error>)?.self) { group in
            for queue in queues {
                group.addTask {
                    await participating(in: gathering) { await queue.dispatch(context: context) }
                    return nil
                }
            }
            for (index, work) in works {
                group.addTask {
                    await participating(in: gathering) {
                        do { return (index, .success(try await work())) } catch { return (index, .failure(error)) }
                    }
                }
            }
            var results: [Int: Result<(any Sendable)?, any Error>] = [:]
            for await case let (index, result)? in group { results[index] = result }
            return results
        }
    }

    /// Completes a waiting field with its value into its hole's fill; an error nulls the field,
    /// or (in a non-null position) its nearest nullable ancestor.
    private func finish(_ item: Pending, _ result: Result<(any Sendable)?, any Error>) {
        // Inside a position an error has nulled since: nothing to write, and its errors are dropped.
        let itemPath = item.path.components
        if isNulled(itemPath) { return }
        path = item.path
        nullable = item.nullable
        // The fill is written as the tape, then the outer tape is put back.
        var outer: [ResponseTape.Token] = []
        swap(&tape, &outer)
        let outerNumber = tapeNumber
        tapeNumber = item.hole + 1
        defer {
            swap(&tape, &outer)
            tapeNumber = outerNumber
        }
        do {
            try complete(item.completion, try item.deferred.finish(result), item.field)
            fills[item.hole] = tape
        } catch {
            record(locatedError(error, item.field), at: Array(itemPath.prefix(item.nullable.depth)))
            nulledMarks.insert(item.nullable.start)
        }
    }
}

/// Runs `work` as a participant of `gathering`, or as it is without one.
private func participating<T: Sendable>(in gathering: (any RoundParticipation)?, _ work: () async -> T) async -> T {
    guard let gathering else { return await work() }
    return await gathering.participate(work)
}
