/// The SQL of the journal: what `JournalStore` (its writes and its reads), `EntryRows` and
/// `Suggestions` run, each statement whole, with its parameters listed above it. Values only ever
/// travel as those parameters; nothing is spliced into the text, so each statement is prepared
/// once per connection.
///
/// Every statement names the author (`author_id = current_person_id()`, or the owner of a tag or
/// a file), so that the indexes led by (tenant_id, author_id) serve it under row-level security
/// (see Migrations/0003_journals.sql), and the policies hold it to that person whatever it says.
/// A statement that returns entries selects the columns `EntryRows.decode` reads, in its order.
enum JournalStatements {
    /// The columns `EntryRows.decode` reads, in its order, of the entry `e`: what every statement
    /// here that returns entries selects.
    static let entryColumns = "e.id, e.day, e.kind, e.body, e.mood, e.background, e.suggestion, e.created_at, e.updated_at, e.archived_at"

    // MARK: Writing

    /// A new entry with its tag and media links, written only if ``checkInput`` (its first
    /// part, with no entry to update) finds nothing wrong, in one statement: returns one row,
    /// ``checkInput``'s five columns, then the entry as `EntryRows.decode` reads it (nulls when
    /// the check refused it and nothing was written). `tag_names` (the search text of the tags)
    /// is the names of the tags $1, as `TagStore` keeps it.
    ///
    /// $1 tag ids (uuid[]), $2 media ids (uuid[], in their order in the entry), $3 null, $4 kind,
    /// $5 day (``checkInput``'s), $6 text, $7 mood, $8 background, $9 suggestion.
    static let createEntry = """
        with checked (live, unknown_tags, unknown_media, attached_media, day_taken) as (
        \(checkInput)
        ), new_entry as (
            insert into entries (tenant_id, author_id, day, kind, body, mood, background, suggestion, tag_names)
            select current_tenant_id(), current_person_id(), $5, $4, $6, $7, $8, $9,
                   coalesce((select string_agg(t.name, ' ' order by t.name_key) from tags t
                             where t.tenant_id = current_tenant_id() and t.owner_id = current_person_id()
                               and t.id = any($1::uuid[])), '')
            from checked c
            where cardinality(c.unknown_tags) = 0 and cardinality(c.unknown_media) = 0
              and cardinality(c.attached_media) = 0 and not c.day_taken
            returning *
        ), tag_links as (
            insert into entry_tags (tenant_id, entry_id, tag_id, author_id)
            select e.tenant_id, e.id, t.id, e.author_id from new_entry e, unnest($1::uuid[]) as t (id)
        ), media_links as (
            insert into entry_media (tenant_id, entry_id, media_id, author_id, position)
            select e.tenant_id, e.id, m.id, e.author_id, m.ord - 1
            from new_entry e, unnest($2::uuid[]) with ordinality as m (id, ord)
        )
        select c.*, \(entryColumns)
        from checked c left join new_entry e on true
        """

    /// Makes the live entry $1 what the parameters say, its tags those of $8 (the links of the
    /// others removed, the new ones added), and removes its media links, which
    /// ``attachMedia`` then writes again in their new order (one statement could not order the
    /// deletion before the insertion). Returns the entry as `EntryRows.decode` reads it, or no
    /// row when the person has no live entry $1.
    ///
    /// $1 entry id, $2 day, $3 kind, $4 text, $5 mood, $6 background, $7 suggestion, $8 tag ids (uuid[]).
    static let updateEntry = """
        with updated as (
            update entries set day = $2, kind = $3, body = $4, mood = $5, background = $6, suggestion = $7,
                tag_names = coalesce((select string_agg(t.name, ' ' order by t.name_key) from tags t
                                      where t.tenant_id = current_tenant_id() and t.owner_id = current_person_id()
                                        and t.id = any($8::uuid[])), ''),
                updated_at = clock_timestamp()
            where tenant_id = current_tenant_id() and author_id = current_person_id() and id = $1
              and archived_at is null
            returning *
        ), untagged as (
            delete from entry_tags et using updated u
            where et.tenant_id = u.tenant_id and et.entry_id = u.id and et.tag_id <> all($8::uuid[])
        ), tagged as (
            insert into entry_tags (tenant_id, entry_id, tag_id, author_id)
            select u.tenant_id, u.id, t.id, u.author_id from updated u, unnest($8::uuid[]) as t (id)
            on conflict do nothing
        ), unlinked as (
            delete from entry_media em using updated u where em.tenant_id = u.tenant_id and em.entry_id = u.id
        )
        select \(entryColumns) from updated e
        """

