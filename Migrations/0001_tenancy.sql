-- 0001_tenancy: the tenants directory, the request context, and the pattern every tenant-scoped
-- table follows. Applied by `storykeep migrate` as storykeep_owner, inside one transaction.
--
-- ROLES (created by scripts/ as superuser before any migration; assumed to exist here)
--
--   storykeep_owner  LOGIN, NOSUPERUSER, NOBYPASSRLS. Owns the database, the schema and every object
--                    in it. Runs the migrations and the admin commands (tenant, user, purge).
--   storykeep_app    LOGIN, NOSUPERUSER, NOBYPASSRLS, owns nothing. The server's role. It gets only
--                    the table privileges each migration grants it, next to the table.
--
-- WHY THE OWNER HAS NO BYPASSRLS
--
-- Row-level security is FORCED on every table, so it binds the owner as well, and the tenant
-- policies below apply to every role (PUBLIC), not only to storykeep_app. BYPASSRLS would give
-- the owner no power it lacks (as owner it can ALTER TABLE ... NO FORCE ROW LEVEL SECURITY, or drop
-- a policy, in a reviewed migration); it would only take away the seat belt: any view or function
-- the owner owns, and every admin command, could then read across tenants by accident. Instead:
--
--   * `tenant apply|list|disable` touch only `tenants`, where an owner-only policy opens all rows.
--   * Commands acting inside one tenant (`user create`, purging a tenant's archive) set
--     storykeep.tenant_id exactly as a request does: pool.transaction(settings: [...]).
--   * A command across tenants (purge everywhere) reads the tenant list, then runs one
--     transaction per tenant with that tenant's context.
--   * A data migration that must rewrite every tenant's rows in one go may, inside its own
--     transaction, `alter table ... no force row level security` and force it again before the
--     end (DDL is transactional, so no other session ever sees the table unforced).
--
-- SCHEMA
--
-- Everything lives in `public`, which PostgreSQL 15 gives to the database owner (storykeep_owner);
-- nobody else may create in it. The catalog check (Sources/Postgres/RLSCatalogCheck.swift, run by
-- Tests/StorykeepTests/TenancyCatalogTests.swift) inspects this schema after every migration.

revoke create on schema public from public;
grant usage on schema public to storykeep_app;

-- THE REQUEST CONTEXT
--
-- Each unit of work runs in one transaction that first calls
--     select set_config('storykeep.tenant_id', $1, true), set_config('storykeep.person_id', $2, true), ...
-- (transaction-local, bound parameters; `SET LOCAL` cannot take parameters and plain `SET` would
-- survive the COMMIT into the next request on the pooled connection).
--
-- These functions read the context. A setting never set in the session reads as NULL; one set by
-- an earlier transaction on the same connection reads as '' after its COMMIT. Both become NULL
-- here, and `tenant_id = NULL` is never true: a transaction without a tenant matches nothing. No
-- coalesce to a default tenant, ever. A value that is not a UUID raises (a bug, loudly).
-- They are plain SQL (inlined, STABLE, SECURITY INVOKER): policies call them as
-- `(select current_tenant_id())`, a sub-select PostgreSQL evaluates once per statement.

create function current_tenant_id() returns uuid
    language sql stable parallel safe
    return nullif(current_setting('storykeep.tenant_id', true), '')::uuid;

comment on function current_tenant_id() is
    'The tenant of the current transaction (storykeep.tenant_id), or NULL when none is set.';

create function current_person_id() returns uuid
    language sql stable parallel safe
    return nullif(current_setting('storykeep.person_id', true), '')::uuid;

comment on function current_person_id() is
    'The person acting in the current transaction (storykeep.person_id), or NULL.';

create function current_person_role() returns text
    language sql stable parallel safe
    return nullif(current_setting('storykeep.role', true), '');

comment on function current_person_role() is
    'The role of the person acting (storykeep.role: YOUNG_PERSON, CARER, SOCIAL_WORKER, AGENCY_ADMIN, CMS), or NULL.';

-- TENANTS
--
-- One row per agency, provisioned from tenants/<slug>.yaml by `storykeep tenant apply`. Its key is
-- `tenant_id` like every other table's, so the catalog check treats it uniformly.

create table tenants (
    tenant_id uuid primary key default gen_random_uuid(),
    -- The URL name (/t/<slug>/graphql): lowercase letters, digits and single hyphens.
    slug text not null unique
        constraint tenants_slug_format check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 63),
    display_name text not null constraint tenants_display_name_present check (display_name <> ''),
    -- Host names (lowercase, no port) whose requests this tenant answers.
    hosts text[] not null default '{}'
        constraint tenants_hosts_lowercase check (hosts = lower(hosts::text)::text[]),
    -- The whole tenant file, parsed: modules, policies, catalogues.
    config jsonb not null default '{}',
    -- A disabled tenant answers 404 and its people cannot log in; its data stays.
    enabled boolean not null default true,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);

