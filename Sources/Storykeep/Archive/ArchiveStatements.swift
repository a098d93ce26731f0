/// The SQL of the archive: `ArchiveStore`, for the person of the transaction, and `ArchivePurge`.
/// Values only as the parameters listed above each statement.
enum ArchiveStatements {
    /// One row if the person has the archived entry $1: whether it is a check-in whose day has
    /// had another live check-in since (then it cannot come back).
    static let restoreCheck = """
        select e.kind = 'MOOD' and exists (
                   select from entries o
                   where o.tenant_id = e.tenant_id and o.author_id = e.author_id and o.day = e.day
                     and o.kind = 'MOOD' and o.archived_at is null)
        from entries e
        where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.id = $1
          and e.archived_at is not null
        """

    /// Brings the person's archived entry $1 back into the journal; one row changed, or none
    /// when it is not in the archive (any more).
    static let restore = """
        update entries set archived_at = null
        where tenant_id = current_tenant_id() and author_id = current_person_id() and id = $1
          and archived_at is not null
        """

    /// A page of the person's archive, most recently deleted first: the columns
    /// `EntryRows.decode` reads, then `archived_at` again, exact, for the position.
    ///
    /// $1, $2 the position the page starts after, `(archived_at, id)`: the cursor's, or
    /// `ArchivePosition.pastNewest`, past every entry, for the first page (always values, so that
    /// they bound the scan of the `entries_archive` index in any plan); $3 the most rows.
    static let archivePage = """
        select e.id, e.day, e.kind, e.body, e.mood, e.background, e.suggestion, e.created_at, e.updated_at, e.archived_at,
               e.archived_at
        from entries e
        where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is not null
          and (e.archived_at, e.id) < ($1::timestamptz, $2::uuid)
        order by e.archived_at desc, e.id desc
        limit $3
        """

    /// The tenant's people, by id, with their role: whose archives the purge visits, as the
    /// tenant's operator.
    static let people = "select id, role::text from people where tenant_id = current_tenant_id() order by id"

    /// Deletes the person's entries archived before $1, with their files (the links go with the
    /// entries); returns how many entries and files went.
    static let purgePerson = """
        with purged as (
            delete from entries e
            where e.tenant_id = current_tenant_id() and e.author_id = current_person_id()
              and e.archived_at is not null and e.archived_at < $1
            returning e.tenant_id, e.id
        ), purged_media as (
            delete from media m
            using entry_media em, purged p
            where em.tenant_id = p.tenant_id and em.entry_id = p.id
              and m.tenant_id = em.tenant_id and m.id = em.media_id
            returning m.id
        )
        select (select count(*) from purged), (select count(*) from purged_media)
        """
}
