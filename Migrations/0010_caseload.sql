-- 0010_caseload: who looks after whom. Agency admins assign adults (social workers, carers, other
-- professionals) to young people; each assignment runs from `since` until `until`, and an ended
-- one stays as it ended: the history of who looked after a child is kept, never deleted.
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- next to each table narrow them.
--
-- WHO SEES WHOM
--
-- Until now a person saw only their own `people` and `profiles` rows (0002, 0003). A current
-- assignment widens that, for the two people it joins and for as long as it runs: an adult sees
-- the person row and profile of each young person they are currently assigned to, a young person
-- those of each adult currently assigned to them. Not other adults of the same young person, not
-- the young people of a colleague, nothing after the assignment ends. The widening is by row:
-- PostgreSQL's row-level security cannot hide columns from one person and show them to another,
-- so the API shows such a person only through types without their email, username or case
-- reference (CaseloadPerson, TeamMember in Schema/caseload.graphql): privacy by shape there,
-- by row here.
--
-- The predicate is `current_assigned_people()` below: a plain SQL function over `assignments`,
-- whose own policy shows each person only the assignments they are party to. No SECURITY
-- DEFINER: it reads with the rights of whoever asks. Later modules (sharing) use it in their
-- policies for "the author is currently assigned to me".
--
-- ROLE FIT
--
-- Who may be assigned as what is held by the database too, so that a resolver's mistake cannot
-- assign a young person to a young person: the young person has the role YOUNG_PERSON; a
-- SOCIAL_WORKER or OTHER_PROFESSIONAL (an independent reviewing officer, a teacher: modelled as
-- a professional account) has the role SOCIAL_WORKER; a CARER the role CARER; neither is
-- switched off (disabled). A person's role never changes (0002 grants no UPDATE of it).

create type assignment_relationship as enum ('SOCIAL_WORKER', 'CARER', 'OTHER_PROFESSIONAL');

create table assignments (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    young_person_id uuid not null,
    adult_id uuid not null,
    relationship assignment_relationship not null,
    since timestamptz not null default clock_timestamp(),
    -- Set when an admin ends it; never set back.
    until timestamptz,
    -- The admin who assigned and who ended it; NULL when it was the tenant's operator at the
    -- command line (who acts as an admin with no person of their own).
    assigned_by uuid,
    ended_by uuid,
    primary key (tenant_id, id),
    foreign key (tenant_id, young_person_id) references people (tenant_id, id),
    foreign key (tenant_id, adult_id) references people (tenant_id, id),
    foreign key (tenant_id, assigned_by) references people (tenant_id, id),
    foreign key (tenant_id, ended_by) references people (tenant_id, id),
    constraint assignments_two_people check (young_person_id <> adult_id),
    constraint assignments_period check (until is null or until >= since),
    constraint assignments_ended_by check (ended_by is null or until is not null)
);

-- One current assignment per young person and adult, whatever the relationship: a second one
-- is refused until the first has ended (assigning again afterwards makes a new row).
create unique index assignments_current on assignments (tenant_id, young_person_id, adult_id)
    where until is null;

-- An adult's current young people (myYoungPeople, and current_assigned_people()).
create index assignments_adult_current on assignments (tenant_id, adult_id, young_person_id)
    where until is null;

-- A young person's history, newest first (assignments(youngPersonId)).
create index assignments_history on assignments (tenant_id, young_person_id, since);

alter table assignments enable row level security;
alter table assignments force row level security;

create policy assignments_tenant on assignments
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Each party sees their own assignments, current and past; admins see the tenant's.
create policy assignments_read on assignments as restrictive for select
    using (
        young_person_id = (select current_person_id())
        or adult_id = (select current_person_id())
        or (select current_person_role()) = 'AGENCY_ADMIN'
    );

