import Foundation
import StorykeepCore

/// Why a journal operation was refused. Thrown before anything is written, so a refused operation
/// changes nothing and leaves the transaction usable.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Input the person can correct: `field` names the input field as the API spells it
    /// (`date`, `tagIds`, `mediaIds`, `name`, `file`, `after`, ...). GraphQL reports it as
    /// `BAD_USER_INPUT` with the field in its extensions.
    case badInput(field: String, message: String)
    /// No such entry, tag or file *for this person*: absent, archived where a live one was asked
    /// for, or someone else's. The three are not told apart, so that an id reveals nothing.
    case notFound(id: UUID)

    /// The GraphQL error code of this error.
    public var code: String {
        switch self {
        case .badInput: "BAD_USER_INPUT"
        case .notFound: "NOT_FOUND"
        }
    }

    public var description: String {
        switch self {
        case .badInput(let field, let message): "\(field): \(message)"
        case .notFound(let id): "not found: \(id.uuidString.lowercased())"
        }
    }
}