    /// Links the files $2 to the person's entry $1, in that order.
    ///
    /// $1 entry id, $2 media ids (uuid[]).
    static let attachMedia = """
        insert into entry_media (tenant_id, entry_id, media_id, author_id, position)
        select current_tenant_id(), $1, m.id, current_person_id(), m.ord - 1
        from unnest($2::uuid[]) with ordinality as m (id, ord)
        """

    /// Moves the person's live entry $1 to the archive as of $2; one row changed, or none when
    /// they have no live entry $1.
    static let archiveEntry = """
        update entries set archived_at = $2
        where tenant_id = current_tenant_id() and author_id = current_person_id() and id = $1
          and archived_at is null
        """

    /// What `JournalStore.validate` asks the database about an entry's input, in one row:
    /// 0. how many live entries of the person have the id $3 (1, or 0: the entry to update is gone);
    /// 1. the ids among $1 that are not the person's tags, in their order;
    /// 2. the ids among $2 that are not the person's files, in their order;
    /// 3. the files among $2 attached to an entry other than $3;
    /// 4. whether the day $5 already has another live check-in, when $4 is 'MOOD'.
    ///
    /// $1 tag ids (uuid[]), $2 media ids (uuid[]), $3 the entry's id (null for a new one),
    /// $4 kind, $5 day.
    static let checkInput = """
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
        """

    // MARK: Reading

    /// The person's live entries among the ids $1 (uuid[]), in no particular order.
    static let entriesByID = """
        select \(entryColumns)
        from entries e
        where e.tenant_id = current_tenant_id() and e.author_id = current_person_id()
          and e.id = any($1::uuid[]) and e.archived_at is null
        """

    /// A page of the person's live entries in the journal's order, newest first: by day, then
    /// by when they were written, then by id. One statement for every filter, its text the same
    /// whatever the values:
    ///
    /// $1, $2, $3 the position the page starts after (`(day, created_at, id)`, the cursor's, or
    /// `EntryPosition.start`, past every entry, for the first page); $4, $5 the first and last
    /// day (`PostgresDate.earliest` and `.latest` when the filter has none); $6 kinds (text[])
    /// and $7 tag ids (uuid[], an entry with any of them), null for any; $8 a full-text search
    /// (web-search syntax), null for none; $9 the most rows.
    ///
    /// The position and the days are always values, never "null for none": they are then
    /// conditions of the `entries_timeline` index (tenant_id, author_id, day, created_at, id),
    /// which the scan starts and stops by, in the generic plan that PostgreSQL may settle on
    /// for a prepared statement as in each custom one. (`$n is null or ...` would be a filter
    /// there, and a later page or a short range of days would read the journal from its top.)
    /// Kinds, tags and the search are filters in any plan: the index gives the order, and the
    /// scan stops at $9 rows.
    static let entriesPage = """
        select \(entryColumns)
        from entries e
        where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is null
          and (e.day, e.created_at, e.id) < ($1::date, $2::timestamptz, $3::uuid)
          and e.day between $4::date and $5::date
          and ($6::text[] is null or e.kind = any($6::text[]))
          and ($7::uuid[] is null or exists (select from entry_tags et
                                             where et.tenant_id = e.tenant_id and et.entry_id = e.id
                                               and et.tag_id = any($7::uuid[])))
          and ($8::text is null or e.search @@ websearch_to_tsquery('simple', $8::text))
        order by e.day desc, e.created_at desc, e.id desc
        limit $9
        """

    /// Each day from $1 up to (not including) $2 that has live entries of the person: the day,
    /// its number of entries and the moods recorded that day, in the order they were written.
    static let calendar = """
        select e.day, count(*),
               coalesce(array_agg(e.mood order by e.created_at, e.id) filter (where e.mood is not null), '{}')
        from entries e
        where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is null
          and e.day >= $1 and e.day < $2
        group by e.day
        """

    /// The files of the entries $1 (uuid[]) that the person may read: each entry's id, then the
    /// columns `MediaRows.decode` reads, by entry and in their order in it.
    static let mediaOfEntries = """
        select em.entry_id, m.id, m.content_type, m.byte_size, m.sha256, m.created_at
        from entry_media em join media m on m.tenant_id = em.tenant_id and m.id = em.media_id
        where em.tenant_id = current_tenant_id() and em.entry_id = any($1::uuid[])
        order by em.entry_id, em.position
        """

    /// The prompts the person answered most recently, newest first, each once, at most $1: over
    /// the `entries_suggestions` index, the last 4 × $1 entries that answered one.
    static let recentlyAnsweredPrompts = """
        select suggestion from (
            select e.suggestion, max(e.created_at) as answered_at
            from (select suggestion, created_at from entries
                  where tenant_id = current_tenant_id() and author_id = current_person_id()
                    and suggestion is not null
                  order by created_at desc limit $1 * 4) as e
            group by e.suggestion
        ) as answered
        order by answered_at desc
        limit $1
        """
}
