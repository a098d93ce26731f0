-- 0020_live_events: what live subscribers are told (issue 15). A change that a subscription
-- follows sends a notification on the channel `storykeep_live` (pg_notify) from a trigger, so that
-- every writer of the table is covered, in the transaction of the change: PostgreSQL delivers it
-- when that transaction commits and never when it rolls back, to every server process listening
-- (Sources/Postgres/PostgresListener.swift), which hands it to its subscribers
-- (Sources/Storykeep/Core/Live/).
--
-- WHAT A PAYLOAD SAYS
--
-- Ids only, as JSON: {"tenant": ..., "kind": ..., "id": ..., "people": [...]}: the tenant, what
-- happened (a subscription's name, or what ends a session), the row's id, and the people it is
-- about. Never content: each subscriber reads the row again in its own person's context, under
-- the tables' row-level security, and is sent nothing when it sees nothing.
--
-- The kinds: `notificationAdded` (a notification written; its recipient), `safetyAlertChanged`
-- (an alert raised, acknowledged, resolved or escalated; its young person: who else sees it is
-- for the policies of 0014_safety to say), `sessionRevoked` (a session ended by logout or a
-- password change; its person) and `personDisabled` (the person): live connections of those
-- sessions, or of that person, are closed.

create function live_notify(tenant uuid, kind text, id uuid, people uuid[]) returns void
    language sql volatile
    as $$
        select pg_notify('storykeep_live', json_build_object('tenant', tenant, 'kind', kind, 'id', id, 'people', people)::text)
    $$;

-- The trigger of every table followed: `live_row_changed(kind, person_column)` sends `kind` for
-- the row, about the person its column `person_column` names.
create function live_row_changed() returns trigger
    language plpgsql
    as $$
    begin
        perform live_notify(new.tenant_id, tg_argv[0], new.id, array[(to_jsonb(new) ->> tg_argv[1])::uuid]);
        return null;
    end
    $$;

create trigger notifications_live after insert on notifications
    for each row execute function live_row_changed('notificationAdded', 'recipient_id');

create trigger safety_alerts_live after insert or update on safety_alerts
    for each row execute function live_row_changed('safetyAlertChanged', 'young_person_id');

create trigger sessions_live after update of revoked_at on sessions
    for each row when (old.revoked_at is null and new.revoked_at is not null)
    execute function live_row_changed('sessionRevoked', 'person_id');

create trigger people_live after update of disabled_at on people
    for each row when (old.disabled_at is null and new.disabled_at is not null)
    execute function live_row_changed('personDisabled', 'id');
