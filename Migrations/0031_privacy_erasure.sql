-- 0031_privacy_erasure: the right to erasure (issue 14). `erasePerson(personId, confirm)` by an
-- agency admin, and `deleteMyAccount(confirm)` by the person where the tenant file's
-- `privacy.selfErasure` allows it, call privacy_erase_person() below, in the request's transaction:
-- everything commits together or nothing does.
--
-- WHY A SECURITY DEFINER FUNCTION. The app role may not delete most of these rows (people are
-- disabled, not deleted; shares, prompts and alerts are history; the audit trail is append-only),
-- and row-level security rightly hides from an admin most of what a young person holds. Erasure
-- is the one operation that must reach all of it, so it is one function owned by the migration
-- role, which the app role may call and nothing else: it checks who is asking itself (an agency
-- admin of the tenant, not about themself; or the person about themself when the tenant allows
-- self-erasure), checks the confirmation, and then works inside the calling tenant only.
--
-- The tables force row-level security on their owner too (0001), and the owner has no BYPASSRLS:
-- the function is bound by the policies like anyone. So every restrictive policy (what narrows a
-- tenant's rows to those a person may see or change) admits, besides what it admitted, the one
-- erasure in progress: `(select privacy_erasing()) is not null`, which is true only for statements
-- running as the owner inside privacy_erase_person (see THE ERASURE IN PROGRESS below). The
-- permissive tenant policies still hold, and every statement below names the tenant, so an
-- erasure reaches nothing beyond its tenant. No DDL, no table locks beyond the rows it changes:
-- it runs beside the server's other requests like any write.

-- WHAT GOES, WHAT STAYS. Rows about the person go: their account, sessions, credentials, codes,
-- resets, login failures, profile, entries (archived too) with their files and tags, check-ins,
-- shares, prompts, alerts, rewards, notifications, data exports, assignments. Rows that are
-- someone else's record keep their meaning with the person's id taken out: an admin's action that
-- assigned or ended an assignment (assigned_by, ended_by), an alert the person acknowledged or
-- resolved (acknowledged_by, resolved_by), a case-management client they created, rotated or
-- revoked. The audit trail keeps its rows with the person's ids nulled (below), and gains one:
-- `privacy.erased`, naming the erased id as its subject.
--
-- Rows of others whose person column cannot be null and whose text is the erased person's own
-- words go with them: a worker's prompts (the prompt is the worker's text), their notes on alerts,
-- password resets they asked for or decided. What they did is still in the audit trail, nameless.
--
-- MODULES ADDED LATER (social, messaging): a module whose tables hold rows about people adds a
-- function `privacy_erase_<module>(tenant uuid, person uuid)` in its migration; this function
-- calls every such function first, by name from the catalog, then erases the rows here. The test
-- that scans every column of the database after an erasure covers new tables by itself.

-- THE ERASURE IN PROGRESS. Set transaction-locally by privacy_erase_person() to the erased id;
-- true only for statements running as the owner (the function), never as the app role, which
-- could set the setting itself but never passes this test.
create function privacy_erasing() returns uuid
    language sql stable
    return case when current_user <> 'storykeep_app' then nullif(current_setting('storykeep.erasing', true), '')::uuid end;

comment on function privacy_erasing() is
    'The person privacy_erase_person() is erasing in this transaction, or NULL (always NULL for storykeep_app).';

-- Every restrictive policy admits the erasure in progress (WHY A SECURITY DEFINER FUNCTION above):
-- privacy_admit_erasure() writes the clause into each one that lacks it, so a module's later
-- migration ends with `select privacy_admit_erasure();` for its own (docs/modules.md), and a
-- second call changes nothing. `storykeep schema policies` (Schema/policies.sql) lists each as it
-- then reads. Run by the migrations, as the tables' owner; nobody else may call it.
create function privacy_admit_erasure() returns void
    language plpgsql
    set search_path = public, pg_temp
as $$
declare
    p record;
begin
    for p in
        select tablename, policyname, qual, with_check from pg_policies
        where schemaname = 'public' and permissive = 'RESTRICTIVE'
        order by tablename, policyname
    loop
        if p.qual is not null and p.qual not like '%privacy_erasing()%' then
            execute format('alter policy %I on %I using ((%s) or (select privacy_erasing()) is not null)',
                           p.policyname, p.tablename, p.qual);
        end if;
        if p.with_check is not null and p.with_check not like '%privacy_erasing()%' then
            execute format('alter policy %I on %I with check ((%s) or (select privacy_erasing()) is not null)',
                           p.policyname, p.tablename, p.with_check);
        end if;
    end loop;
