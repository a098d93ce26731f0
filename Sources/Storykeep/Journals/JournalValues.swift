import Foundation
import GraphQL
import Postgres

/// The journal as GraphQL sees it: the objects the default resolvers read (`Entry`, `Media`,
/// `Tag`, a connection), the arguments turned into store input, and the stores' refusals turned
/// into API errors. Shared by the modules of the journal (journals, tags, archive, profile).
enum JournalValues {
    /// The `Entry` object, with its tags (read only where the tags module is on) and media.
    static func entry(_ entry: Entry, tenant: Tenant) -> GraphQLValue {
        .object([
            "id": .string(entry.id.lowercased),
            "date": .string(entry.day.description),
            "kind": .string(entry.kind.rawValue),
            "text": entry.text.map(GraphQLValue.string) ?? .null,
            "mood": entry.mood.map(GraphQLValue.string) ?? .null,
            "background": entry.background.map(GraphQLValue.string) ?? .null,
            "suggestion": entry.suggestion.map(GraphQLValue.string) ?? .null,
            "tags": .list(entry.tags.map(tag)),
            "media": .list(entry.media.map { media($0, tenant: tenant) }),
            "createdAt": .string(DateTimeScalar.string(entry.createdAt)),
            "updatedAt": .string(DateTimeScalar.string(entry.updatedAt)),
        ])
    }

    static func moodIcon(_ icon: MoodIcon) -> GraphQLValue {
        .object(["emoji": .string(icon.emoji), "label": .string(icon.label)])
    }

    static func tag(_ tag: Tag) -> GraphQLValue {
        .object(["id": .string(tag.id.lowercased), "name": .string(tag.name)])
    }

    /// The `Media` object; its `url` is the tenant's media route (`MediaEndpoint` in the server).
    static func media(_ media: MediaInfo, tenant: Tenant) -> GraphQLValue {
        .object([
            "id": .string(media.id.lowercased),
            "contentType": .string(media.contentType),
            "byteSize": .int(media.byteSize),
            "sha256": .string(media.sha256Hex),
            "url": .string("/t/\(tenant.slug)/media/\(media.id.lowercased)"),
            "createdAt": .string(DateTimeScalar.string(media.createdAt)),
        ])
    }

    /// A Relay connection of `page`, each item made an object by `node` and its position a
    /// cursor by `cursors`; `edge` adds fields to an edge beside `cursor` and `node`.
    static func connection<Item, Position>(
        _ page: Page<Item, Position>, cursors: Cursors, node: (Item) -> GraphQLValue,
        edge: (Item) -> GraphQLObject = { _ in [:] }
    ) -> GraphQLValue {
        let edges = page.items.map { item, position in (item, cursors.cursor(position)) }
        return .object([
            "edges": .list(
                edges.map { item, cursor in
                    var object: GraphQLObject = ["cursor": .string(cursor), "node": node(item)]
                    for (key, value) in edge(item).entries { object.append(key, value) }
                    return .object(object)
                }),
            "pageInfo": .object([
                "hasNextPage": .bool(page.hasNextPage),
                "endCursor": edges.last.map { .string($0.1) } ?? .null,
            ]),
        ])
    }

    // MARK: Arguments

    /// The argument `name` as an id: an ID that is no UUID names nothing, so it is NOT_FOUND
    /// like any other id that is not the person's.
    static func id(_ arguments: GraphQLObject, _ name: String) throws -> UUID {
        guard let text = arguments[name]?.stringValue, let id = UUID(uuidString: text) else {
            throw GraphQLError.notFound()
        }
        return id
    }

    /// A list of ids in an input, refused as a whole (naming `field`) if one is no UUID.
    static func ids(_ value: GraphQLValue?, field: String) throws -> [UUID] {
        try (value?.listValue ?? []).map { item in
            guard let text = item.stringValue, let id = UUID(uuidString: text) else {
                throw GraphQLError.badUserInput(field: field, "\(item.stringValue ?? "?") is not an id.")
            }
            return id
        }
    }

    /// An `EntryInput`, as coerced by the schema (its date and kind are there and valid).
    static func entryInput(_ input: GraphQLObject) throws -> EntryInput {
        EntryInput(
            day: input["date"]?.stringValue.flatMap(PostgresDate.init), kind: input["kind"]?.stringValue.flatMap(EntryKind.init),
            text: input["text"]?.stringValue, mood: input["mood"]?.stringValue, background: input["background"]?.stringValue,
            suggestion: input["suggestion"]?.stringValue, tagIDs: try ids(input["tagIds"], field: "input.tagIds"),
            mediaIDs: try ids(input["mediaIds"], field: "input.mediaIds"))
    }

    /// An `EntryFilter`, if given.
    static func entryFilter(_ filter: GraphQLObject?) throws -> EntryFilter {
        guard let filter else { return EntryFilter() }
        return EntryFilter(
            tagIDs: filter["tagIds"]?.listValue == nil ? nil : try ids(filter["tagIds"], field: "filter.tagIds"),
            kinds: filter["kinds"]?.listValue?.compactMap { $0.stringValue.flatMap(EntryKind.init) },
            from: filter["from"]?.stringValue.flatMap(PostgresDate.init),
            to: filter["to"]?.stringValue.flatMap(PostgresDate.init),
            text: filter["text"]?.stringValue)
    }

    // MARK: Errors

    /// Runs `body`, giving the fields of the stores' refusals the names the API spells them with
    /// (`field` maps `date` to `input.date`). The refusals become API errors where every root
    /// resolver's errors do (``JournalError/graphQLError``, in ``TenantSchemas``).
    static func renamingFields<T>(_ field: (String) -> String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch JournalError.badInput(let name, let message) {
            throw JournalError.badInput(field: field(name), message: message)
        }
    }
}

extension JournalError {
    /// The error the API answers with: BAD_USER_INPUT naming the field, or NOT_FOUND for an id
    /// that is absent, deleted or someone else's (never told apart).
    var graphQLError: GraphQLError {
        switch self {
        case .badInput(let field, let message): .badUserInput(field: field, "\(field): \(message).")
        case .notFound: .notFound()
        }
    }
}
