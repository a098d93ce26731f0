-- Sharing: the sharee's read policies probe one entry's shares, row by row.
--
-- 0012 widened the journal's read policies for sharees with a second arm, "a standing share of
-- this entry names me" (`exists (select from shares_naming_me() s where ...)`), and the tags' and
-- files' policies with "a link of this tag (file) that I may read". PostgreSQL may run such an
-- EXISTS two ways: once per row, as an index probe (shares_standing, entry_tags_tag,
-- entry_media's key), or once per statement, as a hash of every row of the subquery. It judges
-- between them by its estimate of how many shares name the person, and that estimate is one row:
-- the parties and read policies of `shares` multiply their selectivities down to nothing. So it
-- hashed, and a social worker with 30 young people who shared 1,000 entries each paid for reading
-- all 30,000 of their shares (each one judged by shares_read) on every statement that touched a
-- tag: 20 to 30 ms for the tags of one page of sharedWithMe, against 0.4 ms with the probes.
--
-- `offset 0` in each EXISTS keeps it a correlated probe: PostgreSQL does not turn a subquery with
-- an OFFSET into a hash or a join. The sharee's reads always start from a few rows (a page, an
-- entry by id, a file by id), so a probe per row is what they want; the author's own reads never
-- reach the second arm (the first, `author_id = me`, answers). What each policy lets through is
-- unchanged: the same conditions, under the same policies of the tables they read (0018's, which
-- added a case-management client's arm to the journal's: its probe of exportable_entries() is
-- fenced the same way, since a client too reads a page of entries at a time, by id).

alter policy entries_read on entries
    using (
        author_id = (select current_person_id())
        or (archived_at is null
            and exists (select from shares_naming_me() s
                        where s.tenant_id = entries.tenant_id and s.entry_id = entries.id
                        offset 0))
        or ((select current_person_role()) = 'CMS'
            and exists (select from exportable_entries() x
                        where x.tenant_id = entries.tenant_id and x.entry_id = entries.id
                        offset 0))
    );

alter policy entry_media_read on entry_media
    using (
        author_id = (select current_person_id())
        or exists (select from shares_naming_me() s
                   where s.tenant_id = entry_media.tenant_id and s.entry_id = entry_media.entry_id
                   offset 0)
        or ((select current_person_role()) = 'CMS'
            and exists (select from exportable_entries() x
                        where x.tenant_id = entry_media.tenant_id and x.entry_id = entry_media.entry_id
                        offset 0))
    );

alter policy entry_tags_read on entry_tags
    using (
        author_id = (select current_person_id())
        or exists (select from shares_naming_me() s
                   where s.tenant_id = entry_tags.tenant_id and s.entry_id = entry_tags.entry_id
                   offset 0)
        or ((select current_person_role()) = 'CMS'
            and exists (select from exportable_entries() x
                        where x.tenant_id = entry_tags.tenant_id and x.entry_id = entry_tags.entry_id
                        offset 0))
    );

-- A file: its owner's, and a sharee's while it is attached to an entry they may read (the probe
-- sees only the links entry_media_read shows them).
alter policy media_read on media
    using (
        owner_id = (select current_person_id())
        or exists (select from entry_media em
                   where em.tenant_id = media.tenant_id and em.media_id = media.id
                   offset 0)
    );

-- A tag: its owner's, and a sharee's while it is on an entry they may read (the probe walks the
-- tag's links, entry_tags_tag, until entry_tags_read shows it one).
alter policy tags_read on tags
    using (
        owner_id = (select current_person_id())
        or exists (select from entry_tags et
                   where et.tenant_id = tags.tenant_id and et.tag_id = tags.id
                   offset 0)
    );