end;
$$;

comment on function privacy_admit_erasure() is
    'Writes the erasure clause into every restrictive policy that lacks it: a migration''s last statement.';

revoke all on function privacy_admit_erasure() from public;

select privacy_admit_erasure();

-- THE AUDIT TRAIL'S ONE EXCEPTION: during an erasure, an UPDATE that only nulls the erased
-- person's ids (actor_person_id, subject_person_id) and, on rows about them, the id of what was
-- theirs (subject_id). Anything else, DELETE and TRUNCATE included, is refused as before.
create or replace function audit_events_append_only() returns trigger
    language plpgsql
as $$
declare
    erased uuid := privacy_erasing();
begin
    if tg_op = 'UPDATE' and erased is not null
       and (new.tenant_id, new.id, new.occurred_at, new.action) = (old.tenant_id, old.id, old.occurred_at, old.action)
       and new.actor_client_id is not distinct from old.actor_client_id
       and (new.actor_person_id is not distinct from old.actor_person_id
            or (new.actor_person_id is null and old.actor_person_id = erased))
       and (new.subject_person_id is not distinct from old.subject_person_id
            or (new.subject_person_id is null and old.subject_person_id = erased))
       and (new.subject_id is not distinct from old.subject_id
            or (new.subject_id is null and (old.subject_person_id = erased or old.subject_id = erased))) then
        return new;
    end if;
    raise exception 'the audit trail is append-only: % is refused', tg_op
        using errcode = 'insufficient_privilege';
end;
$$;

-- History guards let the erasure take the erased person's id out of other people's records: each
-- guard's trigger skips the erasure in progress (its WHEN), and its function stays as written.
drop trigger assignments_guard on assignments;
create trigger assignments_guard before update on assignments
    for each row when (privacy_erasing() is null) execute function assignments_guard();

drop trigger safety_alerts_guard on safety_alerts;
create trigger safety_alerts_guard before update on safety_alerts
    for each row when (privacy_erasing() is null) execute function safety_alerts_guard();

drop trigger cms_clients_guard on cms_clients;
create trigger cms_clients_guard before update on cms_clients
    for each row when (privacy_erasing() is null) execute function cms_clients_guard();

-- What safety_alerts_acknowledged and safety_alerts_resolved held until an erasure could take the
-- acknowledger's id out (below): an acknowledged or resolved alert names who did it, checked on
-- every update but an erasure's, under the constraints' old names (an alert is inserted OPEN).
create function safety_alerts_attribution() returns trigger
    language plpgsql
as $$
begin
    if (new.acknowledged_at is null) <> (new.acknowledged_by is null)
       and (new.acknowledged_at, new.acknowledged_by) is distinct from (old.acknowledged_at, old.acknowledged_by) then
        raise exception 'an acknowledged alert names who acknowledged it'
            using errcode = 'check_violation', constraint = 'safety_alerts_acknowledged';
    end if;
    if (new.resolved_at is null) <> (new.resolved_by is null)
       and (new.resolved_at, new.resolved_by) is distinct from (old.resolved_at, old.resolved_by) then
        raise exception 'a resolved alert names who resolved it'
            using errcode = 'check_violation', constraint = 'safety_alerts_resolved';
    end if;
    return new;
end;
$$;

create trigger safety_alerts_attribution before update on safety_alerts
    for each row when (privacy_erasing() is null) execute function safety_alerts_attribution();

-- An alert acknowledged or resolved by someone since erased keeps its status and times, without
-- their id: the constraints no longer require the id with the time; safety_alerts_attribution
-- above still does for every change but an erasure's (and under the constraints' old names, which
-- the clients' error handling knows).
alter table safety_alerts drop constraint safety_alerts_acknowledged;
alter table safety_alerts add constraint safety_alerts_acknowledged_when check (
    (acknowledged_at is null) = (status = 'OPEN') and (acknowledged_by is null or acknowledged_at is not null));
