-- 0005_accounts_password_resets: resetting the password of someone who has one takes two members
-- of staff, and the database holds that rule (issue 16, item 2).
--
-- WHY
--
-- Until now `issueActivationCode` gave any agency admin a code for any person, and the code logged
-- its holder in as that person: an admin could become a young person and read the journal that is
-- private even from admins. Now:
--
--   * Someone who has never set a password (people.activated_at is null) gets a code as before:
--     onboarding. There is nothing of theirs to read yet.
--   * For anyone with a password, an agency admin asks for a reset (password_reset_requests) and a
--     second, different member of staff approves or refuses it (password_reset_events). Only an
--     approval yields a code, shown once to the approver, who hands it to the person: the one who
--     chose whose password and when never holds the key. The person sees every approved reset of
--     their password in `me`, with both names and times.
--   * Agency admins are added only by the service's operator (`storykeep user create`), no longer
--     by other admins: otherwise one admin could make a second admin account and approve their own
--     request with it.
--
-- Each step is held here as well as in the resolvers (Sources/Storykeep/Accounts/PasswordResets.swift):
--
--   people_activation_guard               activated_at is set when the person's first password is
--                                         stored, by the person's own transaction, and never
--                                         cleared: an admin cannot make an active person look new
--                                         to get an onboarding code.
--   activation_codes_onboarding_or_reset  a code is for someone without a password, or for a
--                                         reset, issued by the member of staff who approved it.
--   password_reset_events_insert          the approver is neither the requester nor the person.
--   people_insert_admins                  only the operator's context adds an AGENCY_ADMIN.
--   activation_codes_guard                a spent code stays spent; no code lives longer.
--
-- THE AUDIT TRAIL
--
-- Requests and events are append-only: storykeep_app may SELECT and INSERT them, never UPDATE or
-- DELETE. A request's state is not stored: it follows from its events and its expiry (PENDING,
-- APPROVED, COMPLETED, REFUSED, EXPIRED). Names are kept as they were when each step was taken,
-- both because that is what an audit wants and because the person, who reads their own notices,
-- cannot read staff members' rows of `people`.
--
-- WHO MAY DECIDE (the place where caseload plugs in)
--
-- may_decide_password_reset(person) says whether the person acting may approve or refuse resets
-- of `person` and see the requests about them. Today that is any agency admin of the tenant. When
-- the caseload module lands, its migration replaces this function to add the person's currently
-- assigned social worker (and FieldAccess in PasswordResets.swift adds the role). It must keep what
-- makes four eyes worth having: no lone admin can make someone an approver, so an assignment must
-- not be in one admin's hands alone, as creating an admin is not today.

-- ACTIVATED

alter table people add column activated_at timestamptz;

comment on column people.activated_at is
    'When the person first stored a password: set by credentials_activate_person, never cleared. Null: they can be given an onboarding code.';

-- Everyone who has a password now. When they first set one is not recorded: the time of their
-- current password is the best known. Row-level security is lifted for this one statement, inside
-- this migration's transaction (0001: a data migration across tenants).
alter table people no force row level security;
alter table credentials no force row level security;
update people p set activated_at = c.updated_at
from credentials c
where c.tenant_id = p.tenant_id and c.person_id = p.id;
alter table people force row level security;
alter table credentials force row level security;

-- Storing someone's first password activates them. The trigger runs with the caller's rights, in
-- the person's own context (credentials are written in no other), so people_update admits it.
create function credentials_activate_person() returns trigger
    language plpgsql
as $$
begin
    update people set activated_at = now()
    where tenant_id = new.tenant_id and id = new.person_id and activated_at is null;
    return null;
end;
$$;

create trigger credentials_activate_person after insert on credentials
    for each row execute function credentials_activate_person();

-- Nobody else sets it, and nobody clears it. The check reads credentials under the caller's
-- policies: only the person sees their own, so an admin can never change activated_at.
create function people_activation_guard() returns trigger
    language plpgsql
