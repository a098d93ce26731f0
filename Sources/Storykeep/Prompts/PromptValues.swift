public import Foundation
public import GraphQL
public import StorykeepCaseload
import StorykeepCore

/// Where a prompt stands (the GraphQL enum `PromptStatus`).
public enum PromptStatus: String, Sendable, Hashable {
    case open = "OPEN"
    case answered = "ANSWERED"
    case dismissed = "DISMISSED"
}

/// A prompt an adult sent a young person (a row of `adult_prompts`), as the reader may see it:
/// the source of both GraphQL types, `Prompt` (the young person's, with the entry that answers
/// it) and `SentPrompt` (the adult's, without it).
public struct AdultPrompt: Sendable, Hashable {
    public var id: UUID
    public var text: String
    public var youngPerson: CaseloadPerson
    /// Who sent it, while the reader may see them (their young person, while they look after them).
    public var adult: CaseloadPerson?
    public var sentAt: Date
    public var dismissedAt: Date?
    public var answeredAt: Date?
    /// The entry that answers it, until that entry is purged from its author's archive.
    public var answeredEntryID: UUID?

    public var status: PromptStatus {
        answeredAt != nil ? .answered : dismissedAt != nil ? .dismissed : .open
    }
}

extension AdultPrompt: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "text": text
        case "from": adult
        case "youngPerson": youngPerson
        case "sentAt": DateTimeScalar.string(sentAt)
        case "status": status.rawValue
        case "answeredAt": answeredAt.map(DateTimeScalar.string)
        case "dismissedAt": dismissedAt.map(DateTimeScalar.string)
        default: nil
        }
    }
}