alter table safety_alerts drop constraint safety_alerts_resolved;
alter table safety_alerts add constraint safety_alerts_resolved_when check (
    (resolved_at is null) = (status <> 'RESOLVED') and (resolved_by is null or resolved_at is not null));

-- THE ERASURE. `person` of the context's tenant; `confirm` must be their display name exactly
-- (an admin's erasure) or their login name (the person's own: username, else email). Raises
-- insufficient_privilege for a caller who may not, no_data_found for no such person (another
-- tenant's included), invalid_parameter_value for a wrong confirmation: nothing changes then.
create function privacy_erase_person(person uuid, confirm text) returns void
    language plpgsql security definer
    set search_path = public, pg_temp
as $$
declare
    tenant uuid := current_tenant_id();
    me uuid := current_person_id();
    my_role text := current_person_role();
    target record;
    self_erasure boolean;
    module_eraser regprocedure;
begin
    if tenant is null then
        raise exception 'no tenant' using errcode = 'insufficient_privilege';
    end if;
    -- Who is asking, under the caller's own row-level security (no erasure in progress yet).
    select p.id, p.display_name, p.username, p.email into target from people p where p.tenant_id = tenant and p.id = person;
    if not found then
        raise exception 'no such person' using errcode = 'no_data_found';
    end if;
    select coalesce((t.config -> 'privacy' ->> 'selfErasure')::boolean, false) into self_erasure
    from tenants t where t.tenant_id = tenant;
    if me = person then
        if not self_erasure then
            raise exception 'this agency does not let people delete their own account' using errcode = 'insufficient_privilege';
        end if;
        if confirm is distinct from coalesce(target.username, target.email) then
            raise exception 'the confirmation is not your login name' using errcode = 'invalid_parameter_value';
        end if;
    elsif my_role = 'AGENCY_ADMIN' and me is not null then
        if confirm is distinct from target.display_name then
            raise exception 'the confirmation is not the person''s name' using errcode = 'invalid_parameter_value';
        end if;
    else
        raise exception 'only an agency admin erases a person' using errcode = 'insufficient_privilege';
    end if;

    perform set_config('storykeep.erasing', person::text, true);

    -- Modules added later erase their rows first (see MODULES ADDED LATER above).
    for module_eraser in
        select p.oid::regprocedure from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.proname like 'privacy\_erase\_%' and p.proname <> 'privacy_erase_person'
        order by p.proname
    loop
        execute format('select %s($1, $2)', module_eraser::oid::regproc) using tenant, person;
    end loop;

    -- The case-management export: a change for every entry of theirs ever shared, so that the feed
    -- tells a client to drop what it holds (TOMBSTONE, or nothing under `export.onRevoke: keep`).
    insert into export_changes (tenant_id, entry_id)
    select distinct s.tenant_id, s.entry_id from shares s where s.tenant_id = tenant and s.author_id = person;

    -- The audit trail: their ids out (the one UPDATE its trigger lets through, above).
    update audit_events a
    set actor_person_id = nullif(a.actor_person_id, person),
        subject_person_id = nullif(a.subject_person_id, person),
        subject_id = case when a.subject_person_id = person or a.subject_id = person then null else a.subject_id end
    where a.tenant_id = tenant and (a.actor_person_id = person or a.subject_person_id = person or a.subject_id = person);

    -- Notifications to them, by them, or about them or anything of theirs (a title may name them).
    delete from notifications n
    where n.tenant_id = tenant
      and (n.recipient_id = person or n.actor_id = person or n.subject_id = person
           or n.subject_id in (select e.id from entries e where e.tenant_id = tenant and e.author_id = person)
           or n.subject_id in (select s.id from shares s where s.tenant_id = tenant and (s.author_id = person or s.sharee_id = person))
           or n.subject_id in (select a.id from safety_alerts a where a.tenant_id = tenant and a.young_person_id = person)
           or n.subject_id in (select pr.id from adult_prompts pr
                               where pr.tenant_id = tenant and (pr.young_person_id = person or pr.adult_id = person))
           or n.subject_id in (select a.id from assignments a
                               where a.tenant_id = tenant and (a.young_person_id = person or a.adult_id = person)));
    delete from data_exports d where d.tenant_id = tenant and (d.person_id = person or d.requested_by = person);

    -- Sharing, prompts, safety.
    delete from shares s where s.tenant_id = tenant and (s.author_id = person or s.sharee_id = person);
    delete from adult_prompts pr where pr.tenant_id = tenant and (pr.young_person_id = person or pr.adult_id = person);
    delete from adult_prompt_inboxes i where i.tenant_id = tenant and i.young_person_id = person;
    delete from safety_alert_notes n
    where n.tenant_id = tenant
      and (n.author_id = person
           or n.alert_id in (select a.id from safety_alerts a where a.tenant_id = tenant and a.young_person_id = person));
    delete from safety_alerts a where a.tenant_id = tenant and a.young_person_id = person;
    update safety_alerts a set acknowledged_by = null where a.tenant_id = tenant and a.acknowledged_by = person;
    update safety_alerts a set resolved_by = null where a.tenant_id = tenant and a.resolved_by = person;

    -- Rewards.
    delete from star_ledger r where r.tenant_id = tenant and r.person_id = person;
    delete from reward_check_in_days r where r.tenant_id = tenant and r.person_id = person;
    delete from reward_shared_entries r where r.tenant_id = tenant and r.person_id = person;
    delete from reward_day_payments r where r.tenant_id = tenant and r.person_id = person;
    delete from reward_counts r where r.tenant_id = tenant and r.person_id = person;
    delete from reward_achievements r where r.tenant_id = tenant and r.person_id = person;

    -- The journal: entries (with their files' and tags' links), then files, tags, check-ins, profile.
    delete from profiles p where p.tenant_id = tenant and p.person_id = person;
    delete from entries e where e.tenant_id = tenant and e.author_id = person;
    delete from media m where m.tenant_id = tenant and m.owner_id = person;
    delete from tags g where g.tenant_id = tenant and g.owner_id = person;
    delete from check_in_skips c where c.tenant_id = tenant and c.person_id = person;

    -- The caseload: their assignments go; an admin's part in others' is anonymised.
    delete from assignments a where a.tenant_id = tenant and (a.young_person_id = person or a.adult_id = person);
    update assignments a set assigned_by = null where a.tenant_id = tenant and a.assigned_by = person;
    update assignments a set ended_by = null where a.tenant_id = tenant and a.ended_by = person;

    -- The export's clients they managed.
    update cms_clients c set created_by = null where c.tenant_id = tenant and c.created_by = person;
    update cms_clients c set rotated_by = null where c.tenant_id = tenant and c.rotated_by = person;
    update cms_clients c set revoked_by = null where c.tenant_id = tenant and c.revoked_by = person;

    -- The account. Sessions are revoked first, which tells live connections to close (0020), then go.
    update sessions s set revoked_at = clock_timestamp() where s.tenant_id = tenant and s.person_id = person and s.revoked_at is null;
    delete from sessions s where s.tenant_id = tenant and s.person_id = person;
    delete from credentials c where c.tenant_id = tenant and c.person_id = person;
    delete from activation_codes c
    where c.tenant_id = tenant
      and (c.person_id = person
           or c.password_reset_id in (select r.id from password_reset_requests r
                                      where r.tenant_id = tenant and (r.person_id = person or r.requested_by = person)));
    delete from password_reset_events e
    where e.tenant_id = tenant
      and (e.actor_id = person
           or e.request_id in (select r.id from password_reset_requests r
                               where r.tenant_id = tenant and (r.person_id = person or r.requested_by = person)));
    delete from password_reset_requests r where r.tenant_id = tenant and (r.person_id = person or r.requested_by = person);
    delete from login_failures f
    where f.tenant_id = tenant
      and (f.person_id = person or f.login_name in (lower(target.username), lower(target.email), target.username, target.email));
    delete from people p where p.tenant_id = tenant and p.id = person;

    -- The one trace: that an erasure happened, by whom (null for the person's own), of which id.
    insert into audit_events (tenant_id, actor_person_id, action, subject_person_id)
    values (tenant, case when me = person then null else me end, 'privacy.erased', person);

    perform set_config('storykeep.erasing', '', true);
end;
$$;

comment on function privacy_erase_person(uuid, text) is
    'Erases a person of the current tenant: see Migrations/0031_privacy_erasure.sql.';

revoke all on function privacy_erase_person(uuid, text) from public;
grant execute on function privacy_erase_person(uuid, text) to storykeep_app;
