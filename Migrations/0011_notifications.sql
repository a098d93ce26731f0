-- 0011_notifications: what a person is told: an adult was assigned to them, an entry was shared
-- with them, a prompt arrived, a safety alert was raised, ... One table for every module's kinds,
-- each row written in the same transaction as the change it tells of (Notifications.notify in
-- Sources/Storykeep/Notifications/Notifications.swift).
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- narrow them.
--
-- WHAT A NOTIFICATION SAYS
--
-- Its kind (`assignmentStarted`, `shareReceived`, ...: text with a format check, not an enum, so
-- that a later module adds kinds without touching this table), a title built by the module that
-- notifies (who and what: "Jo is now your social worker"), and a link by id to what it is about
-- (`subject_kind`, `subject_id`). Never an entry's text: titles are shown on lock screens.
--
-- WHO SEES AND WRITES ONE
--
-- Its recipient alone reads it and marks it read. It is inserted in the transaction of whoever
-- acted, in their own name (`actor_id` is the context's person); the server's own work (an
-- escalation) runs as the tenant's operator, an admin without a person, whose rows name no
-- actor. Nobody deletes one.

create table notifications (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    recipient_id uuid not null,
    kind text not null
        constraint notifications_kind_format check (kind ~ '^[a-z][a-zA-Z]{0,49}$'),
    -- At most TextLimit.notificationTitle (Sources/Storykeep/Core/TextLimit.swift).
    title text not null
        constraint notifications_title_length check (length(title) between 1 and 200),
    actor_id uuid,
    subject_kind text
        constraint notifications_subject_kind_format check (subject_kind ~ '^[a-z][a-zA-Z]{0,49}$'),
    subject_id uuid,
    created_at timestamptz not null default clock_timestamp(),
    read_at timestamptz,
    primary key (tenant_id, id),
    foreign key (tenant_id, recipient_id) references people (tenant_id, id),
    foreign key (tenant_id, actor_id) references people (tenant_id, id),
    constraint notifications_subject check ((subject_kind is null) = (subject_id is null))
);

-- A person's notifications, newest first: (created_at, id) descending is the list's order and
-- its cursor, read by a backward scan; the unread ones have an index of their own, which also
-- counts them.
create index notifications_inbox on notifications (tenant_id, recipient_id, created_at, id);
create index notifications_unread on notifications (tenant_id, recipient_id, created_at, id)
    where read_at is null;

alter table notifications enable row level security;
alter table notifications force row level security;

create policy notifications_tenant on notifications
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy notifications_read on notifications as restrictive for select
    using (recipient_id = (select current_person_id()));

-- In the actor's own name; an admin context without a person (the operator, the server's
-- background work) names no actor.
create policy notifications_insert on notifications as restrictive for insert
    with check (
        actor_id = (select current_person_id())
        or (actor_id is null and (select current_person_id()) is null
            and (select current_person_role()) = 'AGENCY_ADMIN')
    );

create policy notifications_update on notifications as restrictive for update
    using (recipient_id = (select current_person_id()))
    with check (recipient_id = (select current_person_id()));

grant select, insert on notifications to storykeep_app;
grant update (read_at) on notifications to storykeep_app;
