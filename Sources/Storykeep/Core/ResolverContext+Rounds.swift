public import GraphQL
import Postgres

/// The DataLoader batches and async resolvers of one GraphQL round run at once in the request's
/// transaction: their statements travel together, in one round trip (``StatementGathering``),
/// e.g. a journal page's tags and its media.
extension ResolverContext: RoundGathering {
    public func gathering(participants: Int) -> (any RoundParticipation)? {
        requestTransactionForRounds.map { TransactionRound(gathering: $0.gathering(participants: participants)) }
    }
}

/// One round's work on the request's transaction.
private struct TransactionRound: RoundParticipation {
    let gathering: StatementGathering

    func participate<T: Sendable>(_ work: () async -> T) async -> T {
        await gathering.participate(work)
    }
}
