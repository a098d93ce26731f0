import Foundation
import StorykeepCore
import Postgres

/// A young person's journal, read and written in the transaction it is given, for the person
/// that transaction runs as (`AccountContext.person`): every statement names
/// `current_person_id()` as the author, and the policies of Migrations/0003_journals.sql hold
/// it to that whatever the statement says.
///
/// Input is checked before anything is written: a refused operation throws `JournalError` and
/// changes nothing, and the transaction stays usable. Reads of several entries load their tags
/// and media in one statement each (`EntryRows.attach`), so a page costs the same number of
/// statements whatever its size.
public struct JournalStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// Writes a new entry with its tags and media. Refused (`badInput`) when the date or kind is
    /// missing, a text is too long, a MOOD entry has no mood or its day already has a check-in,
    /// a tag id is not one of the person's tags, or a media id is not one of the person's
    /// files or is attached to another entry.
    public func createEntry(_ input: EntryInput) async throws -> Entry {
        let valid = try await validate(input, entryID: nil)
        let rows = try await database.query(
            """
            with new_entry as (
                insert into entries (tenant_id, author_id, day, kind, body, mood, background, suggestion, tag_names)
                values (current_tenant_id(), current_person_id(), $1, $2, $3, $4, $5, $6, \(EntryRows.tagNames(of: "$7")))
                returning tenant_id, id, author_id
            ), tag_links as (
                insert into entry_tags (tenant_id, entry_id, tag_id, author_id)
                select e.tenant_id, e.id, t.id, e.author_id from new_entry e, unnest($7::uuid[]) as t (id)
            ), media_links as (
                insert into entry_media (tenant_id, entry_id, media_id, author_id, position)
                select e.tenant_id, e.id, m.id, e.author_id, m.ord - 1
                from new_entry e, unnest($8::uuid[]) with ordinality as m (id, ord)
            )
            select id from new_entry
            """,
            valid.day, valid.kind.rawValue, input.text, input.mood, input.background, input.suggestion,
            valid.tagIDs, valid.mediaIDs)
        return try await entry(id: try rows[0].decode(UUID.self, at: 0))!
    }

    /// Makes the live entry `id` what `input` says: every field, its tags and its media
    /// (send the current ones to keep them). Refused as `createEntry` is; `notFound` when the
    /// person has no live entry `id`.
    public func updateEntry(id: UUID, _ input: EntryInput) async throws -> Entry {
        let valid = try await validate(input, entryID: id)
        try await database.execute(
            """
            with updated as (
                update entries set day = $2, kind = $3, body = $4, mood = $5, background = $6, suggestion = $7,
                    tag_names = \(EntryRows.tagNames(of: "$8")), updated_at = clock_timestamp()
                where tenant_id = current_tenant_id() and author_id = current_person_id() and id = $1
                  and archived_at is null
                returning tenant_id, id, author_id
            ), untagged as (
                delete from entry_tags et using updated u
                where et.tenant_id = u.tenant_id and et.entry_id = u.id and et.tag_id <> all($8::uuid[])
            ), tagged as (
                insert into entry_tags (tenant_id, entry_id, tag_id, author_id)
                select u.tenant_id, u.id, t.id, u.author_id from updated u, unnest($8::uuid[]) as t (id)
                on conflict do nothing
            )
            delete from entry_media em using updated u where em.tenant_id = u.tenant_id and em.entry_id = u.id
            """,
            id, valid.day, valid.kind.rawValue, input.text, input.mood, input.background, input.suggestion, valid.tagIDs)
        // The files' new positions, once the old ones are gone (one statement could not order the
        // deletion before the insertion).
        try await database.execute(
            """
            insert into entry_media (tenant_id, entry_id, media_id, author_id, position)
            select current_tenant_id(), $1, m.id, current_person_id(), m.ord - 1
            from unnest($2::uuid[]) with ordinality as m (id, ord)
            """, id, valid.mediaIDs)
        return try await entry(id: id)!
    }

    /// Deletes the person's live entry `id` as of `now`: it moves to the archive (see the archive
    /// module), where it stays restorable until purged; `notFound` if they have
    /// no live entry `id`.
    public func deleteEntry(id: UUID, now: Date) async throws {
        let archived = try await database.execute(
            """
            update entries set archived_at = $2
            where tenant_id = current_tenant_id() and author_id = current_person_id() and id = $1
              and archived_at is null
            """, id, now)
        guard archived == 1 else { throw JournalError.notFound(id: id) }
    }

    /// The person's live entry `id`, or `nil` (absent, archived, or not theirs: the same answer).
    public func entry(id: UUID) async throws -> Entry? {
        try await entries(ids: [id]).first
    }

    /// The person's live entries among `ids`, in the order of `ids`; the others are left out.
    /// Three statements, whatever the number of ids (what a batched GraphQL load calls).
    public func entries(ids: [UUID]) async throws -> [Entry] {
        var found = try await database.query(
            """
            select \(EntryRows.columns) from entries e
            where e.tenant_id = current_tenant_id() and e.author_id = current_person_id()
              and e.id = any($1::uuid[]) and e.archived_at is null
            """, ids
        ).map { try EntryRows.decode($0).entry }
        try await EntryRows.attach(to: &found, on: database)
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    // MARK: Checking input

    /// An input that passed every check, with its lists deduplicated.
    struct ValidInput {
        var day: PostgresDate
        var kind: EntryKind
        var tagIDs: [UUID]
        var mediaIDs: [UUID]
    }

    /// Checks `input` for the entry `entryID` (`nil` for a new one): first what needs no database,
    /// then, in one statement, that the tags and files are the person's and the files free, that
    /// a MOOD entry's day has no other check-in, and that the entry to update exists.
    func validate(_ input: EntryInput, entryID: UUID?) async throws -> ValidInput {
        guard let day = input.day else { throw JournalError.badInput(field: "date", message: "an entry needs a date") }
        guard let kind = input.kind else { throw JournalError.badInput(field: "kind", message: "an entry needs a kind") }
        try Self.checkLength(input.text, field: "text", .entryText)
        try Self.checkLength(input.mood, field: "mood", .mood)
        try Self.checkLength(input.background, field: "background", .background)
        try Self.checkLength(input.suggestion, field: "suggestion", .suggestion)
        if kind == .mood && input.mood == nil {
            throw JournalError.badInput(field: "mood", message: "a MOOD entry needs a mood")
        }
        let valid = ValidInput(day: day, kind: kind, tagIDs: input.tagIDs.uniqued(), mediaIDs: input.mediaIDs.uniqued())
        let row = try await database.query(
            """
            select
                (select count(*) from entries e
                 where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.id = $3
                   and e.archived_at is null),
                array(select x.id from unnest($1::uuid[]) with ordinality as x (id, ord)
                      where not exists (select from tags t where t.tenant_id = current_tenant_id()
                                          and t.owner_id = current_person_id() and t.id = x.id)
                      order by x.ord),
                array(select x.id from unnest($2::uuid[]) with ordinality as x (id, ord)
                      where not exists (select from media m where m.tenant_id = current_tenant_id()
                                          and m.owner_id = current_person_id() and m.id = x.id)
                      order by x.ord),
                array(select em.media_id from entry_media em
                      where em.tenant_id = current_tenant_id() and em.author_id = current_person_id()
                        and em.media_id = any($2::uuid[]) and em.entry_id is distinct from $3),
                $4 = 'MOOD' and exists (
                    select from entries e
                    where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.day = $5
                      and e.kind = 'MOOD' and e.archived_at is null and e.id is distinct from $3)
            """, valid.tagIDs, valid.mediaIDs, entryID, kind.rawValue, day)[0]
        if let entryID, try row.decode(Int.self, at: 0) == 0 { throw JournalError.notFound(id: entryID) }
        if let unknown = try row.decode([UUID].self, at: 1).first {
            throw JournalError.badInput(field: "tagIds", message: "no tag of yours has the id \(unknown.lowercased)")
        }
        if let unknown = try row.decode([UUID].self, at: 2).first {
            throw JournalError.badInput(field: "mediaIds", message: "no file of yours has the id \(unknown.lowercased)")
        }
        if let attached = try row.decode([UUID].self, at: 3).first {
            throw JournalError.badInput(
                field: "mediaIds", message: "the file \(attached.lowercased) belongs to another entry")
        }
        if try row.decode(Bool.self, at: 4) {
            throw JournalError.badInput(
                field: "date", message: "that day already has a mood check-in; check in again to change it")
        }
        return valid
    }

    /// Refuses `text` that `limit` does not admit, naming `field`.
    static func checkLength(_ text: String?, field: String, _ limit: TextLimit) throws {
        guard let text, !limit.admits(text) else { return }
        throw JournalError.badInput(field: field, message: "must have \(limit)")
    }
}
