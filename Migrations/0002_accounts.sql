-- 0002_accounts: people, their credentials, activation codes, sessions and failed logins.
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- next to each table narrow them to who may see or change what.
--
-- WHO IS ASKING
--
-- A transaction says who it runs for in transaction-local settings (0001): storykeep.tenant_id,
-- storykeep.person_id and storykeep.role. Once someone is authenticated, role is their role
-- (YOUNG_PERSON, CARER, SOCIAL_WORKER, AGENCY_ADMIN). Before that, nobody is: a transaction with
-- a tenant and nothing else sees no row of these tables at all.
--
-- Three steps must nevertheless find rows before anyone is authenticated. Each gets a pseudo-role
-- and the one key it looks for, and sees the rows matching that key and nothing else:
--
--   LOGIN           storykeep.login_name = what was typed as username or email.
--                   Sees the person with that username or email, their credentials, and the
--                   login_failures row of that name. Nothing of anyone else.
--   AUTHENTICATION  storykeep.secret_hash = hex SHA-256 of a bearer token (every request).
--                   Sees the live session with that hash and its person.
--   ACTIVATION      storykeep.secret_hash = hex SHA-256 of an activation code.
--                   Sees the activation code with that hash.
--
-- The server sets these from what the client sent, and only after checking the secret (the
-- password with Argon2, the token's hash, the code's hash and expiry) does it switch the same
-- transaction to the person: set_config('storykeep.person_id', id, true) and their role. Sessions
-- are only ever created in a person's own context, so no pre-authentication context can create
-- one. Row-level security here guards against the server's own mistakes (a resolver reading
-- too much, a query without its WHERE), not against a server that lies about who is asking: such
-- a server could set any context. Hence no SECURITY DEFINER function anywhere: each pre-login
-- step is a narrow policy that shows exactly the rows its key names.
--
-- Privacy: a person's secrets (password hash, sessions) are theirs alone. Agency admins manage
-- people of their tenant (create, disable, re-issue codes, end sessions) but cannot read a
-- password hash: it lives in `credentials`, which admins cannot see.
--
-- Case: usernames and emails are compared lower-cased, through the stored columns username_key
-- and email_key, so "Sam" and "sam" are one name. lower() folds only ASCII in the C collation the
-- clusters use; usernames are ASCII anyway, and an email's non-ASCII letters then compare exactly.
-- Queries compare those columns, never lower(username): under row-level security PostgreSQL
-- uses a query's condition as an index condition only if it passes no column to a function that
-- is not leakproof (lower() is not), so lower(username) = ... would scan the whole tenant.