as $$
begin
    if tg_op = 'INSERT' then
        if new.activated_at is not null then
            raise exception 'a person is activated by storing their first password, not when they are added'
                using errcode = 'insufficient_privilege';
        end if;
    elsif new.activated_at is distinct from old.activated_at
          and (old.activated_at is not null
               or not exists (select from credentials c where c.tenant_id = new.tenant_id and c.person_id = new.id)) then
        raise exception 'activated_at is set once, when the person stores their first password'
            using errcode = 'insufficient_privilege';
    end if;
    return new;
end;
$$;

create trigger people_activation_guard before insert or update on people
    for each row execute function people_activation_guard();

grant update (activated_at) on people to storykeep_app;

-- ADMINS ARE ADDED BY THE OPERATOR
--
-- The operator's context (AccountContext.tenantOperator: the AGENCY_ADMIN role and no person) adds
-- admins; an admin logged in adds people of the other roles only.
create policy people_insert_admins on people as restrictive for insert
    with check (role <> 'AGENCY_ADMIN' or (select current_person_id()) is null);

-- WHO MAY DECIDE

create function may_decide_password_reset(person uuid) returns boolean
    language sql stable parallel safe
    return (select current_person_role()) = 'AGENCY_ADMIN';

comment on function may_decide_password_reset(uuid) is
    'Whether the person acting may approve or refuse password resets of `person`, and see the requests about them. Caseload adds assigned social workers.';

-- REQUESTS

create table password_reset_requests (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    -- Whose password.
    person_id uuid not null,
    -- Who asked, and their display name when they asked.
    requested_by uuid not null,
    requested_by_name text not null,
    -- Why: for the approver and the audit (the person is not shown it).
    reason text not null constraint password_reset_requests_reason_length check (length(reason) between 1 and 500),
    requested_at timestamptz not null default now(),
    -- Undecided by then, it lapses (EXPIRED).
    expires_at timestamptz not null,
    primary key (tenant_id, id),
    foreign key (tenant_id, person_id) references people (tenant_id, id),
    foreign key (tenant_id, requested_by) references people (tenant_id, id),
    constraint password_reset_requests_not_own check (requested_by <> person_id),
    constraint password_reset_requests_expiry check (expires_at > requested_at)
);

create index password_reset_requests_newest on password_reset_requests (tenant_id, requested_at desc);
create index password_reset_requests_person on password_reset_requests (tenant_id, person_id, requested_at desc);

alter table password_reset_requests enable row level security;
alter table password_reset_requests force row level security;

create policy password_reset_requests_tenant on password_reset_requests
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Those who may decide see the requests; the person sees the ones about them.
create policy password_reset_requests_visible on password_reset_requests as restrictive for select
    using (person_id = (select current_person_id()) or may_decide_password_reset(person_id));

-- An agency admin asks, in their own name and under their own display name.
create policy password_reset_requests_insert on password_reset_requests as restrictive for insert
    with check (
        (select current_person_role()) = 'AGENCY_ADMIN'
        and requested_by = (select current_person_id())
        and requested_by_name = (select p.display_name from people p
                                 where p.tenant_id = password_reset_requests.tenant_id and p.id = requested_by)
    );

grant select, insert on password_reset_requests to storykeep_app;

-- EVENTS

create type password_reset_event as enum (
    -- A member of staff said yes: a code was issued to them.
    'APPROVED',
    -- A member of staff said no (or the requester withdrew it).
    'REFUSED',
    -- The person set a new password with the approval's code.
    'COMPLETED'
);

create table password_reset_events (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    request_id uuid not null,
    kind password_reset_event not null,
    -- Who, and their display name then.
    actor_id uuid not null,
    actor_name text not null,
    -- A refusal's reason, if given.
    note text constraint password_reset_events_note_length check (length(note) between 1 and 500),
    at timestamptz not null default now(),
    primary key (tenant_id, id),
    foreign key (tenant_id, request_id) references password_reset_requests (tenant_id, id),
    foreign key (tenant_id, actor_id) references people (tenant_id, id)
);

