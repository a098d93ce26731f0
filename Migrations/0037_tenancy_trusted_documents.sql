-- 0037_tenancy_trusted_documents: the operations registered for a tenant's apps.
--
-- An app team's build (graphql-codegen's client preset, Relay's persisted queries) writes the
-- operations the app sends as a JSON object of id -> document text; `storykeep documents register
-- --tenant <slug> operations.json` checks each against the tenant's schema and adds them here. A
-- client may then send an id instead of the text (`documentId`, or Apollo's persisted-query
-- hash), and with `graphql.trustedDocumentsOnly: true` in the tenant file nothing else runs.
--
-- They live on the tenant's row because they are configuration, like `config`: every server keeps
-- them in memory with the tenant (no query per request), and the statement trigger of 0027 tells
-- the servers when they change. Documents are an app's program text, not anyone's data; reading
-- them is as open as the directory (tenants_directory) and writing them is storykeep_owner's, as
-- for the rest of the row.

alter table tenants
    add column trusted_documents jsonb not null default '{}'
        constraint tenants_trusted_documents_object check (jsonb_typeof(trusted_documents) = 'object');

comment on column tenants.trusted_documents is
    'The operations registered for the tenant''s apps: {"<id>": "<document text>"}, written by storykeep documents register.';