create index tenants_hosts on tenants using gin (hosts);

alter table tenants enable row level security;
alter table tenants force row level security;

-- The directory: the server picks the tenant of a request by slug or host before any tenant
-- context exists, so storykeep_app reads every row — and can do nothing else: it is granted
-- SELECT only, and there is no policy for it to write with. Tenant rows hold configuration, not
-- anyone's personal data.
create policy tenants_directory on tenants
    for select to storykeep_app
    using (true);

-- Provisioning: storykeep_owner creates, updates and disables tenants, across all of them.
create policy tenants_provisioning on tenants
    for all to storykeep_owner
    using (true)
    with check (true);

grant select on tenants to storykeep_app;

-- The readiness probe (connected as storykeep_app) asks whether the migrations are current.
-- The history table holds file names and checksums only, no tenant's data.
grant select on schema_migrations to storykeep_app;

-- THE PATTERN FOR EVERY TENANT-SCOPED TABLE
--
-- Copy it. The catalog check fails the tests if a table in `public` strays from it: RLS not
-- enabled and forced, a primary key not led by tenant_id, a foreign key or unique index without
-- tenant_id, or a write storykeep_app is granted without a policy for that command. It also
-- refuses views without security_invoker, materialized views and SECURITY DEFINER functions,
-- which all read with their owner's rights.
--
--   create table people (
--       tenant_id uuid not null references tenants (tenant_id),
--       id uuid not null default gen_random_uuid(),
--       email text not null,
--       primary key (tenant_id, id),
--       -- Unique within the tenant only: a global unique would tell one agency that another
--       -- agency's address exists (the insert would fail with a unique violation).
--       unique (tenant_id, email)
--   );
--
--   create table entries (
--       tenant_id uuid not null references tenants (tenant_id),
--       id uuid not null default gen_random_uuid(),
--       author_id uuid not null,
--       primary key (tenant_id, id),
--       -- Composite: foreign-key checks run without row-level security, so a key on author_id
--       -- alone would accept another tenant's person.
--       foreign key (tenant_id, author_id) references people (tenant_id, id)
--   );
--
--   alter table entries enable row level security;
--   alter table entries force row level security;    -- binds the owner too
--
--   -- For every role (PUBLIC): the app, and the owner's admin commands, alike.
--   create policy entries_tenant on entries
--       using (tenant_id = (select current_tenant_id()))
--       with check (tenant_id = (select current_tenant_id()));
--   -- Privacy rules narrow further with restrictive policies, e.g. a private entry is its
--   -- author's alone:
--   --   create policy entries_privacy on entries as restrictive for select
--   --       using (author_id = (select current_person_id()) or shared);
--
--   grant select, insert, update, delete on entries to storykeep_app;
--
-- Indexes lead with tenant_id (the primary key already does), so the policy's predicate is an
-- index prefix and costs nothing measurable. Inserts that may collide use the tenant-scoped key
-- in ON CONFLICT, and callers answer "not found" the same way whether a row is absent or
-- belongs to someone they may not see.
