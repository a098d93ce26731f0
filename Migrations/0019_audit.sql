-- 0019_audit: the audit trail. Who (a person or a case-management client) did what (an action),
-- to whom and to what (ids, never content), and when, for each tenant; append-only.
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- next to each table narrow them.
--
-- One row per subject: a client's pull that delivered fifty entries is fifty rows of
-- `export.delivered`, each naming one entry and its young person, so that a young person's
-- `Entry.exportedAt` and `Entry.readBy` are a probe of an index, not a search of arrays.
--
-- Rows carry no foreign keys to people, entries or clients on purpose: the trail outlives what it
-- names (an erased person's rows elsewhere go; the trail keeps the ids, which then name nobody).
--
-- WHO READS IT: agency admins the tenant's trail (auditLog); a person the rows about them
-- (subject_person_id), which is how a young person sees who read what they shared and when it went
-- to their case record. WHO WRITES IT: whoever acts, in the transaction of what they did, in their
-- own name (actor_person_id is theirs, actor_client_id the client of a CMS context), or nobody's
-- (a failed login, the server's own work). NOBODY CHANGES OR REMOVES IT: the app role is granted
-- no UPDATE or DELETE, and a trigger refuses both, and TRUNCATE, to every role, the owner too.

create table audit_events (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    occurred_at timestamptz not null default clock_timestamp(),
    -- Who: a person, a case-management client, or neither (a failed login, the tenant's operator).
    actor_person_id uuid,
    actor_client_id uuid,
    -- What: `<thing>.<verb>`, e.g. `login.succeeded`, `share.read`, `export.delivered`.
    action text not null constraint audit_events_action check (action ~ '^[a-z][a-zA-Z]*(\.[a-z][a-zA-Z]*)+$' and length(action) <= 60),
    -- On whom, and on what (an entry, an assignment, a client): ids only.
    subject_person_id uuid,
    subject_id uuid,
    primary key (tenant_id, id),
    constraint audit_events_one_actor check (actor_person_id is null or actor_client_id is null)
);

-- auditLog, newest first, whole and by action; the rows about a person; an actor's.
create index audit_events_time on audit_events (tenant_id, occurred_at, id);
create index audit_events_subject_person on audit_events (tenant_id, subject_person_id, occurred_at);
create index audit_events_actor on audit_events (tenant_id, actor_person_id, occurred_at);
-- Entry.readBy and Entry.exportedAt: the rows about one entry.
create index audit_events_subject on audit_events (tenant_id, subject_id, action);

alter table audit_events enable row level security;
alter table audit_events force row level security;

create policy audit_events_tenant on audit_events
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy audit_events_read on audit_events as restrictive for select
    using (
        (select current_person_role()) = 'AGENCY_ADMIN'
        or subject_person_id = (select current_person_id())
    );

create policy audit_events_insert on audit_events as restrictive for insert
    with check (
        (actor_person_id is null or actor_person_id = (select current_person_id()))
        and (actor_client_id is null
             or ((select current_person_role()) = 'CMS' and actor_client_id::text = (select current_login_name())))
    );

grant select, insert on audit_events to storykeep_app;

-- APPEND-ONLY, for everyone (a trigger, not a SECURITY DEFINER: it only refuses).
create function audit_events_append_only() returns trigger
    language plpgsql
as $$
begin
    raise exception 'the audit trail is append-only: % is refused', tg_op
        using errcode = 'insufficient_privilege';
end;
$$;

create trigger audit_events_append_only before update or delete on audit_events
    for each row execute function audit_events_append_only();

create trigger audit_events_no_truncate before truncate on audit_events
    for each statement execute function audit_events_append_only();
