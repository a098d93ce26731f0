-- 0047_export_feed_probes: a case-management client's page of the feed costs a few index probes
-- per entry, however large the agency (issue 14's benchmark: 5,000 entries a second with their
-- documents).
--
-- A page (ExportStatements) reads 500 entries, their tags, shares and files, in the client's
-- context, and every row it reads passes the journal's read policies, whose CMS arm asks
-- exportable_entries() (0018) about that row's entry. Two things made each of those questions
-- dear:
--
-- 1. exportable_entries() joined shares to assignments, and PostgreSQL ran the join, inside each
--    per-row probe, as a hash of the tenant's current assignments built anew for every row: a
--    scan of all of them per entry, which grows with the agency (29 rows per probe for a tenant
--    of 60 people; thousands for a local authority). It now asks for the share's assignment by
--    its key (`exists ... offset 0`, the fence 0025 uses: PostgreSQL does not turn a subquery
--    with an OFFSET into a join), one index probe. What it returns is unchanged: the entries with
--    a standing share, not archived, made in a current assignment that the tenant's export scope
--    counts.
--
-- 2. The journal's read policies of entries, entry_tags and entry_media asked the sharee's
--    question (shares_naming_me(), a probe of the entry's shares for one naming the person
--    acting) before the client's, and a client has no person, so every row a client read paid
--    for that probe first and found nothing. The client's arm now comes before the sharee's.
--    Reordering the arms of an OR changes nothing of what it admits; a person's reads skip the
--    client's arm at once (`current_person_role() = 'CMS'` is a value computed once per
--    statement).
--
-- The tags of a page are read by their keys, each once (ExportStatements.tags), so tags_read's
-- probe of a tag's links runs for the page's tags only, not for every tag of the agency; that
-- needs no SQL here.

create or replace function exportable_entries() returns table (tenant_id uuid, entry_id uuid)
    language sql stable parallel safe
as $$
    select s.tenant_id, s.entry_id from shares s
    where s.tenant_id = (select current_tenant_id()) and s.unshared_at is null and s.entry_archived_at is null
      and exists (select from assignments a
                  where a.tenant_id = s.tenant_id and a.id = s.assignment_id and a.until is null
                    and (a.relationship = 'SOCIAL_WORKER'
                         or (select t.config #>> '{export,scope}' from tenants t
                             where t.tenant_id = (select current_tenant_id())) = 'anyAdult')
                  offset 0)
$$;

alter policy entries_read on entries
    using (
        author_id = (select current_person_id())
        or ((select current_person_role()) = 'CMS'
            and exists (select from exportable_entries() x
                        where x.tenant_id = entries.tenant_id and x.entry_id = entries.id
                        offset 0))
        or (archived_at is null
            and exists (select from shares_naming_me() s
                        where s.tenant_id = entries.tenant_id and s.entry_id = entries.id
                        offset 0))
    );

alter policy entry_media_read on entry_media
    using (
        author_id = (select current_person_id())
        or ((select current_person_role()) = 'CMS'
            and exists (select from exportable_entries() x
                        where x.tenant_id = entry_media.tenant_id and x.entry_id = entry_media.entry_id
                        offset 0))
        or exists (select from shares_naming_me() s
                   where s.tenant_id = entry_media.tenant_id and s.entry_id = entry_media.entry_id
                   offset 0)
    );

alter policy entry_tags_read on entry_tags
    using (
        author_id = (select current_person_id())
        or ((select current_person_role()) = 'CMS'
            and exists (select from exportable_entries() x
                        where x.tenant_id = entry_tags.tenant_id and x.entry_id = entry_tags.entry_id
                        offset 0))
        or exists (select from shares_naming_me() s
                   where s.tenant_id = entry_tags.tenant_id and s.entry_id = entry_tags.entry_id
                   offset 0)
    );

-- The erasure in progress, in the three policies written here (0031).
select privacy_admit_erasure();
