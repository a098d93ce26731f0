-- Tenancy: a module the agency has switched off opens nothing in the database either.
--
-- A tenant file's `modules` names the optional modules an agency enables; `tenant apply` stores
-- the file in tenants.config, so the list is `config -> 'modules'`, a JSON array of names. Until
-- now only the server read it: a module switched off lost its fields, but the rows it had written
-- kept whatever access its policies gave. For sharing that was a door left open: after an agency
-- switched sharing off, a social worker still fetched the files of entries shared with them by
-- their URL (the media endpoint is the journal's, always on), and anything added later that reads
-- shares would have read them too.
--
-- current_tenant_has_module(name) answers from the row itself, so a change reaches every server
-- and every statement at once, whatever a server's cache of tenant files holds. A policy calls it
-- as `(select current_tenant_has_module('...'))`: a sub-select with no reference to the row,
-- which PostgreSQL evaluates once per statement.

create function current_tenant_has_module(module text) returns boolean
    language sql stable parallel safe
as $$
    select coalesce(
        (select t.config -> 'modules' ? module from tenants t where t.tenant_id = (select current_tenant_id())),
        false)
$$;

comment on function current_tenant_has_module(text) is
    'Whether the tenant of the context names the optional module in its file''s modules.';

-- SHARING. A sharee reads and updates a share only while the agency has sharing on; the author
-- keeps reading their own shares (their history) either way. Everything a sharee reads of an
-- entry goes through shares_read (shares_naming_me), so the journal's widened policies close with
-- it: switched off, nothing shared is readable; switched on again, the standing shares are back
-- as they were (switching off is not unsharing).
-- EXPORT, likewise: a case-management client (CMS) and the change log's handler of an ended
-- assignment (EXPORT_LOG) read the standing shares (0018) only while the agency has the export on;
-- a client reads entries, files and tags only through shares (exportable_entries()), so switched
-- off it reads nothing, its signed links included.
alter policy shares_read on shares
    using (
        author_id = (select current_person_id())
        or (unshared_at is null and entry_archived_at is null
            and assignment_id in (select a from current_assignments_as_adult() as a)
            and (select current_tenant_has_module('sharing')))
        or ((select current_person_role()) in ('CMS', 'EXPORT_LOG') and unshared_at is null
            and (select current_tenant_has_module('export')))
    );

alter policy shares_update on shares
    using (
        author_id = (select current_person_id())
        or (unshared_at is null and entry_archived_at is null
            and assignment_id in (select a from current_assignments_as_adult() as a)
            and (select current_tenant_has_module('sharing')))
    );

-- And nobody shares while it is off.
alter policy shares_insert on shares
    with check (
        author_id = (select current_person_id())
        and assignment_id in (select a.id from assignments a
                              where a.tenant_id = (select current_tenant_id())
                                and a.young_person_id = (select current_person_id()) and a.until is null)
        and exists (select from people p
                    where p.tenant_id = shares.tenant_id and p.id = shares.sharee_id and p.disabled_at is null)
        and (select current_tenant_has_module('sharing'))
    );