-- THE PRE-LOGIN KEYS (plain SQL, inlined, SECURITY INVOKER, like 0001's functions)

create function current_login_name() returns text
    language sql stable parallel safe
    return nullif(lower(btrim(current_setting('storykeep.login_name', true))), '');

comment on function current_login_name() is
    'The username or email a LOGIN transaction looks for (storykeep.login_name), trimmed and lower-cased, or NULL.';

create function current_secret_hash() returns bytea
    language sql stable parallel safe
    return decode(nullif(current_setting('storykeep.secret_hash', true), ''), 'hex');

comment on function current_secret_hash() is
    'The SHA-256 (storykeep.secret_hash, hex) of the bearer token (AUTHENTICATION) or activation code (ACTIVATION) being checked, or NULL.';

-- PEOPLE

create type person_role as enum ('YOUNG_PERSON', 'CARER', 'SOCIAL_WORKER', 'AGENCY_ADMIN');

create table people (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    role person_role not null,
    -- Young people log in with a username (many have no email), adults with their email. The two
    -- cannot be confused: a username has no '@', an email has one.
    username text constraint people_username_format check (username ~ '^[A-Za-z0-9][A-Za-z0-9._-]{2,39}$'),
    email text constraint people_email_format check (length(email) <= 254 and email ~ '^[^@[:space:]]+@[^@[:space:]]+$'),
    -- What logins and uniqueness compare: the names lower-cased.
    username_key text generated always as (lower(username)) stored,
    email_key text generated always as (lower(email)) stored,
    -- Their case number in the agency's case management system.
    external_ref text constraint people_external_ref_length check (length(external_ref) between 1 and 200),
    display_name text not null constraint people_display_name_length check (length(display_name) between 1 and 200),
    -- Set by an admin: the person can no longer log in, and their sessions end (the server
    -- revokes them in the same transaction).
    disabled_at timestamptz,
    -- The tenant's terms version this person accepted, and when.
    terms_version_accepted text,
    terms_accepted_at timestamptz,
    created_at timestamptz not null default now(),
    primary key (tenant_id, id),
    constraint people_login_name check (username is not null or email is not null),
    constraint people_terms_accepted check ((terms_version_accepted is null) = (terms_accepted_at is null))
);

-- Unique per tenant, whatever the case; these also serve the LOGIN lookup.
create unique index people_username on people (tenant_id, username_key);
create unique index people_email on people (tenant_id, email_key);
create unique index people_external_ref on people (tenant_id, external_ref);

alter table people enable row level security;
alter table people force row level security;

create policy people_tenant on people
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Who sees a person: people_visible, after the sessions table it reads (WHO SEES A PERSON).

-- Only admins create people (`storykeep user create` acts as one for a tenant's first admin).
create policy people_insert on people as restrictive for insert
    with check ((select current_person_role()) = 'AGENCY_ADMIN');

-- A person updates their own row (username at activation, terms); admins update anyone's.
-- Which columns a non-admin may change is held by people_guard below.
create policy people_update on people as restrictive for update
    using (id = (select current_person_id()) or (select current_person_role()) = 'AGENCY_ADMIN')
    with check (id = (select current_person_id()) or (select current_person_role()) = 'AGENCY_ADMIN');

-- Who someone is (their email, name, case reference) and whether they are disabled is the
-- agency's to say: a person's own update may not touch it. (A trigger, not a SECURITY DEFINER:
-- it runs with the caller's rights and only refuses.)
create function people_guard() returns trigger
    language plpgsql
as $$
begin
    if current_person_role() is distinct from 'AGENCY_ADMIN'
       and (new.email, new.display_name, new.external_ref, new.disabled_at)
           is distinct from (old.email, old.display_name, old.external_ref, old.disabled_at) then
        raise exception 'only an agency admin may change a person''s email, name, case reference or disabled state'
            using errcode = 'insufficient_privilege';
    end if;
    return new;
end;
$$;

create trigger people_guard before update on people
    for each row execute function people_guard();

-- Roles never change through the server (no grant on `role`); people are disabled, not deleted.
grant select, insert on people to storykeep_app;
grant update (username, email, display_name, external_ref, disabled_at, terms_version_accepted, terms_accepted_at)
    on people to storykeep_app;

-- CREDENTIALS
--
-- A person's password hash, apart from `people` so that admins, who read people, never read it.
-- No row until the person first sets a password with an activation code.

create table credentials (
    tenant_id uuid not null references tenants (tenant_id),
    person_id uuid not null,
    -- An Argon2id PHC string ($argon2id$v=19$m=...,t=...,p=...$salt$hash), never a password.
    password_hash text not null constraint credentials_argon2id check (password_hash ~ '^\$argon2id\$'),
    updated_at timestamptz not null default now(),
    primary key (tenant_id, person_id),
    foreign key (tenant_id, person_id) references people (tenant_id, id)
);

alter table credentials enable row level security;
alter table credentials force row level security;

create policy credentials_tenant on credentials
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Read by the person (to check the current password when changing it) and by a LOGIN for the
-- name it looks for. Nobody else, admins included.
create policy credentials_visible on credentials as restrictive for select
    using (
        person_id = (select current_person_id())
        or ((select current_person_role()) = 'LOGIN'
            and person_id in (select p.id from people p
                              where p.tenant_id = credentials.tenant_id
                                and (p.username_key = (select current_login_name())
                                     or p.email_key = (select current_login_name()))))
    );

-- Written only by the person: activation, password change, and the rehash after a login, all
-- after the server has switched the transaction to them.
create policy credentials_insert on credentials as restrictive for insert
    with check (person_id = (select current_person_id()));

create policy credentials_update on credentials as restrictive for update
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()));

grant select, insert on credentials to storykeep_app;
grant update (password_hash, updated_at) on credentials to storykeep_app;

-- ACTIVATION CODES
--
-- One-time codes (Sources/Storykeep/Accounts/ActivationCode.swift) an admin hands a person to set
-- their password: stored as SHA-256, valid until expires_at, spent when used_at is set. Issuing a
-- new code for a person expires their unused ones.

create table activation_codes (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    person_id uuid not null,
    code_hash bytea not null constraint activation_codes_sha256 check (length(code_hash) = 32),
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    used_at timestamptz,
    primary key (tenant_id, id),
    foreign key (tenant_id, person_id) references people (tenant_id, id),
    constraint activation_codes_expiry check (expires_at > created_at)
);

create unique index activation_codes_code_hash on activation_codes (tenant_id, code_hash);
create index activation_codes_person on activation_codes (tenant_id, person_id);

alter table activation_codes enable row level security;
alter table activation_codes force row level security;

create policy activation_codes_tenant on activation_codes
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Admins issue and expire codes; an ACTIVATION sees, and spends, the code whose hash it holds.
create policy activation_codes_visible on activation_codes as restrictive for select
    using (
        (select current_person_role()) = 'AGENCY_ADMIN'
        or ((select current_person_role()) = 'ACTIVATION' and code_hash = (select current_secret_hash()))
    );

create policy activation_codes_insert on activation_codes as restrictive for insert
    with check ((select current_person_role()) = 'AGENCY_ADMIN');

create policy activation_codes_update on activation_codes as restrictive for update
    using (
        (select current_person_role()) = 'AGENCY_ADMIN'
        or ((select current_person_role()) = 'ACTIVATION' and code_hash = (select current_secret_hash()))
    )
    with check (
        (select current_person_role()) = 'AGENCY_ADMIN'
        or ((select current_person_role()) = 'ACTIVATION' and code_hash = (select current_secret_hash()))
    );

grant select, insert on activation_codes to storykeep_app;
grant update (expires_at, used_at) on activation_codes to storykeep_app;

-- SESSIONS
--
-- Only the SHA-256 of a token (Sources/Storykeep/Accounts/SessionToken.swift) is stored. A
-- session belongs to one tenant: a token is looked up under that tenant's policy, so another
-- tenant's token finds nothing. It ends at expires_at, which each use slides forward (to
-- now + idle timeout) but never past max_expires_at, or when revoked (logout, password change,
-- disabling).

