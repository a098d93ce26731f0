/// The SQL of the export feed and its change log (Migrations/0018_export_feed.sql), read in a
/// client's context (a CMS sees only what is exportable) or written in the context of whoever
/// made the change. Values only as the parameters listed above each statement.
enum ExportStatements {
    /// Notes a change of the entry $1.
    static let logChange = "insert into export_changes (tenant_id, entry_id) values (current_tenant_id(), $1)"

    /// Whether a standing share of the entry $1 exists, as the author sees their shares: an edit,
    /// archive or restore of an entry never shared changes nothing a client holds.
    static let isShared = """
        select exists (select from shares where tenant_id = current_tenant_id() and entry_id = $1 and unshared_at is null)
        """

    /// In the EXPORT_LOG context: notes a change of each entry with a standing share made in the
    /// assignment $1.
    static let logAssignmentEnded = """
        insert into export_changes (tenant_id, entry_id)
        select distinct s.tenant_id, s.entry_id from shares s
        where s.tenant_id = current_tenant_id() and s.assignment_id = $1 and s.unshared_at is null
        """

    /// `storykeep seed`, as EXPORT_LOG: notes a change of each entry with a standing share, in
    /// the order of its first standing share. Returns how many.
    static let seedChanges = """
        with noted as (
            insert into export_changes (tenant_id, entry_id)
            select s.tenant_id, s.entry_id from shares s
            where s.tenant_id = current_tenant_id() and s.unshared_at is null
            group by s.tenant_id, s.entry_id
            order by min(s.shared_at), s.entry_id
            returning 1
        )
        select count(*) from noted
        """

    /// Up to $3 changes after the position ($1 transaction, $2 sequence), in the feed's order,
    /// among those whose transactions have all ended (see THE CURSOR in the migration): each
    /// change's transaction id (as text), sequence and entry.
    static let changes = """
        select c.xid::text, c.sequence, c.entry_id from export_changes c
        where c.tenant_id = current_tenant_id()
          and (c.xid, c.sequence) > ($1::text::xid8, $2::bigint)
          and c.xid < pg_snapshot_xmin(pg_current_snapshot())
        order by c.xid, c.sequence
        limit $3
        """

    /// The entries among the ids $1 the client may hold, with their young person: id, author id,
    /// day, kind, text, mood, background, created_at, updated_at, the author's case reference
    /// and name.
    static let entries = """
        select e.id, e.author_id, e.day, e.kind, e.body, e.mood, e.background, e.created_at, e.updated_at,
               p.external_ref, p.display_name
        from entries e join people p on p.tenant_id = e.tenant_id and p.id = e.author_id
        where e.tenant_id = current_tenant_id() and e.id = any($1::uuid[])
        """

    /// The tags of the entries $1: entry id and tag name, by name. Each tag of the page is read
    /// once, by its key: tags_read asks whether the client may read one of the tag's links, a
    /// probe per tag, so it must run for these tags only, not for each link nor for every tag of
    /// the agency (which PostgreSQL would scan to hash them, but for the lateral subquery's
    /// `offset 0`; Migrations/0047_export_feed_probes.sql).
    static let tags = """
        with links as materialized (
            select et.entry_id, et.tag_id from entry_tags et
            where et.tenant_id = current_tenant_id() and et.entry_id = any($1::uuid[])
        ), named as materialized (
            select t.id, t.name, t.name_key
            from (select distinct l.tag_id from links l) page
            cross join lateral (
                select t.id, t.name, t.name_key from tags t
                where t.tenant_id = current_tenant_id() and t.id = page.tag_id
                offset 0
            ) t
        )
        select l.entry_id, n.name from links l join named n on n.id = l.tag_id
        order by n.name_key
        """

    /// The standing shares of the entries $1, oldest first: entry id, the sharee's id, case
    /// reference and name, the relationship, shared_at and the young person's message.
    static let shares = """
        select s.entry_id, p.id, p.external_ref, p.display_name, a.relationship::text, s.shared_at, s.message
        from shares s
        join people p on p.tenant_id = s.tenant_id and p.id = s.sharee_id
        join assignments a on a.tenant_id = s.tenant_id and a.id = s.assignment_id
        where s.tenant_id = current_tenant_id() and s.entry_id = any($1::uuid[]) and s.unshared_at is null
        order by s.shared_at, s.id
        """

    /// The files of the entries $1, in order: entry id, file id, content type, size, SHA-256.
    static let media = """
        select em.entry_id, m.id, m.content_type, m.byte_size, m.sha256
        from entry_media em join media m on m.tenant_id = em.tenant_id and m.id = em.media_id
        where em.tenant_id = current_tenant_id() and em.entry_id = any($1::uuid[])
        order by em.entry_id, em.position
        """

    /// The bytes of the images among the files $1: file id and bytes.
    static let imageBytes = """
        select m.id, m.bytes from media m
        where m.tenant_id = current_tenant_id() and m.id = any($1::uuid[]) and m.content_type like 'image/%'
        """

    /// Up to $2 young people of the tenant after the id $1 (null: from the first), by id: id,
    /// case reference, name, and their current social worker (the longest assigned): id, case
    /// reference and name.
    static let youngPeople = """
        select p.id, p.external_ref, p.display_name, w.id, w.external_ref, w.display_name
        from people p
        left join lateral (
            select a.adult_id from assignments a
            where a.tenant_id = p.tenant_id and a.young_person_id = p.id and a.until is null and a.relationship = 'SOCIAL_WORKER'
            order by a.since, a.id limit 1
        ) sw on true
        left join people w on w.tenant_id = p.tenant_id and w.id = sw.adult_id
        where p.tenant_id = current_tenant_id() and p.role = 'YOUNG_PERSON' and ($1::uuid is null or p.id > $1::uuid)
        order by p.id
        limit $2
        """
}
