-- 0048_jobs_due_tenants: which tenants a background job has work in, in one statement.
--
-- The server's data-export job (every 2 s) and webhook delivery (every webhooks.delivery-
-- IntervalSeconds, 5 s) looked for work by opening a transaction per tenant per round, as that
-- tenant's operator: with 300 agencies, some 210 transactions a second that found nothing, on
-- every server running the jobs. A round now asks jobs_due_tenants() first, one statement, and
-- opens transactions only in the tenants it names (Sources/Storykeep/Core/JobContext.swift).
--
-- UNDER ROW-LEVEL SECURITY. The caller is the app role, and the function runs with its rights
-- (SECURITY INVOKER): it reads no row the job's own transactions could not. For each tenant it
-- takes that tenant's operator context, the five settings of AccountContext.tenantOperator
-- (the tenant, no person, AGENCY_ADMIN), transaction-locally as a request does, and asks the
-- same tables the job then claims from, through their policies (data_exports_visible and
-- webhook_deliveries_read admit the operator). It gives each setting back the caller's value
-- before it returns (a failure aborts the caller's transaction, settings and all). Only tenant
-- ids come out, never a row.
--
-- WHAT IS DUE, as the jobs' own statements say it:
--   'data exports'      an export PENDING, or BUILDING under a claim older than `stale`
--                       (DataExportStatements.claim), or READY and expired at `due`
--                       (DataExportStatements.expire);
--   'webhook delivery'  a delivery whose next attempt is at or before `due`
--                       (WebhookStatements.claim).
-- `among`: the tenants to look at, NULL for every tenant of the database (the server's job; a
-- test names its own, since the tests share one database).

create function jobs_due_tenants(job text, due timestamptz, stale timestamptz, among uuid[] default null)
    returns setof uuid
    language plpgsql volatile
    set search_path = public, pg_temp
as $$
declare
    -- The caller's context, given back at the end.
    names constant text[] := array['storykeep.tenant_id', 'storykeep.person_id', 'storykeep.role',
                                   'storykeep.login_name', 'storykeep.secret_hash'];
    callers text[] := array(select coalesce(current_setting(n, true), '') from unnest(names) as n);
    tenant uuid;
    found_work boolean;
begin
    perform set_config(n, '', true) from unnest(names) as n;
    if job is null or job not in ('data exports', 'webhook delivery') then
        raise exception 'jobs_due_tenants: no background job named %', coalesce(job, 'NULL')
            using errcode = 'invalid_parameter_value';
    end if;
    for tenant in
        select t.tenant_id from tenants t where among is null or t.tenant_id = any (among) order by t.tenant_id
    loop
        perform set_config('storykeep.tenant_id', tenant::text, true), set_config('storykeep.role', 'AGENCY_ADMIN', true);
        if job = 'data exports' then
            found_work := exists (select from data_exports d
                                  where d.tenant_id = tenant
                                    and (d.status = 'PENDING' or (d.status = 'BUILDING' and d.claimed_at < stale)
                                         or (d.status = 'READY' and d.expires_at <= due)));
        else
            found_work := exists (select from webhook_deliveries w where w.tenant_id = tenant and w.next_attempt_at <= due);
        end if;
        if found_work then
            return next tenant;
        end if;
    end loop;
    perform set_config(names[i], callers[i], true) from generate_subscripts(names, 1) as i;
end;
$$;

comment on function jobs_due_tenants(text, timestamptz, timestamptz, uuid[]) is
    'The tenants (among those given, or all) in which the background job ''data exports'' or ''webhook delivery'' has work due, each asked in its operator context.';

revoke all on function jobs_due_tenants(text, timestamptz, timestamptz, uuid[]) from public;
grant execute on function jobs_due_tenants(text, timestamptz, timestamptz, uuid[]) to storykeep_app;
