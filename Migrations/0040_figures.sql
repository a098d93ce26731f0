-- 0040_figures: the agency's figures (issue 17, the COVID apps' anonymous metrics):
-- `agencyFigures(from, to)` gives an agency admin how many young people were active each week,
-- how many check-ins, entries of each kind, shares and safety alerts there were, and how long an
-- alert waited to be acknowledged. Counts only; the server shows any count under 5 as "<5".
--
-- WHY SECURITY DEFINER FUNCTIONS. Row-level security rightly hides a young person's entries,
-- shares and most safety alerts from an agency admin: an admin must not read them, and cannot
-- count what they cannot read. So each group of figures is one function owned by the migration
-- role, which the app role may call and which answers counts alone: it checks that the caller is
-- an agency admin (the request's context, as the policies read it), then runs one aggregate
-- statement. The tables force row-level security on their owner too, so the functions are bound
-- by the policies like anyone: the permissive tenant policies hold them to the caller's tenant,
-- and the restrictive read policies of the tables counted admit, besides what they admitted, the
-- counting in progress: `(select figures_counting())`, true only for statements running as the
-- owner while one of these functions has set `storykeep.counting` (the app role could set the
-- setting itself, but never passes the test of figures_counting()). No function returns a row of
-- a table, an id or a text a person wrote.
--
-- COST ON A BIG TENANT. Each function is one statement over a range of time of one tenant, read
-- by an index on (tenant_id, moment) added below, whatever the tenant's size outside the range;
-- the server asks for at most a year.

-- THE COUNTING IN PROGRESS. Set transaction-locally by the functions below around their statement.
create function figures_counting() returns boolean
    language sql stable
    return current_user <> 'storykeep_app' and current_setting('storykeep.counting', true) = 'on';

comment on function figures_counting() is
    'Whether an agency_figures_*() function is counting in this transaction (always false for storykeep_app).';

-- The read policies of the tables counted admit the counting in progress, first, so that the rest
-- of each policy (the shares probes) is not evaluated for the rows counted.
do $$
declare
    p record;
begin
    for p in
        select tablename, policyname, qual from pg_policies
        where schemaname = 'public' and permissive = 'RESTRICTIVE' and cmd in ('SELECT', 'ALL')
          and (tablename, policyname) in (
              ('entries', 'entries_read'), ('shares', 'shares_parties'), ('shares', 'shares_read'),
              ('safety_alerts', 'safety_alerts_read'))
    loop
        execute format('alter policy %I on %I using ((select figures_counting()) or (%s))', p.policyname, p.tablename, p.qual);
    end loop;
end;
$$;

-- The moments the figures count from, by tenant. Entries: the young people's journals (kind and
-- author ride along, so that counting reads the index alone where the visibility map allows).
create index entries_created on entries (tenant_id, created_at) include (author_id, kind);
create index shares_shared on shares (tenant_id, shared_at);
create index safety_alerts_raised on safety_alerts (tenant_id, raised_at) include (acknowledged_at);

-- Raises insufficient_privilege unless the context's person is an agency admin of a tenant.
create function figures_require_admin() returns void
    language plpgsql stable
    set search_path = public, pg_temp
as $$
begin
    if current_tenant_id() is null or current_person_role() is distinct from 'AGENCY_ADMIN' then
        raise exception 'only an agency admin reads the agency''s figures' using errcode = 'insufficient_privilege';
    end if;
end;
$$;

-- ENTRIES AND CHECK-INS written by young people from `first_day` to `last_day` (days of the zone
-- `zone`, the tenant's): one row per week (Monday, in `zone`) with the young people who wrote an
-- entry or checked in that week (`kind` null), and one row per kind with the entries of that kind
-- (`week` null; MOOD is a check-in). Entries purged since are not counted; archived ones are.
create function agency_figures_entries(first_day date, last_day date, zone text)
    returns table (week date, kind text, entries bigint, young_people bigint)
    language plpgsql security definer
    set search_path = public, pg_temp
as $$
begin
    perform figures_require_admin();
    perform set_config('storykeep.counting', 'on', true);
    return query
        select date_trunc('week', e.created_at at time zone zone)::date, e.kind, count(*), count(distinct e.author_id)
        from entries e
        join people p on p.tenant_id = e.tenant_id and p.id = e.author_id and p.role = 'YOUNG_PERSON'
        where e.tenant_id = current_tenant_id()
          and e.created_at >= first_day::timestamp at time zone zone
          and e.created_at < (last_day + 1)::timestamp at time zone zone
        group by grouping sets ((date_trunc('week', e.created_at at time zone zone)::date), (e.kind));
    perform set_config('storykeep.counting', '', true);
end;
$$;

-- SHARES young people made from `first_day` to `last_day` (in `zone`), standing or unshared since.
create function agency_figures_shares(first_day date, last_day date, zone text) returns bigint
    language plpgsql security definer
    set search_path = public, pg_temp
as $$
declare
    made bigint;
begin
    perform figures_require_admin();
    perform set_config('storykeep.counting', 'on', true);
    select count(*) into made
    from shares s
    where s.tenant_id = current_tenant_id()
      and s.shared_at >= first_day::timestamp at time zone zone
      and s.shared_at < (last_day + 1)::timestamp at time zone zone;
    perform set_config('storykeep.counting', '', true);
    return made;
end;
$$;

-- SAFETY ALERTS raised from `first_day` to `last_day` (in `zone`): how many, how many of them have
-- been acknowledged, and the median of the seconds from raising to acknowledging among those
-- (percentile_cont(0.5): with an even number, the mean of the two middle ones; null for none).
create function agency_figures_safety(first_day date, last_day date, zone text)
    returns table (raised bigint, acknowledged bigint, median_seconds double precision)
    language plpgsql security definer
    set search_path = public, pg_temp
as $$
begin
    perform figures_require_admin();
    perform set_config('storykeep.counting', 'on', true);
    return query
        select count(*), count(a.acknowledged_at),
            percentile_cont(0.5) within group (order by extract(epoch from a.acknowledged_at - a.raised_at)::double precision)
        from safety_alerts a
        where a.tenant_id = current_tenant_id()
          and a.raised_at >= first_day::timestamp at time zone zone
          and a.raised_at < (last_day + 1)::timestamp at time zone zone;
    perform set_config('storykeep.counting', '', true);
end;
$$;

revoke all on function figures_require_admin() from public;
revoke all on function agency_figures_entries(date, date, text) from public;
revoke all on function agency_figures_shares(date, date, text) from public;
revoke all on function agency_figures_safety(date, date, text) from public;
grant execute on function agency_figures_entries(date, date, text) to storykeep_app;
grant execute on function agency_figures_shares(date, date, text) to storykeep_app;
grant execute on function agency_figures_safety(date, date, text) to storykeep_app;

select privacy_admit_erasure();
