/// The SQL of `Seeder`: the session's staging tables, the COPY into them (the columns of the
/// rows `CopyText` and `SeedJournalRows` write, in order), and the moves from them into the
/// tenant's tables under row-level security. Values only as the parameters listed above each
/// statement.
enum SeedStatements {
    // MARK: People, in the tenant operator's context

    /// The staging table of a tenant's people, dropped with the transaction.
    static let createPeople = """
        create temporary table seed_people (
            id uuid, role text, username text, email text, display_name text, external_ref text
        ) on commit drop
        """

    /// The rows `CopyText` wrote of the tenant's people into their staging table.
    static let copyPeople = "copy seed_people (id, role, username, email, display_name, external_ref) from stdin"

    /// The staged people into the tenant, having accepted the terms of version $1 and made at
    /// $2 (microseconds since 1970).
    static let insertPeople = """
        insert into people (tenant_id, id, role, username, email, display_name, external_ref,
                            terms_version_accepted, terms_accepted_at, created_at)
        select current_tenant_id(), id, role::person_role, username, email, display_name, external_ref,
               $1, 'epoch'::timestamptz + $2::int8 * interval '1 microsecond',
               'epoch'::timestamptz + $2::int8 * interval '1 microsecond'
        from seed_people
        """

    // MARK: Journals, in the tenant's and then each young person's context

    /// The session's staging tables: no tenant id, no row-level security (temporary tables are
    /// the session's own), emptied at each commit. Indexed by person, for the moves.
    static let temporaryTables = """
        create temporary table seed_tags (id uuid, owner_id uuid, name text, created_at timestamptz)
            on commit delete rows;
        create index on seed_tags (owner_id);
        create temporary table seed_media (id uuid, owner_id uuid, content_type text, bytes bytea, created_at timestamptz)
            on commit delete rows;
        create index on seed_media (owner_id);
        create temporary table seed_entries (
            id uuid, author_id uuid, day date, kind text, body text, mood text, background text, suggestion text,
            tag_names text, created_at timestamptz, updated_at timestamptz, archived_at timestamptz
        ) on commit delete rows;
        create index on seed_entries (author_id);
        create temporary table seed_entry_tags (entry_id uuid, tag_id uuid, author_id uuid) on commit delete rows;
        create index on seed_entry_tags (author_id);
        create temporary table seed_entry_media (entry_id uuid, media_id uuid, author_id uuid, position integer)
            on commit delete rows;
        create index on seed_entry_media (author_id);
        """

    /// The rows of a batch into the staging tables.
    static let copyTags = "copy seed_tags (id, owner_id, name, created_at) from stdin"
    static let copyMedia = "copy seed_media (id, owner_id, content_type, bytes, created_at) from stdin"
    static let copyEntries = """
        copy seed_entries (id, author_id, day, kind, body, mood, background, suggestion, tag_names,
                           created_at, updated_at, archived_at) from stdin
        """
    static let copyEntryTags = "copy seed_entry_tags (entry_id, tag_id, author_id) from stdin"
    static let copyEntryMedia = "copy seed_entry_media (entry_id, media_id, author_id, position) from stdin"

    /// Fresh statistics of the staged rows, for the moves' plans.
    static let analyzeStaged = "analyze seed_tags, seed_media, seed_entries, seed_entry_tags, seed_entry_media"

    /// The current person's rows, from the temporary tables into the tenant's: one statement
    /// (the links' foreign keys are checked at its end, when their entries, tags and files are in).
    static let moveJournal = """
        with moved_tags as (
            insert into tags (tenant_id, id, owner_id, name, created_at)
            select current_tenant_id(), id, owner_id, name, created_at from seed_tags
            where owner_id = current_person_id()
            returning 1
        ), moved_media as (
            insert into media (tenant_id, id, owner_id, content_type, bytes, created_at)
            select current_tenant_id(), id, owner_id, content_type, bytes, created_at from seed_media
            where owner_id = current_person_id()
            returning 1
        ), moved_entries as (
            insert into entries (tenant_id, id, author_id, day, kind, body, mood, background, suggestion, tag_names,
                                 created_at, updated_at, archived_at)
            select current_tenant_id(), id, author_id, day, kind, body, mood, background, suggestion, tag_names,
                   created_at, updated_at, archived_at
            from seed_entries
            where author_id = current_person_id()
            returning 1
        ), moved_tag_links as (
            insert into entry_tags (tenant_id, entry_id, tag_id, author_id)
            select current_tenant_id(), entry_id, tag_id, author_id from seed_entry_tags
            where author_id = current_person_id()
        ), moved_media_links as (
            insert into entry_media (tenant_id, entry_id, media_id, author_id, position)
            select current_tenant_id(), entry_id, media_id, author_id, position from seed_entry_media
            where author_id = current_person_id()
        )
        select (select count(*) from moved_entries), (select count(*) from moved_tags), (select count(*) from moved_media)
        """

    /// The staging tables, when a connection is done.
    static let dropTemporaryTables = "drop table seed_tags, seed_media, seed_entries, seed_entry_tags, seed_entry_media"
}
