-- 0014_safety: the safety alert. A young person asks for help at any time; every social worker
-- who looks after them now (a current SOCIAL_WORKER assignment of 0010_caseload) sees it and is
-- told, acknowledges it, resolves it. An alert nobody acknowledged within the tenant's
-- `safety.escalateAfterMinutes`, or whose young person has no social worker to see it, is
-- escalated by the server (Sources/Storykeep/Safety/SafetyEscalation.swift, running as the
-- tenant's operator) to the agency admins.
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- next to each table narrow them.
--
-- WHO SEES AN ALERT
--
-- Its young person (their own, with its status: not the staff's notes). The social workers of
-- the young person: while a SOCIAL_WORKER assignment between them runs, every alert of the young
-- person (a newly assigned worker sees what is open). Agency admins: once it is escalated. The
-- tenant's operator (an admin context without a person, which no request runs as): every alert,
-- to escalate them. No one else: not carers, other professionals or other young people.
--
-- STAFF NOTES
--
-- What staff write when they acknowledge or resolve an alert is kept in a table of its own,
-- safety_alert_notes, which only staff who see the alert read: a young person sees that their
-- alert was seen, never what was written about it.

create type safety_alert_status as enum ('OPEN', 'ACKNOWLEDGED', 'RESOLVED');

create table safety_alerts (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    young_person_id uuid not null,
    -- What the young person wrote, if anything: trimmed, NUL characters taken out, and cut to
    -- TextLimit.safetyAlertMessage (Sources/Storykeep/Core/TextLimit.swift) by the server, which
    -- never refuses an alert for its message.
    message text constraint safety_alerts_message_length check (length(message) between 1 and 1000),
    raised_at timestamptz not null default clock_timestamp(),
    status safety_alert_status not null default 'OPEN',
    -- Who acknowledged and resolved it, and when (resolving an open alert acknowledges it too).
    acknowledged_by uuid,
    acknowledged_at timestamptz,
    resolved_by uuid,
    resolved_at timestamptz,
    -- When the server escalated it to the agency admins; never set back.
    escalated_at timestamptz,
    primary key (tenant_id, id),
    foreign key (tenant_id, young_person_id) references people (tenant_id, id),
    foreign key (tenant_id, acknowledged_by) references people (tenant_id, id),
    foreign key (tenant_id, resolved_by) references people (tenant_id, id),
    constraint safety_alerts_acknowledged check (
        (acknowledged_at is null) = (acknowledged_by is null) and (acknowledged_at is null) = (status = 'OPEN')),
    constraint safety_alerts_resolved check (
        (resolved_at is null) = (resolved_by is null) and (resolved_at is null) = (status <> 'RESOLVED'))
);

-- A young person's alerts, newest first (mySafetyAlerts, and a social worker's safetyAlerts).
create index safety_alerts_young_person on safety_alerts (tenant_id, young_person_id, raised_at);
-- The escalated alerts, newest first (an admin's safetyAlerts).
create index safety_alerts_escalated on safety_alerts (tenant_id, raised_at) where escalated_at is not null;
-- What the escalation looks at: open alerts not escalated yet.
create index safety_alerts_waiting on safety_alerts (tenant_id, raised_at)
    where status = 'OPEN' and escalated_at is null;

-- THE YOUNG PEOPLE I AM THE SOCIAL WORKER OF NOW: those of the context's person's current
-- SOCIAL_WORKER assignments, as far as assignments_read lets them see (their own). A plain SQL
-- function, no SECURITY DEFINER; policies call it in a FROM, where PostgreSQL inlines it (as
-- 0010's current_assigned_people()).
create function current_social_work_young_people() returns setof uuid
    language sql stable parallel safe
as $$
    select a.young_person_id from assignments a
    where a.tenant_id = current_tenant_id() and a.adult_id = current_person_id()
      and a.relationship = 'SOCIAL_WORKER' and a.until is null
$$;

comment on function current_social_work_young_people() is
    'The young people the person acting is currently assigned to as SOCIAL_WORKER.';

alter table safety_alerts enable row level security;
alter table safety_alerts force row level security;

create policy safety_alerts_tenant on safety_alerts
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy safety_alerts_read on safety_alerts as restrictive for select
    using (
        young_person_id = (select current_person_id())
        or young_person_id in (select p from current_social_work_young_people() as p)
        or ((select current_person_role()) = 'AGENCY_ADMIN'
            and (escalated_at is not null or (select current_person_id()) is null))
    );

-- Raised by a young person, for themselves; the columns they may give are those of the grant
-- below (it starts OPEN, now).
create policy safety_alerts_insert on safety_alerts as restrictive for insert
    with check (
        young_person_id = (select current_person_id())
        and (select current_person_role()) = 'YOUNG_PERSON'
    );

-- Acknowledged and resolved by the staff who see it (not the young person); escalated by the
-- operator. safety_alerts_guard holds who may change what.
create policy safety_alerts_update on safety_alerts as restrictive for update
    using (
        young_person_id in (select p from current_social_work_young_people() as p)
        or ((select current_person_role()) = 'AGENCY_ADMIN'
            and (escalated_at is not null or (select current_person_id()) is null))
    )
    with check (
        young_person_id in (select p from current_social_work_young_people() as p)
        or ((select current_person_role()) = 'AGENCY_ADMIN'
            and (escalated_at is not null or (select current_person_id()) is null))
    );

-- Nobody deletes one: the record of a child asking for help.
grant select on safety_alerts to storykeep_app;
grant insert (tenant_id, young_person_id, message) on safety_alerts to storykeep_app;
grant update (status, acknowledged_by, acknowledged_at, resolved_by, resolved_at, escalated_at)
    on safety_alerts to storykeep_app;

-- An alert moves forward only (OPEN, ACKNOWLEDGED, RESOLVED), each step once, in the name of the
-- person taking it; only the operator escalates it, once.
create function safety_alerts_guard() returns trigger
    language plpgsql
as $$
begin
    if new.status < old.status
        or (old.acknowledged_at is not null
            and (new.acknowledged_at, new.acknowledged_by) is distinct from (old.acknowledged_at, old.acknowledged_by))
        or (old.resolved_at is not null
            and (new.resolved_at, new.resolved_by) is distinct from (old.resolved_at, old.resolved_by))
        or (old.acknowledged_at is null and new.acknowledged_at is not null
            and new.acknowledged_by is distinct from current_person_id())
        or (old.resolved_at is null and new.resolved_at is not null
            and new.resolved_by is distinct from current_person_id()) then
        raise exception 'an alert is acknowledged and resolved once, by the person doing it'
            using errcode = 'check_violation', constraint = 'safety_alerts_history';
    end if;
    if new.escalated_at is distinct from old.escalated_at
        and (old.escalated_at is not null or current_person_id() is not null) then
        raise exception 'only the server escalates an alert, once'
            using errcode = 'check_violation', constraint = 'safety_alerts_history';
    end if;
    return new;
end;
$$;

create trigger safety_alerts_guard before update on safety_alerts
    for each row execute function safety_alerts_guard();

-- STAFF NOTES: one row each time someone acknowledges or resolves an alert, with what they wrote
-- (if anything) and the name they went by then (their profile's, else the agency's records'),
-- so that the other staff who see the alert read who acted even where they cannot see that
-- person (a colleague's row of `people` is not theirs to read).

create type safety_alert_action as enum ('ACKNOWLEDGED', 'RESOLVED');

create table safety_alert_notes (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    alert_id uuid not null,
    author_id uuid not null,
    author_name text not null,
    action safety_alert_action not null,
    -- At most TextLimit.safetyAlertNote.
    note text constraint safety_alert_notes_note_length check (length(note) between 1 and 2000),
    created_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, id),
    foreign key (tenant_id, alert_id) references safety_alerts (tenant_id, id),
    foreign key (tenant_id, author_id) references people (tenant_id, id)
);

-- An alert's notes, in order.
create index safety_alert_notes_alert on safety_alert_notes (tenant_id, alert_id, created_at);

alter table safety_alert_notes enable row level security;
alter table safety_alert_notes force row level security;

create policy safety_alert_notes_tenant on safety_alert_notes
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Staff who see the alert (safety_alerts_read, which the subquery runs under); never a young
-- person, not even the alert's own.
create policy safety_alert_notes_read on safety_alert_notes as restrictive for select
    using (
        (select current_person_role()) in ('SOCIAL_WORKER', 'AGENCY_ADMIN')
        and exists (select from safety_alerts a where a.tenant_id = safety_alert_notes.tenant_id and a.id = alert_id)
    );

-- Written by staff who see the alert, in their own name: the name they go by now.
create policy safety_alert_notes_insert on safety_alert_notes as restrictive for insert
    with check (
        author_id = (select current_person_id())
        and (select current_person_role()) in ('SOCIAL_WORKER', 'AGENCY_ADMIN')
        and exists (select from safety_alerts a where a.tenant_id = safety_alert_notes.tenant_id and a.id = alert_id)
        and author_name = (
            select coalesce(pr.display_name, p.display_name) from people p
            left join profiles pr on pr.tenant_id = p.tenant_id and pr.person_id = p.id
            where p.tenant_id = safety_alert_notes.tenant_id and p.id = author_id)
    );

-- Nobody changes or deletes one.
grant select, insert on safety_alert_notes to storykeep_app;
