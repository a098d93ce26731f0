-- 0028_webhooks: webhooks for agencies' systems (issue 15). An agency's tenant file lists
-- `webhooks` (a url, the events it wants, the environment variable holding its secret); each event
-- becomes one row here per webhook that wants it, an outbox the server's delivery job
-- (Sources/Storykeep/Webhooks/WebhookDispatch.swift) POSTs from, signed, until the receiver
-- answers 2xx or 24 hours have passed (then the row is DEAD, kept for the admins to see).
--
-- WRITTEN BY TRIGGERS, in the transaction of the event: a rolled-back change leaves no row, and
-- every writer is covered whatever the code path: a young person's `raiseSafetyAlert`, the
-- server's escalation job (run as the tenant's operator), an author's `shareEntry`, and any
-- later writer of those tables. A domain event handler would cover only the writers that publish
-- the event (the escalation job publishes none). The trigger reads the tenant's webhooks from
-- `tenants.config` (the tenant file as applied), which storykeep_app reads anyway.
--
-- WHAT A BODY SAYS: the Standard Webhooks payload `{"type", "timestamp", "data"}`, with ids and
-- kinds only, never an alert's message, an entry's text or anyone's name. It is fixed when the
-- row is written, so every retry sends (and signs) the same bytes under the same id.
--
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced. WHO READS IT: agency admins (`webhookDeliveries`) and the tenant's operator, which
-- the delivery job runs as. WHO WRITES IT: whoever causes an event, through the triggers (insert
-- only); the operator records each attempt (update). Nobody deletes: it is the history of what
-- went out.

create table webhook_deliveries (
    tenant_id uuid not null references tenants (tenant_id),
    -- Sent as `webhook-id`: the same on every attempt, so that receivers drop duplicates.
    id uuid not null default gen_random_uuid(),
    -- What happened: safetyAlert.raised, safetyAlert.escalated, entry.shared.
    event text not null constraint webhook_deliveries_event check (event in ('safetyAlert.raised', 'safetyAlert.escalated', 'entry.shared')),
    -- Where to and the environment variable of the secret, as the tenant file said at the event.
    url text not null,
    secret_env text not null,
    -- The exact bytes POSTed and signed.
    body text not null,
    created_at timestamptz not null default clock_timestamp(),
    -- PENDING (not tried yet), FAILED (tried, will be tried again), DELIVERED, DEAD (gave up).
    status text not null default 'PENDING'
        constraint webhook_deliveries_status check (status in ('PENDING', 'DELIVERED', 'FAILED', 'DEAD')),
    attempts integer not null default 0,
    -- The last attempt: when, the receiver's HTTP status (null when there was no answer), and
    -- what went wrong, in a few words (null after a 2xx).
    last_attempt_at timestamptz,
    last_status_code integer,
    last_error text,
    -- When the job tries next; null once DELIVERED or DEAD.
    next_attempt_at timestamptz default clock_timestamp(),
    delivered_at timestamptz,
    primary key (tenant_id, id),
    constraint webhook_deliveries_next check ((next_attempt_at is null) = (status in ('DELIVERED', 'DEAD')))
);

-- The job's question: what is due now.
create index webhook_deliveries_due on webhook_deliveries (tenant_id, next_attempt_at) where next_attempt_at is not null;
-- webhookDeliveries, newest first, whole and by status.
create index webhook_deliveries_list on webhook_deliveries (tenant_id, status, created_at, id);
create index webhook_deliveries_time on webhook_deliveries (tenant_id, created_at, id);

alter table webhook_deliveries enable row level security;
alter table webhook_deliveries force row level security;

create policy webhook_deliveries_tenant on webhook_deliveries
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Agency admins and the operator (who is an admin with no person) read them.
create policy webhook_deliveries_read on webhook_deliveries as restrictive for select
    using ((select current_person_role()) = 'AGENCY_ADMIN');

-- Only the operator, the delivery job, records attempts: no person, not even an admin.
create policy webhook_deliveries_attempts on webhook_deliveries as restrictive for update
    using ((select current_person_role()) = 'AGENCY_ADMIN' and (select current_person_id()) is null)
    with check ((select current_person_role()) = 'AGENCY_ADMIN' and (select current_person_id()) is null);

grant select, insert, update on webhook_deliveries to storykeep_app;

-- One row for each of the tenant's webhooks that wants `event`, with the Standard Webhooks body
-- of `data` (ids only). Runs as whoever caused the event, in their transaction.
create function webhook_enqueue(tenant uuid, event text, data jsonb) returns void
    language sql volatile
    as $$
        insert into webhook_deliveries (tenant_id, event, url, secret_env, body)
        select tenant, event, hook ->> 'url', hook ->> 'secretEnv',
               json_build_object(
                   'type', event,
                   'timestamp', to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                   'data', data)::text
        from tenants t
        cross join lateral jsonb_array_elements(coalesce(t.config -> 'webhooks', '[]'::jsonb)) hook
        where t.tenant_id = tenant and hook -> 'events' ? event
    $$;

-- safetyAlert.raised when an alert is written; safetyAlert.escalated when the server escalates it.
create function webhook_safety_alert() returns trigger
    language plpgsql
    as $$
    begin
        if tg_op = 'INSERT' then
            perform webhook_enqueue(new.tenant_id, 'safetyAlert.raised',
                jsonb_build_object('safetyAlertId', new.id, 'youngPersonId', new.young_person_id));
        elsif old.escalated_at is null and new.escalated_at is not null then
            perform webhook_enqueue(new.tenant_id, 'safetyAlert.escalated',
                jsonb_build_object('safetyAlertId', new.id, 'youngPersonId', new.young_person_id));
        end if;
        return null;
    end
    $$;

create trigger safety_alerts_webhooks after insert or update of escalated_at on safety_alerts
    for each row execute function webhook_safety_alert();

-- entry.shared when a young person shares an entry with an adult (sharing again is a new share).
create function webhook_entry_shared() returns trigger
    language plpgsql
    as $$
    begin
        perform webhook_enqueue(new.tenant_id, 'entry.shared',
            jsonb_build_object('shareId', new.id, 'entryId', new.entry_id, 'youngPersonId', new.author_id, 'adultId', new.sharee_id));
        return null;
    end
    $$;

create trigger shares_webhooks after insert on shares
    for each row execute function webhook_entry_shared();
