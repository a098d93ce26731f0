-- 0004_journals_author_only: the journal's read policies become `author = me` alone; the PURGE
-- pseudo-role of 0003 goes, and the archive's clean-up acts in each author's own context.
--
-- WHY
--
-- 0003's read policies said `author_id = me OR (role = 'PURGE' AND archived_at IS NOT NULL)`.
-- PostgreSQL adds a policy's condition to every query on the table, and an OR there cannot be
-- an index condition as a whole: for the journal's first page (newest 21 entries of one person
-- among 175,000 of 21 people) the planner gave up the backward scan of entries_timeline that
-- stops after 21 rows for a bitmap scan of all the person's rows OR-ed with the archive index,
-- then a sort: 37-53 ms instead of 0.1 ms. With the plain `author_id = me` policy the same query
-- reads 21 index entries (measured with EXPLAIN ANALYZE on a development cluster).
--
-- HOW THE PURGE WORKS NOW
--
-- `ArchivePurge` (Sources/Storykeep/Archive/ArchiveStore.swift) lists the tenant's people as the
-- tenant's operator (admins see people, not journals), then, in the same transaction, switches to
-- each person's own context and deletes *their* entries archived before the cut-off. So an
-- archived entry is still visible to its author alone, and the only deletions the policies allow
-- are of archived entries, by their author: a server bug can destroy no live entry.
--
-- SHARING (a later migration) widens the `..._read` policies below, as 0003 says.

drop policy entries_read on entries;
create policy entries_read on entries as restrictive for select
    using (author_id = (select current_person_id()));

drop policy entries_delete on entries;
create policy entries_delete on entries as restrictive for delete
    using (author_id = (select current_person_id()) and archived_at is not null);

drop policy entry_media_read on entry_media;
create policy entry_media_read on entry_media as restrictive for select
    using (author_id = (select current_person_id()));

drop policy media_read on media;
create policy media_read on media as restrictive for select
    using (owner_id = (select current_person_id()));

-- A file goes only with an archived entry of its owner's (the subquery sees the owner's entries).
drop policy media_delete on media;
create policy media_delete on media as restrictive for delete
    using (
        owner_id = (select current_person_id())
        and id in (select em.media_id from entry_media em
                   join entries e on e.tenant_id = em.tenant_id and e.id = em.entry_id
                   where em.tenant_id = media.tenant_id and e.archived_at is not null)
    );
