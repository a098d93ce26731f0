-- 0018_export_feed: what a case-management client may read, and the change log it pulls.
--
-- WHAT IS EXPORTABLE
--
-- An entry is exportable while it is not archived and a standing share of it names an adult whose
-- assignment to its author, the one the share was made in, is current and, under the tenant
-- file's `export.scope`, is a SOCIAL_WORKER assignment (`socialWorker`, the default) or any
-- (`anyAdult`). The scope is read from the tenant's stored file (tenants.config, which
-- storykeep_app reads through 0001's tenants_directory), so applying a changed file changes what
-- clients see at once. The predicate is exportable_entries() below, over shares and assignments,
-- which a CMS context reads as widened here.
--
-- WHAT A CMS READS (the role of 0017's authenticated client; no person)
--
--   entries, entry_media, entry_tags   the exportable entries and their links (widened here);
--   media, tags                        those on the links it sees (0012's policies already say
--                                      "attached to an entry link I may read");
--   shares                             the standing shares of live entries (ids, when, message);
--   assignments                        the tenant's, current and past (who is whose social worker);
--   people                             the tenant's young people and adults, never its admins
--                                      (the API shows id, case reference and name only);
--   export_changes                     the tenant's change log.
--
-- Nothing else: not a private entry, an archived one, an unshared one, a carer's share under the
-- `socialWorker` scope, sessions, credentials, notifications, another tenant's anything.
--
-- EXPORT_LOG is the pseudo-role the export module's handlers take for one statement to find the
-- entries shared in an assignment an admin just ended (an admin does not read shares): it sees
-- the tenant's standing shares, ids only, and nothing else.

-- SHARES AND ASSIGNMENTS, WIDENED (replacing 0012's shares_parties and shares_read and 0010's
-- assignments_read, each with one arm more).

drop policy shares_parties on shares;
create policy shares_parties on shares as restrictive
    using ((select current_person_id()) = any (array[author_id, sharee_id])
           or (select current_person_role()) in ('CMS', 'EXPORT_LOG'))
    with check ((select current_person_id()) = any (array[author_id, sharee_id]));

drop policy shares_read on shares;
create policy shares_read on shares as restrictive for select
    using (
        author_id = (select current_person_id())
        or (unshared_at is null and entry_archived_at is null
            and assignment_id in (select a from current_assignments_as_adult() as a))
        or ((select current_person_role()) in ('CMS', 'EXPORT_LOG') and unshared_at is null)
    );

drop policy assignments_read on assignments;
create policy assignments_read on assignments as restrictive for select
    using (
        young_person_id = (select current_person_id())
        or adult_id = (select current_person_id())
        or (select current_person_role()) in ('AGENCY_ADMIN', 'CMS')
    );

-- THE EXPORTABLE ENTRIES of the tenant acting, as far as the policies of shares and assignments
-- let the caller see (a CMS: all of them). A SQL function, stable, of one SELECT: inlined where a
-- policy calls it in a FROM, as 0012's shares_naming_me().
create function exportable_entries() returns table (tenant_id uuid, entry_id uuid)
    language sql stable parallel safe
as $$
    select s.tenant_id, s.entry_id from shares s
    join assignments a on a.tenant_id = s.tenant_id and a.id = s.assignment_id
    where s.tenant_id = (select current_tenant_id()) and s.unshared_at is null and s.entry_archived_at is null
      and a.until is null
      and (a.relationship = 'SOCIAL_WORKER'
           or (select t.config #>> '{export,scope}' from tenants t where t.tenant_id = (select current_tenant_id())) = 'anyAdult')
$$;

comment on function exportable_entries() is
    'The entries of the tenant acting that its export scope lets a case-management client hold (tenant and entry).';

-- THE JOURNAL, WIDENED FOR A CMS (replacing 0012's read policies of entries, entry_media and
-- entry_tags, each with one arm more).

drop policy entries_read on entries;
create policy entries_read on entries as restrictive for select
    using (
        author_id = (select current_person_id())
        or (archived_at is null
            and exists (select from shares_naming_me() s
                        where s.tenant_id = entries.tenant_id and s.entry_id = entries.id))
        or ((select current_person_role()) = 'CMS'
            and exists (select from exportable_entries() x where x.tenant_id = entries.tenant_id and x.entry_id = entries.id))
    );

drop policy entry_media_read on entry_media;
create policy entry_media_read on entry_media as restrictive for select
    using (
        author_id = (select current_person_id())
        or exists (select from shares_naming_me() s where s.tenant_id = entry_media.tenant_id and s.entry_id = entry_media.entry_id)
        or ((select current_person_role()) = 'CMS'
            and exists (select from exportable_entries() x
                        where x.tenant_id = entry_media.tenant_id and x.entry_id = entry_media.entry_id))
    );

drop policy entry_tags_read on entry_tags;
create policy entry_tags_read on entry_tags as restrictive for select
    using (
        author_id = (select current_person_id())
        or exists (select from shares_naming_me() s where s.tenant_id = entry_tags.tenant_id and s.entry_id = entry_tags.entry_id)
        or ((select current_person_role()) = 'CMS'
            and exists (select from exportable_entries() x
                        where x.tenant_id = entry_tags.tenant_id and x.entry_id = entry_tags.entry_id))
    );

-- WHO SEES A PERSON (replacing 0010's people_visible, with one arm more): a CMS, the tenant's
-- young people and adults, not its admins.
drop policy people_visible on people;
create policy people_visible on people as restrictive for select
    using (
        id = (select current_person_id())
        or (select current_person_role()) = 'AGENCY_ADMIN'
        or ((select current_person_role()) = 'LOGIN'
            and (username_key = (select current_login_name()) or email_key = (select current_login_name())))
        or ((select current_person_role()) = 'AUTHENTICATION'
            and id in (select s.person_id from sessions s
                       where s.tenant_id = people.tenant_id and s.token_hash = (select current_secret_hash())))
        or id in (select p from current_assigned_people() as p)
        or ((select current_person_role()) = 'CMS' and role <> 'AGENCY_ADMIN')
    );

-- THE CHANGE LOG
--
-- One row per change that may alter what a client holds of an entry: shared, unshared, edited
-- while shared, archived, restored, an assignment it was shared in ended. Written by the export
-- module's handlers in the transaction of the change, so it commits or rolls back with it. A row
-- says only which entry to look at again; what the client gets (UPSERT with the entry as it is
-- now, or TOMBSTONE when it is no longer exportable) is decided when it is read. A row holds no
-- content, so any context of the tenant may add one: a forged row could only make a client read
-- an entry again. Append-only: no UPDATE or DELETE for the app role.
--
-- THE CURSOR NEVER PASSES A CHANGE THAT MAY STILL COMMIT
--
-- `sequence` is drawn when a row is inserted, not when its transaction commits, so a reader that
-- took the rows up to the highest sequence it saw could pass a lower one whose transaction
-- commits later. Instead each row keeps its transaction's id (xid8, which never wraps), and a
-- reader takes only rows whose transaction is older than the oldest one still in progress,
-- pg_snapshot_xmin(pg_current_snapshot()): every such transaction has ended, so no row below
-- that horizon can appear later. Rows are read in (xid, sequence) order and the cursor is the
-- last (xid, sequence) read: whatever commits later has a larger xid than the horizon, and so
-- sorts after the cursor. A long transaction holds the feed back until it ends; it never makes
-- it skip.

create table export_changes (
    tenant_id uuid not null references tenants (tenant_id),
    sequence bigint generated always as identity,
    entry_id uuid not null,
    xid xid8 not null default pg_current_xact_id(),
    changed_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, sequence)
);

-- The feed, in the order it is read.
create index export_changes_feed on export_changes (tenant_id, xid, sequence);

alter table export_changes enable row level security;
alter table export_changes force row level security;

create policy export_changes_tenant on export_changes
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Read by clients alone.
create policy export_changes_read on export_changes as restrictive for select
    using ((select current_person_role()) = 'CMS');

grant select, insert on export_changes to storykeep_app;
