-- 0006_accounts_login_failures_per_person: failed logins count per person, whichever of their names
-- was typed; per name only for names nobody has (issue 16, item 4).
--
-- WHY
--
-- 0002 counted per login name, so someone with both a username and an email had two sets of free
-- attempts and two back-offs. Now a name that belongs to someone counts on that person's row
-- (person_id); a name nobody has counts on a row of its own (login_name), so that unknown names
-- still cost the same and say nothing. Each row has exactly one of the two.
--
-- The count and the judgement are one step: Sources/Storykeep/Accounts/LoginFailures.swift takes a
-- transaction-level advisory lock on (tenant, person or name) before reading the row, so concurrent
-- attempts on one person or name queue even before there is a row to lock. (0002 locked the row
-- with SELECT ... FOR UPDATE, which locks nothing while no row exists: the first attempts of a
-- burst were all judged, one more than the free attempts allow.)

alter table login_failures drop constraint login_failures_pkey;
alter table login_failures add column id uuid not null default gen_random_uuid();
alter table login_failures add primary key (tenant_id, id);
alter table login_failures add column person_id uuid;
alter table login_failures alter column login_name drop not null;
alter table login_failures add constraint login_failures_person
    foreign key (tenant_id, person_id) references people (tenant_id, id);
alter table login_failures add constraint login_failures_one_subject
    check ((person_id is null) <> (login_name is null));

-- One row per person and per name; also what the upserts' ON CONFLICT name.
create unique index login_failures_person_row on login_failures (tenant_id, person_id);
create unique index login_failures_name_row on login_failures (tenant_id, login_name);

-- The counts in flight move to their people: the failures of each of someone's names add up, the
-- latest failure is theirs. Row-level security is lifted for these statements only, inside this
-- migration's transaction (0001: a data migration across tenants).
alter table login_failures no force row level security;
alter table people no force row level security;

insert into login_failures (tenant_id, person_id, failures, last_failure_at)
select f.tenant_id, p.id, least(sum(f.failures), 2147483647)::integer, max(f.last_failure_at)
from login_failures f
join people p on p.tenant_id = f.tenant_id and (p.username_key = f.login_name or p.email_key = f.login_name)
group by f.tenant_id, p.id;

delete from login_failures f
using people p
where p.tenant_id = f.tenant_id and (p.username_key = f.login_name or p.email_key = f.login_name);

alter table login_failures force row level security;
alter table people force row level security;

-- Who sees a row: a LOGIN, the row of the person its name belongs to (the subquery sees that
-- person only, by people_visible) or else the row of the name itself; and a person, their own
-- (changePassword counts a wrong current password; activation forgets the count).
drop policy login_failures_own_name on login_failures;
create policy login_failures_subject on login_failures as restrictive
    using (
        person_id = (select current_person_id())
        or ((select current_person_role()) = 'LOGIN'
            and (login_name = (select current_login_name())
                 or person_id in (select p.id from people p
                                  where p.tenant_id = login_failures.tenant_id
                                    and (p.username_key = (select current_login_name())
                                         or p.email_key = (select current_login_name())))))
    )
    with check (
        person_id = (select current_person_id())
        or ((select current_person_role()) = 'LOGIN'
            and (login_name = (select current_login_name())
                 or person_id in (select p.id from people p
                                  where p.tenant_id = login_failures.tenant_id
                                    and (p.username_key = (select current_login_name())
                                         or p.email_key = (select current_login_name())))))
    );
