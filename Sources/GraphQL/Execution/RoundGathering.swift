/// What a request's context value may do about the concurrent work of a round (see Rounds.swift):
/// Storykeep's sends the database statements of a round's DataLoader batches together, in one
/// round trip, instead of one after the other.
public protocol RoundGathering: Sendable {
    /// Called when a round starts `participants` pieces of work at once (each loader's batch,
    /// each async resolver): what runs each of them, or nil to run them as they are.
    func gathering(participants: Int) -> (any RoundParticipation)?
}

/// Runs each piece of work of one round (``RoundGathering``), once per participant.
public protocol RoundParticipation: Sendable {
    func participate<T: Sendable>(_ work: () async -> T) async -> T
}
