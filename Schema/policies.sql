-- Schema/policies.sql: the row-level security of every table of the schema public, as
-- PostgreSQL's catalog states it once every migration in Migrations/ has run. Generated,
-- never edited by hand: the migrations are where policies are written and explained, this
-- is where to read what they add up to. After a migration, against a migrated database:
--
--     .build/debug/storykeep schema policies > Schema/policies.sql
--
-- (PolicyFileTests fails while this file differs from the catalog of the test database.)
--
-- Reading a table: with row-level security enabled, a command sees a row (USING) or may
-- write it (WITH CHECK) when at least one permissive policy for that command admits it and
-- every restrictive one does; with no permissive policy, no row. `for all` is every
-- command. Forced, the table's owner is held to the policies too. The expressions are
-- PostgreSQL's own (pg_get_expr, pretty): AND binds tighter than OR.

-- activation_codes: row-level security enabled, forced; 5 policies
alter table activation_codes enable row level security;
alter table activation_codes force row level security;

create policy activation_codes_insert on activation_codes as restrictive for insert to public
    with check ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy activation_codes_onboarding_or_reset on activation_codes as restrictive for insert to public
    with check (
CASE
    WHEN password_reset_id IS NULL THEN (person_id IN ( SELECT p.id
       FROM people p
      WHERE p.tenant_id = activation_codes.tenant_id AND p.activated_at IS NULL))
    ELSE (password_reset_id IN ( SELECT e.request_id
       FROM password_reset_events e
         JOIN password_reset_requests r ON r.tenant_id = e.tenant_id AND r.id = e.request_id
      WHERE e.tenant_id = activation_codes.tenant_id AND e.kind = 'APPROVED'::password_reset_event AND e.actor_id = (( SELECT current_person_id() AS current_person_id)) AND r.person_id = activation_codes.person_id))
END OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy activation_codes_tenant on activation_codes as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy activation_codes_update on activation_codes as restrictive for update to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT current_person_role() AS current_person_role)) = 'ACTIVATION'::text AND code_hash = (( SELECT current_secret_hash() AS current_secret_hash)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT current_person_role() AS current_person_role)) = 'ACTIVATION'::text AND code_hash = (( SELECT current_secret_hash() AS current_secret_hash)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy activation_codes_visible on activation_codes as restrictive for select to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT current_person_role() AS current_person_role)) = 'ACTIVATION'::text AND code_hash = (( SELECT current_secret_hash() AS current_secret_hash)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- adult_prompt_inboxes: row-level security enabled, forced; 2 policies
alter table adult_prompt_inboxes enable row level security;
alter table adult_prompt_inboxes force row level security;

create policy adult_prompt_inboxes_party on adult_prompt_inboxes as restrictive for all to public
    using (young_person_id = (( SELECT current_person_id() AS current_person_id)) OR (young_person_id IN ( SELECT p.p
   FROM current_assigned_people() p(p))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (young_person_id = (( SELECT current_person_id() AS current_person_id)) OR (young_person_id IN ( SELECT p.p
   FROM current_assigned_people() p(p))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy adult_prompt_inboxes_tenant on adult_prompt_inboxes as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- adult_prompts: row-level security enabled, forced; 4 policies
alter table adult_prompts enable row level security;
alter table adult_prompts force row level security;

create policy adult_prompts_insert on adult_prompts as restrictive for insert to public
    with check (adult_id = (( SELECT current_person_id() AS current_person_id)) AND ((( SELECT current_person_role() AS current_person_role)) = ANY (ARRAY['SOCIAL_WORKER'::text, 'CARER'::text])) AND (young_person_id IN ( SELECT p.p
   FROM current_assigned_people() p(p))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy adult_prompts_read on adult_prompts as restrictive for select to public
    using (young_person_id = (( SELECT current_person_id() AS current_person_id)) OR adult_id = (( SELECT current_person_id() AS current_person_id)) AND (young_person_id IN ( SELECT p.p
   FROM current_assigned_people() p(p))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy adult_prompts_tenant on adult_prompts as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy adult_prompts_update on adult_prompts as restrictive for update to public
    using (young_person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (young_person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- assignments: row-level security enabled, forced; 4 policies
alter table assignments enable row level security;
alter table assignments force row level security;

create policy assignments_insert on assignments as restrictive for insert to public
    with check ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND NOT assigned_by IS DISTINCT FROM (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy assignments_read on assignments as restrictive for select to public
    using (young_person_id = (( SELECT current_person_id() AS current_person_id)) OR adult_id = (( SELECT current_person_id() AS current_person_id)) OR ((( SELECT current_person_role() AS current_person_role)) = ANY (ARRAY['AGENCY_ADMIN'::text, 'CMS'::text])) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy assignments_tenant on assignments as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy assignments_update on assignments as restrictive for update to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND NOT ended_by IS DISTINCT FROM (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- audit_events: row-level security enabled, forced; 3 policies
alter table audit_events enable row level security;
alter table audit_events force row level security;

create policy audit_events_insert on audit_events as restrictive for insert to public
    with check ((actor_person_id IS NULL OR actor_person_id = (( SELECT current_person_id() AS current_person_id))) AND (actor_client_id IS NULL OR (( SELECT current_person_role() AS current_person_role)) = 'CMS'::text AND actor_client_id::text = (( SELECT current_login_name() AS current_login_name))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy audit_events_read on audit_events as restrictive for select to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR subject_person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy audit_events_tenant on audit_events as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- check_in_skips: row-level security enabled, forced; 2 policies
alter table check_in_skips enable row level security;
alter table check_in_skips force row level security;

create policy check_in_skips_own on check_in_skips as restrictive for all to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy check_in_skips_tenant on check_in_skips as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- cms_clients: row-level security enabled, forced; 4 policies
alter table cms_clients enable row level security;
alter table cms_clients force row level security;

create policy cms_clients_insert on cms_clients as restrictive for insert to public
    with check ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND NOT created_by IS DISTINCT FROM (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy cms_clients_read on cms_clients as restrictive for select to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR ((( SELECT current_person_role() AS current_person_role)) = ANY (ARRAY['CLIENT_LOGIN'::text, 'CMS'::text])) AND id::text = (( SELECT current_login_name() AS current_login_name)) OR (( SELECT current_person_role() AS current_person_role)) = 'AUTHENTICATION'::text AND (id IN ( SELECT t.client_id
   FROM cms_tokens t
  WHERE t.tenant_id = cms_clients.tenant_id AND t.token_hash = (( SELECT current_secret_hash() AS current_secret_hash)))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy cms_clients_tenant on cms_clients as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy cms_clients_update on cms_clients as restrictive for update to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT current_person_role() AS current_person_role)) = 'CLIENT_LOGIN'::text AND id::text = (( SELECT current_login_name() AS current_login_name)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- cms_tokens: row-level security enabled, forced; 4 policies
alter table cms_tokens enable row level security;
alter table cms_tokens force row level security;

create policy cms_tokens_delete on cms_tokens as restrictive for delete to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'CLIENT_LOGIN'::text AND client_id::text = (( SELECT current_login_name() AS current_login_name)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy cms_tokens_insert on cms_tokens as restrictive for insert to public
    with check ((( SELECT current_person_role() AS current_person_role)) = 'CLIENT_LOGIN'::text AND client_id::text = (( SELECT current_login_name() AS current_login_name)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy cms_tokens_read on cms_tokens as restrictive for select to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'AUTHENTICATION'::text AND token_hash = (( SELECT current_secret_hash() AS current_secret_hash)) OR (( SELECT current_person_role() AS current_person_role)) = 'CLIENT_LOGIN'::text AND client_id::text = (( SELECT current_login_name() AS current_login_name)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy cms_tokens_tenant on cms_tokens as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- credentials: row-level security enabled, forced; 4 policies
alter table credentials enable row level security;
alter table credentials force row level security;

create policy credentials_insert on credentials as restrictive for insert to public
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy credentials_tenant on credentials as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy credentials_update on credentials as restrictive for update to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy credentials_visible on credentials as restrictive for select to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'LOGIN'::text AND (person_id IN ( SELECT p.id
   FROM people p
  WHERE p.tenant_id = credentials.tenant_id AND (p.username_key = (( SELECT current_login_name() AS current_login_name)) OR p.email_key = (( SELECT current_login_name() AS current_login_name))))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- data_exports: row-level security enabled, forced; 3 policies
alter table data_exports enable row level security;
alter table data_exports force row level security;

create policy data_exports_insert on data_exports as restrictive for insert to public
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy data_exports_tenant on data_exports as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy data_exports_visible on data_exports as restrictive for all to public
    using (requested_by = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND (( SELECT current_person_id() AS current_person_id)) IS NULL OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (NOT requested_by IS DISTINCT FROM (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND (( SELECT current_person_id() AS current_person_id)) IS NULL OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- entries: row-level security enabled, forced; 5 policies
alter table entries enable row level security;
alter table entries force row level security;

create policy entries_delete on entries as restrictive for delete to public
    using (author_id = (( SELECT current_person_id() AS current_person_id)) AND archived_at IS NOT NULL OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy entries_insert on entries as restrictive for insert to public
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy entries_read on entries as restrictive for select to public
    using (( SELECT figures_counting() AS figures_counting) OR author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'CMS'::text AND (EXISTS ( SELECT
   FROM exportable_entries() x(tenant_id, entry_id)
  WHERE x.tenant_id = entries.tenant_id AND x.entry_id = entries.id
 OFFSET 0)) OR archived_at IS NULL AND (EXISTS ( SELECT
   FROM shares_naming_me() s(tenant_id, entry_id)
  WHERE s.tenant_id = entries.tenant_id AND s.entry_id = entries.id
 OFFSET 0)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy entries_tenant on entries as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy entries_update on entries as restrictive for update to public
    using (author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- entry_media: row-level security enabled, forced; 4 policies
alter table entry_media enable row level security;
alter table entry_media force row level security;

create policy entry_media_delete on entry_media as restrictive for delete to public
    using (author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy entry_media_insert on entry_media as restrictive for insert to public
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy entry_media_read on entry_media as restrictive for select to public
    using (author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'CMS'::text AND (EXISTS ( SELECT
   FROM exportable_entries() x(tenant_id, entry_id)
  WHERE x.tenant_id = entry_media.tenant_id AND x.entry_id = entry_media.entry_id
 OFFSET 0)) OR (EXISTS ( SELECT
   FROM shares_naming_me() s(tenant_id, entry_id)
  WHERE s.tenant_id = entry_media.tenant_id AND s.entry_id = entry_media.entry_id
 OFFSET 0)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy entry_media_tenant on entry_media as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- entry_tags: row-level security enabled, forced; 4 policies
alter table entry_tags enable row level security;
alter table entry_tags force row level security;

create policy entry_tags_delete on entry_tags as restrictive for delete to public
    using (author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy entry_tags_insert on entry_tags as restrictive for insert to public
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy entry_tags_read on entry_tags as restrictive for select to public
    using (author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'CMS'::text AND (EXISTS ( SELECT
   FROM exportable_entries() x(tenant_id, entry_id)
  WHERE x.tenant_id = entry_tags.tenant_id AND x.entry_id = entry_tags.entry_id
 OFFSET 0)) OR (EXISTS ( SELECT
   FROM shares_naming_me() s(tenant_id, entry_id)
  WHERE s.tenant_id = entry_tags.tenant_id AND s.entry_id = entry_tags.entry_id
 OFFSET 0)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy entry_tags_tenant on entry_tags as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- export_changes: row-level security enabled, forced; 2 policies
alter table export_changes enable row level security;
alter table export_changes force row level security;

create policy export_changes_read on export_changes as restrictive for select to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'CMS'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy export_changes_tenant on export_changes as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- login_failures: row-level security enabled, forced; 2 policies
alter table login_failures enable row level security;
alter table login_failures force row level security;

create policy login_failures_subject on login_failures as restrictive for all to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'LOGIN'::text AND (login_name = (( SELECT current_login_name() AS current_login_name)) OR (person_id IN ( SELECT p.id
   FROM people p
  WHERE p.tenant_id = login_failures.tenant_id AND (p.username_key = (( SELECT current_login_name() AS current_login_name)) OR p.email_key = (( SELECT current_login_name() AS current_login_name)))))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'LOGIN'::text AND (login_name = (( SELECT current_login_name() AS current_login_name)) OR (person_id IN ( SELECT p.id
   FROM people p
  WHERE p.tenant_id = login_failures.tenant_id AND (p.username_key = (( SELECT current_login_name() AS current_login_name)) OR p.email_key = (( SELECT current_login_name() AS current_login_name)))))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy login_failures_tenant on login_failures as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- media: row-level security enabled, forced; 4 policies
alter table media enable row level security;
alter table media force row level security;

create policy media_delete on media as restrictive for delete to public
    using (owner_id = (( SELECT current_person_id() AS current_person_id)) AND (id IN ( SELECT em.media_id
   FROM entry_media em
     JOIN entries e ON e.tenant_id = em.tenant_id AND e.id = em.entry_id
  WHERE em.tenant_id = media.tenant_id AND e.archived_at IS NOT NULL)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy media_insert on media as restrictive for insert to public
    with check (owner_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy media_read on media as restrictive for select to public
    using (owner_id = (( SELECT current_person_id() AS current_person_id)) OR (EXISTS ( SELECT
   FROM entry_media em
  WHERE em.tenant_id = media.tenant_id AND em.media_id = media.id
 OFFSET 0)) OR (EXISTS ( SELECT
   FROM social_post_media pm
  WHERE pm.tenant_id = media.tenant_id AND pm.media_id = media.id
 OFFSET 0)) OR (EXISTS ( SELECT
   FROM messaging_message_media mm
  WHERE mm.tenant_id = media.tenant_id AND mm.media_id = media.id
 OFFSET 0)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy media_tenant on media as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- messaging_conversations: row-level security enabled, forced; 3 policies
alter table messaging_conversations enable row level security;
alter table messaging_conversations force row level security;

create policy messaging_conversations_insert on messaging_conversations as restrictive for insert to public
    with check ((( SELECT current_person_id() AS current_person_id)) = person_a AND (person_b IN ( SELECT c.c
   FROM current_messaging_contacts() c(c))) OR (( SELECT current_person_id() AS current_person_id)) = person_b AND (person_a IN ( SELECT c.c
   FROM current_messaging_contacts() c(c))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy messaging_conversations_read on messaging_conversations as restrictive for select to public
    using (((( SELECT current_person_id() AS current_person_id)) = person_a OR (( SELECT current_person_id() AS current_person_id)) = person_b) AND ( SELECT current_tenant_has_module('messaging'::text) AS current_tenant_has_module) AND NOT (person_a IN ( SELECT b.b
   FROM current_social_blocked() b(b))) AND NOT (person_b IN ( SELECT b.b
   FROM current_social_blocked() b(b))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy messaging_conversations_tenant on messaging_conversations as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- messaging_message_media: row-level security enabled, forced; 3 policies
alter table messaging_message_media enable row level security;
alter table messaging_message_media force row level security;

create policy messaging_message_media_insert on messaging_message_media as restrictive for insert to public
    with check (sender_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy messaging_message_media_read on messaging_message_media as restrictive for select to public
    using ((EXISTS ( SELECT
   FROM messaging_messages m
  WHERE m.tenant_id = messaging_message_media.tenant_id AND m.id = messaging_message_media.message_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy messaging_message_media_tenant on messaging_message_media as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- messaging_messages: row-level security enabled, forced; 4 policies
alter table messaging_messages enable row level security;
alter table messaging_messages force row level security;

create policy messaging_messages_insert on messaging_messages as restrictive for insert to public
    with check (sender_id = (( SELECT current_person_id() AS current_person_id)) AND NOT ( SELECT current_person_suspended() AS current_person_suspended) AND (recipient_id IN ( SELECT c.c
   FROM current_messaging_contacts() c(c))) AND read_at IS NULL AND reported_at IS NULL AND removed_at IS NULL AND (EXISTS ( SELECT
   FROM messaging_conversations c
  WHERE c.tenant_id = messaging_messages.tenant_id AND c.id = messaging_messages.conversation_id AND c.person_a = LEAST(messaging_messages.sender_id, messaging_messages.recipient_id) AND c.person_b = GREATEST(messaging_messages.sender_id, messaging_messages.recipient_id))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy messaging_messages_read on messaging_messages as restrictive for select to public
    using ((EXISTS ( SELECT
   FROM messaging_conversations c
  WHERE c.tenant_id = messaging_messages.tenant_id AND c.id = messaging_messages.conversation_id)) AND (removed_at IS NULL OR sender_id = (( SELECT current_person_id() AS current_person_id))) OR reported_at IS NOT NULL AND ( SELECT current_person_moderates_messaging() AS current_person_moderates_messaging) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy messaging_messages_tenant on messaging_messages as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy messaging_messages_update on messaging_messages as restrictive for update to public
    using (recipient_id = (( SELECT current_person_id() AS current_person_id)) OR ( SELECT current_person_moderates_messaging() AS current_person_moderates_messaging) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (recipient_id = (( SELECT current_person_id() AS current_person_id)) OR ( SELECT current_person_moderates_messaging() AS current_person_moderates_messaging) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- messaging_reports: row-level security enabled, forced; 4 policies
alter table messaging_reports enable row level security;
alter table messaging_reports force row level security;

create policy messaging_reports_insert on messaging_reports as restrictive for insert to public
    with check (reporter_id = (( SELECT current_person_id() AS current_person_id)) AND resolved_at IS NULL AND (EXISTS ( SELECT
   FROM messaging_messages m
  WHERE m.tenant_id = messaging_reports.tenant_id AND m.id = messaging_reports.message_id AND m.recipient_id = (( SELECT current_person_id() AS current_person_id)))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy messaging_reports_read on messaging_reports as restrictive for select to public
    using (reporter_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_tenant_has_module('messaging'::text) AS current_tenant_has_module) OR ( SELECT current_person_moderates_messaging() AS current_person_moderates_messaging) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy messaging_reports_tenant on messaging_reports as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy messaging_reports_update on messaging_reports as restrictive for update to public
    using (( SELECT current_person_moderates_messaging() AS current_person_moderates_messaging) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (( SELECT current_person_moderates_messaging() AS current_person_moderates_messaging) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- notifications: row-level security enabled, forced; 4 policies
alter table notifications enable row level security;
alter table notifications force row level security;

create policy notifications_insert on notifications as restrictive for insert to public
    with check (actor_id = (( SELECT current_person_id() AS current_person_id)) OR actor_id IS NULL AND (( SELECT current_person_id() AS current_person_id)) IS NULL AND (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy notifications_read on notifications as restrictive for select to public
    using (recipient_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy notifications_tenant on notifications as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy notifications_update on notifications as restrictive for update to public
    using (recipient_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (recipient_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- passkey_challenges: row-level security enabled, forced; 4 policies
alter table passkey_challenges enable row level security;
alter table passkey_challenges force row level security;

create policy passkey_challenges_delete on passkey_challenges as restrictive for delete to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'PASSKEY'::text AND challenge_hash = (( SELECT current_secret_hash() AS current_secret_hash)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND (( SELECT current_person_id() AS current_person_id)) IS NULL AND expires_at < now() OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy passkey_challenges_insert on passkey_challenges as restrictive for insert to public
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'PASSKEY'::text AND person_id IS NULL AND challenge_hash = (( SELECT current_secret_hash() AS current_secret_hash)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy passkey_challenges_tenant on passkey_challenges as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy passkey_challenges_visible on passkey_challenges as restrictive for select to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'PASSKEY'::text AND challenge_hash = (( SELECT current_secret_hash() AS current_secret_hash)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND (( SELECT current_person_id() AS current_person_id)) IS NULL AND expires_at < now() OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- passkeys: row-level security enabled, forced; 5 policies
alter table passkeys enable row level security;
alter table passkeys force row level security;

create policy passkeys_delete on passkeys as restrictive for delete to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy passkeys_insert on passkeys as restrictive for insert to public
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy passkeys_tenant on passkeys as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy passkeys_update on passkeys as restrictive for update to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy passkeys_visible on passkeys as restrictive for select to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR credential_id = (( SELECT current_passkey_credential_id() AS current_passkey_credential_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'LOGIN'::text AND (person_id IN ( SELECT p.id
   FROM people p
  WHERE p.tenant_id = passkeys.tenant_id AND (p.username_key = (( SELECT current_login_name() AS current_login_name)) OR p.email_key = (( SELECT current_login_name() AS current_login_name))))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- password_reset_events: row-level security enabled, forced; 3 policies
alter table password_reset_events enable row level security;
alter table password_reset_events force row level security;

create policy password_reset_events_insert on password_reset_events as restrictive for insert to public
    with check (actor_id = (( SELECT current_person_id() AS current_person_id)) AND actor_name = (( SELECT p.display_name
   FROM people p
  WHERE p.tenant_id = password_reset_events.tenant_id AND p.id = password_reset_events.actor_id)) AND
CASE kind
    WHEN 'APPROVED'::password_reset_event THEN (request_id IN ( SELECT r.id
       FROM password_reset_requests r
      WHERE r.tenant_id = password_reset_events.tenant_id AND r.expires_at > now() AND r.requested_by <> (( SELECT current_person_id() AS current_person_id)) AND r.person_id <> (( SELECT current_person_id() AS current_person_id)) AND may_decide_password_reset(r.person_id)))
    WHEN 'REFUSED'::password_reset_event THEN (request_id IN ( SELECT r.id
       FROM password_reset_requests r
      WHERE r.tenant_id = password_reset_events.tenant_id AND r.expires_at > now() AND may_decide_password_reset(r.person_id)))
    WHEN 'COMPLETED'::password_reset_event THEN (request_id IN ( SELECT r.id
       FROM password_reset_requests r
      WHERE r.tenant_id = password_reset_events.tenant_id AND r.person_id = (( SELECT current_person_id() AS current_person_id))))
    ELSE NULL::boolean
END OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy password_reset_events_tenant on password_reset_events as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy password_reset_events_visible on password_reset_events as restrictive for select to public
    using ((request_id IN ( SELECT r.id
   FROM password_reset_requests r
  WHERE r.tenant_id = password_reset_events.tenant_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- password_reset_requests: row-level security enabled, forced; 3 policies
alter table password_reset_requests enable row level security;
alter table password_reset_requests force row level security;

create policy password_reset_requests_insert on password_reset_requests as restrictive for insert to public
    with check ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND requested_by = (( SELECT current_person_id() AS current_person_id)) AND requested_by_name = (( SELECT p.display_name
   FROM people p
  WHERE p.tenant_id = password_reset_requests.tenant_id AND p.id = password_reset_requests.requested_by)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy password_reset_requests_tenant on password_reset_requests as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy password_reset_requests_visible on password_reset_requests as restrictive for select to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR may_decide_password_reset(person_id) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- people: row-level security enabled, forced; 5 policies
alter table people enable row level security;
alter table people force row level security;

create policy people_insert on people as restrictive for insert to public
    with check ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy people_insert_admins on people as restrictive for insert to public
    with check (role <> 'AGENCY_ADMIN'::person_role OR (( SELECT current_person_id() AS current_person_id)) IS NULL OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy people_tenant on people as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy people_update on people as restrictive for update to public
    using (id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy people_visible on people as restrictive for select to public
    using (id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT current_person_role() AS current_person_role)) = 'LOGIN'::text AND (username_key = (( SELECT current_login_name() AS current_login_name)) OR email_key = (( SELECT current_login_name() AS current_login_name))) OR (( SELECT current_person_role() AS current_person_role)) = 'AUTHENTICATION'::text AND (id IN ( SELECT s.person_id
   FROM sessions s
  WHERE s.tenant_id = people.tenant_id AND s.token_hash = (( SELECT current_secret_hash() AS current_secret_hash)))) OR (id IN ( SELECT p.p
   FROM current_assigned_people() p(p))) OR (( SELECT current_person_role() AS current_person_role)) = 'CMS'::text AND role <> 'AGENCY_ADMIN'::person_role OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- profiles: row-level security enabled, forced; 4 policies
alter table profiles enable row level security;
alter table profiles force row level security;

create policy profiles_insert on profiles as restrictive for insert to public
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy profiles_read on profiles as restrictive for select to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (person_id IN ( SELECT p.p
   FROM current_assigned_people() p(p))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy profiles_tenant on profiles as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy profiles_update on profiles as restrictive for update to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- reward_achievements: row-level security enabled, forced; 2 policies
alter table reward_achievements enable row level security;
alter table reward_achievements force row level security;

create policy reward_achievements_own on reward_achievements as restrictive for all to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND (( SELECT current_person_role() AS current_person_role)) = 'YOUNG_PERSON'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy reward_achievements_tenant on reward_achievements as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- reward_check_in_days: row-level security enabled, forced; 2 policies
alter table reward_check_in_days enable row level security;
alter table reward_check_in_days force row level security;

create policy reward_check_in_days_own on reward_check_in_days as restrictive for all to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND (( SELECT current_person_role() AS current_person_role)) = 'YOUNG_PERSON'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy reward_check_in_days_tenant on reward_check_in_days as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- reward_counts: row-level security enabled, forced; 2 policies
alter table reward_counts enable row level security;
alter table reward_counts force row level security;

create policy reward_counts_own on reward_counts as restrictive for all to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND (( SELECT current_person_role() AS current_person_role)) = 'YOUNG_PERSON'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy reward_counts_tenant on reward_counts as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- reward_day_payments: row-level security enabled, forced; 2 policies
alter table reward_day_payments enable row level security;
alter table reward_day_payments force row level security;

create policy reward_day_payments_own on reward_day_payments as restrictive for all to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND (( SELECT current_person_role() AS current_person_role)) = 'YOUNG_PERSON'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy reward_day_payments_tenant on reward_day_payments as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- reward_shared_entries: row-level security enabled, forced; 2 policies
alter table reward_shared_entries enable row level security;
alter table reward_shared_entries force row level security;

create policy reward_shared_entries_own on reward_shared_entries as restrictive for all to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND (( SELECT current_person_role() AS current_person_role)) = 'YOUNG_PERSON'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy reward_shared_entries_tenant on reward_shared_entries as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- safety_alert_notes: row-level security enabled, forced; 3 policies
alter table safety_alert_notes enable row level security;
alter table safety_alert_notes force row level security;

create policy safety_alert_notes_insert on safety_alert_notes as restrictive for insert to public
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) AND ((( SELECT current_person_role() AS current_person_role)) = ANY (ARRAY['SOCIAL_WORKER'::text, 'AGENCY_ADMIN'::text])) AND (EXISTS ( SELECT
   FROM safety_alerts a
  WHERE a.tenant_id = safety_alert_notes.tenant_id AND a.id = safety_alert_notes.alert_id)) AND author_name = (( SELECT COALESCE(pr.display_name, p.display_name) AS "coalesce"
   FROM people p
     LEFT JOIN profiles pr ON pr.tenant_id = p.tenant_id AND pr.person_id = p.id
  WHERE p.tenant_id = safety_alert_notes.tenant_id AND p.id = safety_alert_notes.author_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy safety_alert_notes_read on safety_alert_notes as restrictive for select to public
    using (((( SELECT current_person_role() AS current_person_role)) = ANY (ARRAY['SOCIAL_WORKER'::text, 'AGENCY_ADMIN'::text])) AND (EXISTS ( SELECT
   FROM safety_alerts a
  WHERE a.tenant_id = safety_alert_notes.tenant_id AND a.id = safety_alert_notes.alert_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy safety_alert_notes_tenant on safety_alert_notes as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- safety_alerts: row-level security enabled, forced; 4 policies
alter table safety_alerts enable row level security;
alter table safety_alerts force row level security;

create policy safety_alerts_insert on safety_alerts as restrictive for insert to public
    with check (young_person_id = (( SELECT current_person_id() AS current_person_id)) AND (( SELECT current_person_role() AS current_person_role)) = 'YOUNG_PERSON'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy safety_alerts_read on safety_alerts as restrictive for select to public
    using (( SELECT figures_counting() AS figures_counting) OR young_person_id = (( SELECT current_person_id() AS current_person_id)) OR (young_person_id IN ( SELECT p.p
   FROM current_social_work_young_people() p(p))) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND (escalated_at IS NOT NULL OR (( SELECT current_person_id() AS current_person_id)) IS NULL) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy safety_alerts_tenant on safety_alerts as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy safety_alerts_update on safety_alerts as restrictive for update to public
    using ((young_person_id IN ( SELECT p.p
   FROM current_social_work_young_people() p(p))) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND (escalated_at IS NOT NULL OR (( SELECT current_person_id() AS current_person_id)) IS NULL) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check ((young_person_id IN ( SELECT p.p
   FROM current_social_work_young_people() p(p))) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND (escalated_at IS NOT NULL OR (( SELECT current_person_id() AS current_person_id)) IS NULL) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- schema_migrations: row-level security disabled, not forced; no policies
alter table schema_migrations disable row level security;
alter table schema_migrations no force row level security;

-- sessions: row-level security enabled, forced; 4 policies
alter table sessions enable row level security;
alter table sessions force row level security;

create policy sessions_insert on sessions as restrictive for insert to public
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy sessions_tenant on sessions as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy sessions_update on sessions as restrictive for update to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy sessions_visible on sessions as restrictive for select to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT current_person_role() AS current_person_role)) = 'AUTHENTICATION'::text AND token_hash = (( SELECT current_secret_hash() AS current_secret_hash)) AND revoked_at IS NULL AND expires_at > now() OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- shares: row-level security enabled, forced; 5 policies
alter table shares enable row level security;
alter table shares force row level security;

create policy shares_insert on shares as restrictive for insert to public
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) AND (assignment_id IN ( SELECT a.id
   FROM assignments a
  WHERE a.tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)) AND a.young_person_id = (( SELECT current_person_id() AS current_person_id)) AND a.until IS NULL)) AND (EXISTS ( SELECT
   FROM people p
  WHERE p.tenant_id = shares.tenant_id AND p.id = shares.sharee_id AND p.disabled_at IS NULL)) AND ( SELECT current_tenant_has_module('sharing'::text) AS current_tenant_has_module) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy shares_parties on shares as restrictive for all to public
    using (( SELECT figures_counting() AS figures_counting) OR ((( SELECT current_person_id() AS current_person_id)) = ANY (ARRAY[author_id, sharee_id])) OR ((( SELECT current_person_role() AS current_person_role)) = ANY (ARRAY['CMS'::text, 'EXPORT_LOG'::text])) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (((( SELECT current_person_id() AS current_person_id)) = ANY (ARRAY[author_id, sharee_id])) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy shares_read on shares as restrictive for select to public
    using (( SELECT figures_counting() AS figures_counting) OR author_id = (( SELECT current_person_id() AS current_person_id)) OR unshared_at IS NULL AND entry_archived_at IS NULL AND (assignment_id IN ( SELECT a.a
   FROM current_assignments_as_adult() a(a))) AND ( SELECT current_tenant_has_module('sharing'::text) AS current_tenant_has_module) OR ((( SELECT current_person_role() AS current_person_role)) = ANY (ARRAY['CMS'::text, 'EXPORT_LOG'::text])) AND unshared_at IS NULL AND ( SELECT current_tenant_has_module('export'::text) AS current_tenant_has_module) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy shares_tenant on shares as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy shares_update on shares as restrictive for update to public
    using (author_id = (( SELECT current_person_id() AS current_person_id)) OR unshared_at IS NULL AND entry_archived_at IS NULL AND (assignment_id IN ( SELECT a.a
   FROM current_assignments_as_adult() a(a))) AND ( SELECT current_tenant_has_module('sharing'::text) AS current_tenant_has_module) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- social_blocks: row-level security enabled, forced; 4 policies
alter table social_blocks enable row level security;
alter table social_blocks force row level security;

create policy social_blocks_delete on social_blocks as restrictive for delete to public
    using (blocker_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_blocks_insert on social_blocks as restrictive for insert to public
    with check (blocker_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_blocks_read on social_blocks as restrictive for select to public
    using (((( SELECT current_person_id() AS current_person_id)) = ANY (ARRAY[blocker_id, blocked_id])) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_blocks_tenant on social_blocks as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- social_comments: row-level security enabled, forced; 4 policies
alter table social_comments enable row level security;
alter table social_comments force row level security;

create policy social_comments_insert on social_comments as restrictive for insert to public
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) AND (EXISTS ( SELECT
   FROM social_posts p
  WHERE p.tenant_id = social_comments.tenant_id AND p.id = social_comments.post_id)) AND NOT ( SELECT current_person_suspended() AS current_person_suspended) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_comments_read on social_comments as restrictive for select to public
    using ((EXISTS ( SELECT
   FROM social_posts p
  WHERE p.tenant_id = social_comments.tenant_id AND p.id = social_comments.post_id)) AND (author_id = (( SELECT current_person_id() AS current_person_id)) OR ( SELECT current_person_moderates_social() AS current_person_moderates_social) OR status = 'PUBLISHED'::social_content_status AND deleted_at IS NULL AND NOT (author_id IN ( SELECT current_social_blocked() AS current_social_blocked))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_comments_tenant on social_comments as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy social_comments_update on social_comments as restrictive for update to public
    using (author_id = (( SELECT current_person_id() AS current_person_id)) OR ( SELECT current_person_moderates_social() AS current_person_moderates_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) OR ( SELECT current_person_moderates_social() AS current_person_moderates_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- social_friendships: row-level security enabled, forced; 5 policies
alter table social_friendships enable row level security;
alter table social_friendships force row level security;

create policy social_friendships_delete on social_friendships as restrictive for delete to public
    using (((( SELECT current_person_id() AS current_person_id)) = ANY (ARRAY[requester_id, addressee_id])) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_friendships_insert on social_friendships as restrictive for insert to public
    with check (requester_id = (( SELECT current_person_id() AS current_person_id)) AND accepted_at IS NULL AND ( SELECT current_person_in_social() AS current_person_in_social) AND (EXISTS ( SELECT
   FROM social_profiles p
  WHERE p.tenant_id = social_friendships.tenant_id AND p.person_id = social_friendships.addressee_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_friendships_read on social_friendships as restrictive for select to public
    using (((( SELECT current_person_id() AS current_person_id)) = ANY (ARRAY[requester_id, addressee_id])) AND ( SELECT current_person_in_social() AS current_person_in_social) AND NOT (requester_id IN ( SELECT current_social_blocked() AS current_social_blocked)) AND NOT (addressee_id IN ( SELECT current_social_blocked() AS current_social_blocked)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_friendships_tenant on social_friendships as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy social_friendships_update on social_friendships as restrictive for update to public
    using (addressee_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (addressee_id = (( SELECT current_person_id() AS current_person_id)) AND accepted_at IS NOT NULL OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- social_group_members: row-level security enabled, forced; 2 policies
alter table social_group_members enable row level security;
alter table social_group_members force row level security;

create policy social_group_members_own on social_group_members as restrictive for all to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_group_members_tenant on social_group_members as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- social_groups: row-level security enabled, forced; 3 policies
alter table social_groups enable row level security;
alter table social_groups force row level security;

create policy social_groups_insert on social_groups as restrictive for insert to public
    with check (( SELECT current_person_moderates_social() AS current_person_moderates_social) AND created_by = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_groups_read on social_groups as restrictive for select to public
    using (( SELECT current_person_in_social() AS current_person_in_social) OR ( SELECT current_person_moderates_social() AS current_person_moderates_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_groups_tenant on social_groups as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- social_post_media: row-level security enabled, forced; 3 policies
alter table social_post_media enable row level security;
alter table social_post_media force row level security;

create policy social_post_media_insert on social_post_media as restrictive for insert to public
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_post_media_read on social_post_media as restrictive for select to public
    using ((EXISTS ( SELECT
   FROM social_posts p
  WHERE p.tenant_id = social_post_media.tenant_id AND p.id = social_post_media.post_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_post_media_tenant on social_post_media as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- social_posts: row-level security enabled, forced; 4 policies
alter table social_posts enable row level security;
alter table social_posts force row level security;

create policy social_posts_insert on social_posts as restrictive for insert to public
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) AND (group_id IS NULL OR (group_id IN ( SELECT current_social_groups() AS current_social_groups))) AND NOT ( SELECT current_person_suspended() AS current_person_suspended) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_posts_read on social_posts as restrictive for select to public
    using (author_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) OR ( SELECT current_person_moderates_social() AS current_person_moderates_social) OR ( SELECT current_person_in_social() AS current_person_in_social) AND status = 'PUBLISHED'::social_content_status AND deleted_at IS NULL AND NOT (author_id IN ( SELECT b.b
   FROM current_social_blocked() b(b))) AND
CASE
    WHEN group_id IS NOT NULL THEN (group_id IN ( SELECT g.g
       FROM current_social_groups() g(g)))
    ELSE (author_id IN ( SELECT f.f
       FROM current_social_friends() f(f))) OR visibility = 'AGENCY'::social_post_visibility AND NOT (author_id IN ( SELECT p.p
       FROM current_social_private_people() p(p)))
END OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_posts_tenant on social_posts as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy social_posts_update on social_posts as restrictive for update to public
    using (author_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) OR ( SELECT current_person_moderates_social() AS current_person_moderates_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (author_id = (( SELECT current_person_id() AS current_person_id)) OR ( SELECT current_person_moderates_social() AS current_person_moderates_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- social_profiles: row-level security enabled, forced; 4 policies
alter table social_profiles enable row level security;
alter table social_profiles force row level security;

create policy social_profiles_insert on social_profiles as restrictive for insert to public
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) AND staff = ((( SELECT current_person_role() AS current_person_role)) <> 'YOUNG_PERSON'::text) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_profiles_read on social_profiles as restrictive for select to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR ( SELECT current_person_in_social() AS current_person_in_social) AND NOT (person_id IN ( SELECT current_social_blocked() AS current_social_blocked)) OR ( SELECT current_person_moderates_social() AS current_person_moderates_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_profiles_tenant on social_profiles as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy social_profiles_update on social_profiles as restrictive for update to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- social_rate_events: row-level security enabled, forced; 2 policies
alter table social_rate_events enable row level security;
alter table social_rate_events force row level security;

create policy social_rate_events_own on social_rate_events as restrictive for all to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_rate_events_tenant on social_rate_events as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- social_reactions: row-level security enabled, forced; 5 policies
alter table social_reactions enable row level security;
alter table social_reactions force row level security;

create policy social_reactions_delete on social_reactions as restrictive for delete to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_reactions_insert on social_reactions as restrictive for insert to public
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) AND (EXISTS ( SELECT
   FROM social_posts p
  WHERE p.tenant_id = social_reactions.tenant_id AND p.id = social_reactions.post_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_reactions_read on social_reactions as restrictive for select to public
    using (NOT (person_id IN ( SELECT current_social_blocked() AS current_social_blocked)) AND (EXISTS ( SELECT
   FROM social_posts p
  WHERE p.tenant_id = social_reactions.tenant_id AND p.id = social_reactions.post_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_reactions_tenant on social_reactions as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy social_reactions_update on social_reactions as restrictive for update to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- social_reports: row-level security enabled, forced; 4 policies
alter table social_reports enable row level security;
alter table social_reports force row level security;

create policy social_reports_insert on social_reports as restrictive for insert to public
    with check (reporter_id = (( SELECT current_person_id() AS current_person_id)) AND ( SELECT current_person_in_social() AS current_person_in_social) AND resolved_at IS NULL AND ((EXISTS ( SELECT
   FROM social_posts p
  WHERE p.tenant_id = social_reports.tenant_id AND p.id = social_reports.post_id)) OR (EXISTS ( SELECT
   FROM social_comments c
  WHERE c.tenant_id = social_reports.tenant_id AND c.id = social_reports.comment_id))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_reports_read on social_reports as restrictive for select to public
    using (reporter_id = (( SELECT current_person_id() AS current_person_id)) OR ( SELECT current_person_moderates_social() AS current_person_moderates_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_reports_tenant on social_reports as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy social_reports_update on social_reports as restrictive for update to public
    using (( SELECT current_person_moderates_social() AS current_person_moderates_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (( SELECT current_person_moderates_social() AS current_person_moderates_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- social_suspensions: row-level security enabled, forced; 3 policies
alter table social_suspensions enable row level security;
alter table social_suspensions force row level security;

create policy social_suspensions_insert on social_suspensions as restrictive for insert to public
    with check (( SELECT current_person_moderates_social() AS current_person_moderates_social) AND suspended_by = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_suspensions_read on social_suspensions as restrictive for select to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR ( SELECT current_person_moderates_social() AS current_person_moderates_social) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy social_suspensions_tenant on social_suspensions as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- star_ledger: row-level security enabled, forced; 3 policies
alter table star_ledger enable row level security;
alter table star_ledger force row level security;

create policy star_ledger_insert on star_ledger as restrictive for insert to public
    with check (person_id = (( SELECT current_person_id() AS current_person_id)) AND (( SELECT current_person_role() AS current_person_role)) = 'YOUNG_PERSON'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy star_ledger_read on star_ledger as restrictive for select to public
    using (person_id = (( SELECT current_person_id() AS current_person_id)) OR (person_id IN ( SELECT p.p
   FROM current_assigned_people() p(p))) AND ( SELECT ((t.config -> 'rewards'::text) ->> 'visibleToTeam'::text)::boolean AS bool
   FROM tenants t
  WHERE t.tenant_id = (( SELECT current_tenant_id() AS current_tenant_id))) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy star_ledger_tenant on star_ledger as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

-- tags: row-level security enabled, forced; 5 policies
alter table tags enable row level security;
alter table tags force row level security;

create policy tags_delete on tags as restrictive for delete to public
    using (owner_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy tags_insert on tags as restrictive for insert to public
    with check (owner_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy tags_read on tags as restrictive for select to public
    using (owner_id = (( SELECT current_person_id() AS current_person_id)) OR (EXISTS ( SELECT
   FROM entry_tags et
  WHERE et.tenant_id = tags.tenant_id AND et.tag_id = tags.id
 OFFSET 0)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy tags_tenant on tags as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));

create policy tags_update on tags as restrictive for update to public
    using (owner_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check (owner_id = (( SELECT current_person_id() AS current_person_id)) OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

-- tenants: row-level security enabled, forced; 2 policies
alter table tenants enable row level security;
alter table tenants force row level security;

create policy tenants_directory on tenants as permissive for select to storykeep_app
    using (true);

create policy tenants_provisioning on tenants as permissive for all to storykeep_owner
    using (true)
    with check (true);

-- webhook_deliveries: row-level security enabled, forced; 3 policies
alter table webhook_deliveries enable row level security;
alter table webhook_deliveries force row level security;

create policy webhook_deliveries_attempts on webhook_deliveries as restrictive for update to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND (( SELECT current_person_id() AS current_person_id)) IS NULL OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL)
    with check ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text AND (( SELECT current_person_id() AS current_person_id)) IS NULL OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy webhook_deliveries_read on webhook_deliveries as restrictive for select to public
    using ((( SELECT current_person_role() AS current_person_role)) = 'AGENCY_ADMIN'::text OR (( SELECT privacy_erasing() AS privacy_erasing)) IS NOT NULL);

create policy webhook_deliveries_tenant on webhook_deliveries as permissive for all to public
    using (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)))
    with check (tenant_id = (( SELECT current_tenant_id() AS current_tenant_id)));
