-- 0049_figures_admit_counting: the agency's figures count again what 0047 stopped them counting.
--
-- 0040 wrote "(select figures_counting()) or" at the front of the read policies of the tables the
-- figures count (entries_read, shares_parties, shares_read, safety_alerts_read), so that the
-- agency_figures_*() functions may count rows an admin cannot read. 0047 rewrote entries_read
-- (the export's condition first) from its own text, without that clause: since then the figures
-- counted only the entries the admin could read. figures_admit_counting() writes the clause into
-- each of those policies that lacks it; a later migration that rewrites one of them ends with
-- `select figures_admit_counting();`, as it ends with `select privacy_admit_erasure();`.

create function figures_admit_counting() returns void
    language plpgsql
    set search_path = public, pg_temp
as $$
declare
    p record;
begin
    for p in
        select tablename, policyname, qual from pg_policies
        where schemaname = 'public' and permissive = 'RESTRICTIVE' and cmd in ('SELECT', 'ALL')
          and (tablename, policyname) in (
              ('entries', 'entries_read'), ('shares', 'shares_parties'), ('shares', 'shares_read'),
              ('safety_alerts', 'safety_alerts_read'))
          and qual not like '%figures_counting()%'
    loop
        execute format('alter policy %I on %I using ((select figures_counting()) or (%s))', p.policyname, p.tablename, p.qual);
    end loop;
end;
$$;

comment on function figures_admit_counting() is
    'Writes the counting clause of the agency''s figures into the read policies they count through: a migration''s last statement after it rewrites one.';

select figures_admit_counting();
select privacy_admit_erasure();
