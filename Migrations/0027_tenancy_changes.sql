-- Tenancy: running servers hear of a tenant change when it commits.
--
-- Each server keeps the enabled tenants in memory (routing a request costs no query) and used to
-- re-read them every `tenants.refreshSeconds` (30 s): an update or a `tenant disable` took that long
-- to reach it. Now every statement that changes the tenants table sends a notification on
-- `storykeep_tenants`, delivered when its transaction commits (never for a rolled-back one), and
-- each server's listener (DatabaseListenerService) re-reads the tenants at once. The payload is empty:
-- a server re-reads them all, as its periodic refresh does, which stays as the fallback.

create function tenants_changed() returns trigger
    language plpgsql
as $$
begin
    perform pg_notify('storykeep_tenants', '');
    return null;
end;
$$;

comment on function tenants_changed() is
    'Tells the servers listening on storykeep_tenants that the tenants changed (at commit).';

create trigger tenants_changed after insert or update or delete on tenants
    for each statement execute function tenants_changed();
