-- 0017_export: case-management clients (service accounts of an agency's case management system,
-- Liquidlogic or Mosaic) and the access tokens they get with the OAuth 2.0 client credentials
-- grant (RFC 6749 §4.4, Sources/StorykeepServer/ClientCredentialsEndpoint.swift).
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- next to each table narrow them.
--
-- WHO IS ASKING (adding to 0002's)
--
--   AGENCY_ADMIN  creates clients, rotates their secrets, revokes them, lists them.
--   CLIENT_LOGIN  a client asking for a token: storykeep.login_name = the client's id (its key).
--                 Sees that client, counts its wrong secrets, writes its tokens. Nothing else.
--   AUTHENTICATION (0002) with storykeep.secret_hash = the SHA-256 of a bearer token: also sees
--                 the live client token with that hash and its client.
--   CMS           an authenticated client: no person; storykeep.login_name = its id. Sees
--                 itself; what else it may read is widened table by table in 0018_export_feed.sql.
--
-- Secrets and tokens are 256 random bits, stored as SHA-256 only (as sessions are, 0002): with
-- that much randomness there is nothing to guess, so no slow hash is needed. A secret is shown
-- once, when created or rotated; a token once, when issued.

-- CLIENTS

create table cms_clients (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    -- What the agency calls it ("Mosaic production").
    name text not null
        constraint cms_clients_name_length check (length(name) between 1 and 200)
        constraint cms_clients_name_trimmed check (name = btrim(name)),
    secret_hash bytea not null constraint cms_clients_secret_sha256 check (length(secret_hash) = 32),
    -- After a rotation, the secret before it, valid until previous_secret_until (the tenant
    -- file's export.secretGraceHours), so that a client can be reconfigured without downtime.
    previous_secret_hash bytea constraint cms_clients_previous_sha256 check (length(previous_secret_hash) = 32),
    previous_secret_until timestamptz,
    created_at timestamptz not null default now(),
    -- The admin who created, rotated and revoked it; NULL for the tenant's operator.
    created_by uuid,
    rotated_at timestamptz,
    rotated_by uuid,
    -- Set when an admin revokes it: its secrets and tokens stop working at once; never set back.
    revoked_at timestamptz,
    revoked_by uuid,
    -- Wrong secrets in a row and the last one's time: the same back-off as a person's logins
    -- (the tenant file's `lockout`).
    failures integer not null default 0 constraint cms_clients_failures check (failures >= 0),
    last_failure_at timestamptz,
    primary key (tenant_id, id),
    foreign key (tenant_id, created_by) references people (tenant_id, id),
    foreign key (tenant_id, rotated_by) references people (tenant_id, id),
    foreign key (tenant_id, revoked_by) references people (tenant_id, id),
    constraint cms_clients_previous check ((previous_secret_hash is null) = (previous_secret_until is null))
);

create index cms_clients_created on cms_clients (tenant_id, created_at, id);

alter table cms_clients enable row level security;
alter table cms_clients force row level security;

create policy cms_clients_tenant on cms_clients
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Who reads a client: cms_clients_read, after the tokens table it reads (TOKENS).

create policy cms_clients_insert on cms_clients as restrictive for insert
    with check (
        (select current_person_role()) = 'AGENCY_ADMIN' and created_by is not distinct from (select current_person_id())
    );

-- Admins rotate and revoke; a CLIENT_LOGIN counts its client's wrong secrets (which columns each
-- may change: cms_clients_guard).
create policy cms_clients_update on cms_clients as restrictive for update
    using (
        (select current_person_role()) = 'AGENCY_ADMIN'
        or ((select current_person_role()) = 'CLIENT_LOGIN' and id::text = (select current_login_name()))
    );

-- History: no DELETE (a revoked client stays, so that the audit trail can name it).
grant select, insert on cms_clients to storykeep_app;
grant update (secret_hash, previous_secret_hash, previous_secret_until, rotated_at, rotated_by, revoked_at, revoked_by,
              failures, last_failure_at) on cms_clients to storykeep_app;

-- WHO CHANGES WHAT (a trigger, not a SECURITY DEFINER: it runs with the caller's rights and only
-- refuses). A CLIENT_LOGIN changes the count of wrong secrets alone; a revoked client stays revoked
-- and keeps its secrets as they were.
create function cms_clients_guard() returns trigger
    language plpgsql
as $$
begin
    if (new.secret_hash, new.previous_secret_hash, new.previous_secret_until, new.rotated_at, new.rotated_by,
        new.revoked_at, new.revoked_by)
       is distinct from (old.secret_hash, old.previous_secret_hash, old.previous_secret_until, old.rotated_at,
                         old.rotated_by, old.revoked_at, old.revoked_by) then
        if current_person_role() is distinct from 'AGENCY_ADMIN' then
            raise exception 'only an agency admin rotates or revokes a client'
                using errcode = 'insufficient_privilege';
        end if;
        if old.revoked_at is not null then
            raise exception 'a revoked client stays revoked'
                using errcode = 'check_violation', constraint = 'cms_clients_revoked';
        end if;
    end if;
    return new;
end;
$$;

create trigger cms_clients_guard before update on cms_clients
    for each row execute function cms_clients_guard();

-- TOKENS
--
-- A client's bearer tokens, short-lived (the tenant file's export.tokenMinutes). A token works
-- while it has not expired and its client is not revoked. A client's expired tokens are removed
-- when it next asks for one, so the table holds about one live token per client.

create table cms_tokens (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    client_id uuid not null,
    token_hash bytea not null constraint cms_tokens_sha256 check (length(token_hash) = 32),
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    primary key (tenant_id, id),
    foreign key (tenant_id, client_id) references cms_clients (tenant_id, id),
    constraint cms_tokens_expiry check (expires_at > created_at)
);

create unique index cms_tokens_token_hash on cms_tokens (tenant_id, token_hash);
create index cms_tokens_client on cms_tokens (tenant_id, client_id, expires_at);

alter table cms_tokens enable row level security;
alter table cms_tokens force row level security;

create policy cms_tokens_tenant on cms_tokens
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- An AUTHENTICATION sees the token whose hash it holds; a CLIENT_LOGIN its client's tokens.
create policy cms_tokens_read on cms_tokens as restrictive for select
    using (
        ((select current_person_role()) = 'AUTHENTICATION' and token_hash = (select current_secret_hash()))
        or ((select current_person_role()) = 'CLIENT_LOGIN' and client_id::text = (select current_login_name()))
    );

create policy cms_tokens_insert on cms_tokens as restrictive for insert
    with check ((select current_person_role()) = 'CLIENT_LOGIN' and client_id::text = (select current_login_name()));

create policy cms_tokens_delete on cms_tokens as restrictive for delete
    using ((select current_person_role()) = 'CLIENT_LOGIN' and client_id::text = (select current_login_name()));

grant select, insert, delete on cms_tokens to storykeep_app;

-- CLIENTS: WHO READS ONE (here because the policy reads cms_tokens)
--
-- Admins see the tenant's clients; a CLIENT_LOGIN or a CMS the client it names; an
-- AUTHENTICATION the client of the token it holds (the subquery sees only that token,
-- cms_tokens_read).
create policy cms_clients_read on cms_clients as restrictive for select
    using (
        (select current_person_role()) = 'AGENCY_ADMIN'
        or ((select current_person_role()) in ('CLIENT_LOGIN', 'CMS') and id::text = (select current_login_name()))
        or ((select current_person_role()) = 'AUTHENTICATION'
            and id in (select t.client_id from cms_tokens t
                       where t.tenant_id = cms_clients.tenant_id and t.token_hash = (select current_secret_hash())))
    );
