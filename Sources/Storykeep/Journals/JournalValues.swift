import Foundation
public import GraphQL
import Postgres
public import StorykeepCore

// The journal as GraphQL sees it: entries and files are the sources of the `Entry` and `Media`
// objects (other modules add fields to them: the tags module `Entry.tags`), arguments become store
// input, and the stores' refusals become API errors.

extension Entry: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "date": day
        case "kind": kind.rawValue
        case "text": text
        case "mood": mood
        case "background": background
        case "suggestion": suggestion
        case "media": media
        case "createdAt": DateTimeScalar.string(createdAt)
        case "updatedAt": DateTimeScalar.string(updatedAt)
        default: nil
        }
    }
}

/// `Media` without its `url`, which the server builds (a resolver of the journals module reads it
/// from the request's ``ResourceLinks``).
extension MediaInfo: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "contentType": contentType
        case "byteSize": byteSize
        case "sha256": sha256Hex
        case "createdAt": DateTimeScalar.string(createdAt)
        default: nil
        }
    }

    /// Where its bytes are served (``MediaFiles``), relative to the tenant's root.
    public var path: String { "\(MediaFiles.path)/\(id.lowercased)" }
}

extension MoodIcon {
    /// The `MoodIcon` object, its `text` in `language`.
    public func graphQLValue(in language: String) -> GraphQLValue {
        .object(["emoji": .string(emoji), "label": .string(label), "text": .string(labels.text(in: language))])
    }
}

enum JournalValues {
    /// An `EntryInput`, as coerced by the schema (its date and kind are there and valid).
    static func entryInput(_ input: GraphQLObject) throws -> EntryInput {
        EntryInput(
            day: input["date"]?.stringValue.flatMap(PostgresDate.init), kind: input["kind"]?.stringValue.flatMap(EntryKind.init),
            text: input["text"]?.stringValue, mood: input["mood"]?.stringValue, background: input["background"]?.stringValue,
            suggestion: input["suggestion"]?.stringValue, tagIDs: try input.ids("tagIds", field: "input.tagIds"),
            mediaIDs: try input.ids("mediaIds", field: "input.mediaIds"))
    }

    /// An `EntryFilter`, if given.
    static func entryFilter(_ filter: GraphQLObject?) throws -> EntryFilter {
        guard let filter else { return EntryFilter() }
        return EntryFilter(
            tagIDs: filter["tagIds"]?.listValue == nil ? nil : try filter.ids("tagIds", field: "filter.tagIds"),
            kinds: filter["kinds"]?.listValue?.compactMap { $0.stringValue.flatMap(EntryKind.init) },
            from: filter["from"]?.stringValue.flatMap(PostgresDate.init),
            to: filter["to"]?.stringValue.flatMap(PostgresDate.init),
            text: filter["text"]?.stringValue)
    }
}

extension JournalError: APIErrorConvertible {
    /// BAD_USER_INPUT naming the field, or NOT_FOUND for an id that is absent, deleted or someone
    /// else's (never told apart).
    public var graphQLError: GraphQLError {
        switch self {
        case .badInput(let field, let message): .badUserInput(field: field, "\(field): \(message).")
        case .notFound: .notFound()
        }
    }

    /// Runs `body`, giving the fields of the stores' refusals the names the API spells them with
    /// (`field` maps `date` to `input.date`).
    public static func renamingFields<T>(_ field: (String) -> String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch JournalError.badInput(let name, let message) {
            throw JournalError.badInput(field: field(name), message: message)
        }
    }
}