-- A request is decided once (two approvers at once: the second fails here) and completed once.
create unique index password_reset_events_decision on password_reset_events (tenant_id, request_id)
    where kind in ('APPROVED', 'REFUSED');
create unique index password_reset_events_completion on password_reset_events (tenant_id, request_id)
    where kind = 'COMPLETED';

alter table password_reset_events enable row level security;
alter table password_reset_events force row level security;

create policy password_reset_events_tenant on password_reset_events
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- An event is seen by whoever sees its request (the subquery reads under the requests' policy).
create policy password_reset_events_visible on password_reset_events as restrictive for select
    using (request_id in (select r.id from password_reset_requests r where r.tenant_id = password_reset_events.tenant_id));

-- Each event in its actor's own name. Four eyes: an approval is by someone who may decide and who
-- neither asked nor is the person, before the request lapses. A refusal gives nobody anything: any
-- who may decide, the requester withdrawing included. The person records the completion of a
-- request about them (activateAccount does, with the approval's code; a policy may not read its own
-- table, so that an approval came first is the code's to prove: only an approval yields one).
create policy password_reset_events_insert on password_reset_events as restrictive for insert
    with check (
        actor_id = (select current_person_id())
        and actor_name = (select p.display_name from people p
                          where p.tenant_id = password_reset_events.tenant_id and p.id = actor_id)
        and case kind
            when 'APPROVED' then request_id in (
                select r.id from password_reset_requests r
                where r.tenant_id = password_reset_events.tenant_id and r.expires_at > now()
                  and r.requested_by <> (select current_person_id()) and r.person_id <> (select current_person_id())
                  and may_decide_password_reset(r.person_id))
            when 'REFUSED' then request_id in (
                select r.id from password_reset_requests r
                where r.tenant_id = password_reset_events.tenant_id and r.expires_at > now()
                  and may_decide_password_reset(r.person_id))
            when 'COMPLETED' then request_id in (
                select r.id from password_reset_requests r
                where r.tenant_id = password_reset_events.tenant_id and r.person_id = (select current_person_id()))
        end
    );

grant select, insert on password_reset_events to storykeep_app;

-- ACTIVATION CODES: ONBOARDING OR AN APPROVED RESET

alter table activation_codes add column password_reset_id uuid;
alter table activation_codes add constraint activation_codes_password_reset
    foreign key (tenant_id, password_reset_id) references password_reset_requests (tenant_id, id);

comment on column activation_codes.password_reset_id is
    'The approved reset this code was issued for; null for an onboarding code (valid only while the person has no password).';

-- One code per approval, ever: an approver cannot mint another one later.
create unique index activation_codes_password_reset on activation_codes (tenant_id, password_reset_id);

create policy activation_codes_onboarding_or_reset on activation_codes as restrictive for insert
    with check (
        case when password_reset_id is null
            then person_id in (select p.id from people p
                               where p.tenant_id = activation_codes.tenant_id and p.activated_at is null)
            else password_reset_id in (
                select e.request_id from password_reset_events e
                join password_reset_requests r on r.tenant_id = e.tenant_id and r.id = e.request_id
                where e.tenant_id = activation_codes.tenant_id and e.kind = 'APPROVED'
                  and e.actor_id = (select current_person_id()) and r.person_id = activation_codes.person_id)
        end
    );

-- Admins may expire codes and an activation spends one; nobody brings a spent code back or makes
-- a code live longer (the approver of a reset could otherwise revive the code they handed over).
create function activation_codes_guard() returns trigger
    language plpgsql
as $$
begin
    if old.used_at is not null and new.used_at is distinct from old.used_at then
        raise exception 'a spent activation code stays spent' using errcode = 'insufficient_privilege';
    end if;
    if new.expires_at > old.expires_at then
        raise exception 'an activation code''s life can only be shortened' using errcode = 'insufficient_privilege';
    end if;
    return new;
end;
$$;

create trigger activation_codes_guard before update on activation_codes
    for each row execute function activation_codes_guard();