create table sessions (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    person_id uuid not null,
    token_hash bytea not null constraint sessions_sha256 check (length(token_hash) = 32),
    created_at timestamptz not null default now(),
    last_used_at timestamptz not null default now(),
    expires_at timestamptz not null,
    max_expires_at timestamptz not null,
    revoked_at timestamptz,
    primary key (tenant_id, id),
    foreign key (tenant_id, person_id) references people (tenant_id, id),
    constraint sessions_expiry check (expires_at <= max_expires_at)
);

create unique index sessions_token_hash on sessions (tenant_id, token_hash);
create index sessions_person on sessions (tenant_id, person_id) where revoked_at is null;

alter table sessions enable row level security;
alter table sessions force row level security;

create policy sessions_tenant on sessions
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- A person's sessions are theirs; admins see them to end them; an AUTHENTICATION sees the live
-- session whose token hash it holds.
create policy sessions_visible on sessions as restrictive for select
    using (
        person_id = (select current_person_id())
        or (select current_person_role()) = 'AGENCY_ADMIN'
        or ((select current_person_role()) = 'AUTHENTICATION'
            and token_hash = (select current_secret_hash()) and revoked_at is null and expires_at > now())
    );

-- Created only in the person's own context, that is after their password or code was checked.
create policy sessions_insert on sessions as restrictive for insert
    with check (person_id = (select current_person_id()));

-- The person slides and revokes their own; admins revoke anyone's.
create policy sessions_update on sessions as restrictive for update
    using (person_id = (select current_person_id()) or (select current_person_role()) = 'AGENCY_ADMIN')
    with check (person_id = (select current_person_id()) or (select current_person_role()) = 'AGENCY_ADMIN');

grant select, insert on sessions to storykeep_app;
grant update (last_used_at, expires_at, revoked_at) on sessions to storykeep_app;

-- WHO SEES A PERSON (people's select policy, here because it reads sessions)
--
-- Themselves; the tenant's admins; a LOGIN looking for their username or email; an
-- AUTHENTICATION holding the hash of one of their live sessions (so a request's token and its
-- person are found in one statement: the subquery sees only that session, by its policy).
-- Restrictive policies only narrow: a later module that must show a person's name to others
-- (sharing, the social feed) replaces this policy in its migration.
create policy people_visible on people as restrictive for select
    using (
        id = (select current_person_id())
        or (select current_person_role()) = 'AGENCY_ADMIN'
        or ((select current_person_role()) = 'LOGIN'
            and (username_key = (select current_login_name()) or email_key = (select current_login_name())))
        or ((select current_person_role()) = 'AUTHENTICATION'
            and id in (select s.person_id from sessions s
                       where s.tenant_id = people.tenant_id and s.token_hash = (select current_secret_hash())))
    );

-- LOGIN FAILURES
--
-- Failed logins per tenant and login name (as current_login_name() normalises it), whether or
-- not a person has that name, so that the back-off (Sources/Storykeep/Accounts/Lockout.swift)
-- says nothing about which accounts exist. A success deletes the row.

create table login_failures (
    tenant_id uuid not null references tenants (tenant_id),
    login_name text not null constraint login_failures_name_length check (length(login_name) between 1 and 254),
    failures integer not null constraint login_failures_positive check (failures > 0),
    last_failure_at timestamptz not null,
    primary key (tenant_id, login_name)
);

alter table login_failures enable row level security;
alter table login_failures force row level security;

create policy login_failures_tenant on login_failures
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Only a LOGIN, and only for the name it looks for.
create policy login_failures_own_name on login_failures as restrictive
    using ((select current_person_role()) = 'LOGIN' and login_name = (select current_login_name()))
    with check ((select current_person_role()) = 'LOGIN' and login_name = (select current_login_name()));

grant select, insert, update, delete on login_failures to storykeep_app;
