public import Foundation
import StorykeepCore
public import Postgres
import StorykeepJournals

/// A tag of the person's own.
public struct Tag: Sendable, Hashable, Identifiable {
    public let id: UUID
    /// 1 to 99 characters, trimmed; unique per person whatever the case.
    public var name: String

    public init(id: UUID, name: String) {
        self.id = id
        self.name = name
    }
}

/// A person's own tags, in the transaction it is given, for the person that transaction runs as.
///
/// Names are trimmed, 1 to 99 characters, and unique per person whatever their case (ICU's
/// lower case, so "École" and "école" are one name). A refused name throws `JournalError`
/// before anything is written. Renaming or deleting a tag also rewrites the search text
/// (`entries.tag_names`) of the entries carrying it, archived ones included, in the same
/// transaction.
public struct TagStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// The person's tags in alphabetical order (ICU's root collation: case and accents count
    /// after the letters).
    public func tags() async throws -> [Tag] {
        try await database.query(TagStatements.tags).map {
            Tag(id: try $0.decode(UUID.self, at: 0), name: try $0.decode(String.self, at: 1))
        }
    }

    /// The tags of each of the entries `entryIDs` that the person may read, in alphabetical
    /// order: one statement, whatever their number (what the `Entry.tags` loader calls).
    public func tags(ofEntries entryIDs: [UUID]) async throws -> [UUID: [Tag]] {
        var tags: [UUID: [Tag]] = [:]
        for row in try await database.query(TagStatements.tagsOfEntries, entryIDs) {
            tags[try row.decode(UUID.self, at: 0), default: []].append(
                Tag(id: try row.decode(UUID.self, at: 1), name: try row.decode(String.self, at: 2)))
        }
        return tags
    }

    /// Makes a tag named `name` (trimmed). Refused when the name is empty, 100 characters or
    /// longer, or one of the person's tags already has it in any case.
    public func createTag(name: String) async throws -> Tag {
        let name = try Self.validName(name)
        let rows = try await database.query(TagStatements.createTag, name)
        guard let row = rows.first else { throw Self.taken(name) }
        return Tag(id: try row.decode(UUID.self, at: 0), name: name)
    }

    /// Renames the tag `id`; its entries carry the new name. Refused as `createTag` is (a tag
    /// may take another case of its own name); `notFound` if the person has no tag `id`.
    public func renameTag(id: UUID, to name: String) async throws -> Tag {
        let name = try Self.validName(name)
        let row = try await database.query(TagStatements.renameCheck, id, name)[0]
        guard try row.decode(Bool.self, at: 0) else { throw JournalError.notFound(id: id) }
        guard try !row.decode(Bool.self, at: 1) else { throw Self.taken(name) }
        try await database.execute(TagStatements.rename, id, name)
        try await refreshEntries(taggedWith: id, without: nil)
        return Tag(id: id, name: name)
    }

    /// Deletes the tag `id`: it leaves every entry that carried it, and the entries stay.
    /// `notFound` if the person has no tag `id`.
    public func deleteTag(id: UUID) async throws {
        // The entries' search text first, while the links still say which entries carry it.
        try await refreshEntries(taggedWith: id, without: id)
        let deleted = try await database.execute(TagStatements.deleteTag, id)
        guard deleted == 1 else { throw JournalError.notFound(id: id) }
    }

    /// Rewrites `tag_names` of the person's entries tagged `tag`, leaving out the tag `excluded`.
    private func refreshEntries(taggedWith tag: UUID, without excluded: UUID?) async throws {
        try await database.execute(TagStatements.refreshTagNames, tag, excluded)
    }

    /// `name` trimmed, if ``TextLimit/tagName`` admits it.
    static func validName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw JournalError.badInput(field: "name", message: "a tag needs a name") }
        guard TextLimit.tagName.admits(trimmed) else {
            throw JournalError.badInput(field: "name", message: "a tag's name has \(TextLimit.tagName)")
        }
        return trimmed
    }

    private static func taken(_ name: String) -> JournalError {
        .badInput(field: "name", message: "you already have a tag called \(name)")
    }
}
