-- 0054_figures_faster_entries: the agency's figures for a year in a fraction of the time
-- (issue 17). On a tenant of 150,000 entries in a year, agency_figures_entries() took 1.9 s, and
-- 3.4-3.9 s on a busy server, near the request's 5 s statement timeout. Three causes:
--
-- 1. JIT. The read policies of entries and people put many sub-plans into the plan, so its
--    estimated cost passes jit_above_cost and PostgreSQL compiled some 190 functions before
--    counting (0.7-0.9 s). A statement of these functions never runs long enough to repay that:
--    they run with jit off.
-- 2. The join with people (only young people's entries count) came first: a nested loop that read
--    the (tenant_id, id, author_id) index once per young person (466,000 buffers, 0.8 s). Now the
--    entries of the range are counted first, by week, kind and author (one pass over the range,
--    some 41,000 groups), and only those groups meet people.
-- 3. Sorting the range's rows spilled to disk under the default work_mem: the function runs with
--    32 MB, an admin's occasional request.
--
-- The figures are the same (checked on the seeded tenant: every row equal); the guard is
-- unchanged: the caller must be an agency admin, and the tables' policies admit the counting in
-- progress only (0040). CREATE OR REPLACE keeps the functions' owner and grants.

create or replace function agency_figures_entries(first_day date, last_day date, zone text)
    returns table (week date, kind text, entries bigint, young_people bigint)
    language plpgsql security definer
    set search_path = public, pg_temp
    set jit = off
    set work_mem = '32MB'
as $$
begin
    perform figures_require_admin();
    perform set_config('storykeep.counting', 'on', true);
    return query
        with counted as materialized (
            select date_trunc('week', e.created_at at time zone zone)::date as week, e.kind, e.author_id, count(*) as entries
            from entries e
            where e.tenant_id = current_tenant_id()
              and e.created_at >= first_day::timestamp at time zone zone
              and e.created_at < (last_day + 1)::timestamp at time zone zone
            group by 1, 2, 3
        )
        select c.week, c.kind, sum(c.entries)::bigint, count(distinct c.author_id)
        from counted c
        join people p on p.tenant_id = current_tenant_id() and p.id = c.author_id and p.role = 'YOUNG_PERSON'
        group by grouping sets ((c.week), (c.kind));
    perform set_config('storykeep.counting', '', true);
end;
$$;

alter function agency_figures_shares(date, date, text) set jit = off;
alter function agency_figures_safety(date, date, text) set jit = off;