-- Only admins assign, in their own name (the operator's rows name nobody).
create policy assignments_insert on assignments as restrictive for insert
    with check (
        (select current_person_role()) = 'AGENCY_ADMIN'
        and assigned_by is not distinct from (select current_person_id())
    );

-- Only admins end one, in their own name; the columns they may touch are `until` and
-- `ended_by` (the grant below), and assignments_guard refuses changing an ended one.
create policy assignments_update on assignments as restrictive for update
    using ((select current_person_role()) = 'AGENCY_ADMIN')
    with check (
        (select current_person_role()) = 'AGENCY_ADMIN'
        and ended_by is not distinct from (select current_person_id())
    );

-- History: no DELETE for anyone.
grant select, insert on assignments to storykeep_app;
grant update (until, ended_by) on assignments to storykeep_app;

-- ROLE FIT (a trigger, not a SECURITY DEFINER: it runs with the caller's rights, an admin's, who
-- sees every person of the tenant, and only refuses). Sources/Storykeep/Caseload/AssignmentAdmin.swift
-- checks the same first, to name the argument at fault; this is the backstop.
create function assignments_role_fit() returns trigger
    language plpgsql
as $$
declare
    young_role person_role;
    young_disabled boolean;
    adult_role person_role;
    adult_disabled boolean;
begin
    select p.role, p.disabled_at is not null into young_role, young_disabled
    from people p where p.tenant_id = new.tenant_id and p.id = new.young_person_id;
    select p.role, p.disabled_at is not null into adult_role, adult_disabled
    from people p where p.tenant_id = new.tenant_id and p.id = new.adult_id;
    if young_role is distinct from 'YOUNG_PERSON' then
        raise exception 'only a young person can have adults assigned to them'
            using errcode = 'check_violation', constraint = 'assignments_role_fit';
    end if;
    if adult_role is distinct from (case new.relationship when 'CARER' then 'CARER' else 'SOCIAL_WORKER' end)::person_role then
        raise exception 'a % cannot be assigned as %', coalesce(adult_role::text, 'person not found'), new.relationship
            using errcode = 'check_violation', constraint = 'assignments_role_fit';
    end if;
    if young_disabled or adult_disabled then
        raise exception 'a switched-off person cannot be assigned'
            using errcode = 'check_violation', constraint = 'assignments_role_fit';
    end if;
    return new;
end;
$$;

create trigger assignments_role_fit before insert on assignments
    for each row execute function assignments_role_fit();

-- An ended assignment is history: it stays as it ended.
create function assignments_guard() returns trigger
    language plpgsql
as $$
begin
    if old.until is not null then
        raise exception 'an ended assignment cannot be changed'
            using errcode = 'check_violation', constraint = 'assignments_history';
    end if;
    return new;
end;
$$;

create trigger assignments_guard before update on assignments
    for each row execute function assignments_guard();

-- THE PEOPLE IN A CURRENT ASSIGNMENT WITH ME
--
-- An adult's current young people, or a young person's current adults (whoever the context's
-- person is: one of the two halves is empty), as far as assignments_read lets them see: their own
-- assignments. Policies call it in a FROM, `x in (select p from current_assigned_people() as p)`:
-- there PostgreSQL inlines its body (both halves then read the indexes above) into an
-- uncorrelated subquery it runs once per statement into a hash, which inside an OR can never be
-- an arm of a BitmapOr (the plan 0004 measured at 37-53 ms instead of 0.1 ms), so the other arms
-- keep their index scans. (In a select list, `select current_assigned_people()`, it is not inlined
-- but run as a query of its own, planned anew each statement: 0.35 ms instead of 0.07 ms for 30
-- young people, measured with EXPLAIN ANALYZE.)
create function current_assigned_people() returns setof uuid
    language sql stable parallel safe
as $$
    select a.young_person_id from assignments a
    where a.tenant_id = current_tenant_id() and a.adult_id = current_person_id() and a.until is null
    union all
    select a.adult_id from assignments a
    where a.tenant_id = current_tenant_id() and a.young_person_id = current_person_id() and a.until is null
$$;

comment on function current_assigned_people() is
    'The people in a current assignment with the person acting (an adult''s young people, a young person''s adults).';

-- WHO SEES A PERSON (replaces 0002's people_visible): as before, and the people in a current
-- assignment with me.
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
    );

-- WHO SEES A PROFILE (replaces 0003's profiles_own, which held for every command): its person,
-- and the people in a current assignment with them, who read it (the API shows them its name and
-- avatar). Writing stays the person's own. There is no DELETE grant on profiles.
drop policy profiles_own on profiles;

create policy profiles_read on profiles as restrictive for select
    using (
        person_id = (select current_person_id())
        or person_id in (select p from current_assigned_people() as p)
    );

create policy profiles_insert on profiles as restrictive for insert
    with check (person_id = (select current_person_id()));

create policy profiles_update on profiles as restrictive for update
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()));

-- WHO DECIDES A PASSWORD RESET stays as 0005 made it: agency admins, not the person's assigned
-- social worker. A reset is worth two pairs of eyes only if no one person controls both: one admin
-- alone can create a social worker's account (and hand themselves its activation code) and assign
-- it to the young person, so an assigned worker who could approve would let a lone admin approve
-- their own request.
comment on function may_decide_password_reset(uuid) is
    'Whether the person acting may approve or refuse password resets of `person`, and see the requests about them: agency admins only (0010_caseload says why not assigned social workers).';
