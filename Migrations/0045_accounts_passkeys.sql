-- 0045_accounts_passkeys: passkeys (WebAuthn), a second way to log in (issue 21), and the
-- challenges of their ceremonies. Part of accounts: the same lockout, sessions and audit as the
-- password (Sources/Storykeep/Accounts/Passkeys/).
--
-- WHO IS ASKING (0002's pre-login steps, and one more)
--
--   PASSKEY   storykeep.secret_hash = hex SHA-256 of a login challenge (beginPasskeyLogin makes
--             it, finishPasskeyLogin spends it), storykeep.login_name = hex of the credential id
--             the assertion names. Sees that challenge, and the passkey with that credential id.
--   LOGIN     (0002) also sees the passkeys of the person whose name it holds: the credentials
--             beginPasskeyLogin(username) offers (allowCredentials).
--
-- Only after the signature checked out with the stored key does the server switch the
-- transaction to the passkey's person, who alone may update their passkey's counter, end the
-- challenge of a second step, or start a session (0002).

-- The credential id a PASSKEY login names (storykeep.login_name, hex), or NULL: a name that is not
-- hex (a LOGIN's) is never decoded.
create function current_passkey_credential_id() returns bytea
    language sql stable parallel safe
    return case when current_person_role() = 'PASSKEY' and current_login_name() ~ '^([0-9a-f]{2})+$'
                then decode(current_login_name(), 'hex') end;

comment on function current_passkey_credential_id() is
    'The credential id (storykeep.login_name, hex) a PASSKEY login looks for, or NULL.';

-- PASSKEYS
--
-- A person's credentials: the id the authenticator chose, the public key as the authenticator
-- wrote it (COSE, RFC 9052), and its signature counter. The user handle is the person's opaque
-- id on their authenticators (random, never a name or email), the same for each of their passkeys.

create table passkeys (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    person_id uuid not null,
    credential_id bytea not null constraint passkeys_credential_id check (length(credential_id) between 1 and 1023),
    user_handle bytea not null constraint passkeys_user_handle check (length(user_handle) between 1 and 64),
    public_key bytea not null constraint passkeys_public_key check (length(public_key) between 1 and 2048),
    -- COSE algorithm: ES256 (-7) or RS256 (-257).
    algorithm integer not null constraint passkeys_algorithm check (algorithm in (-7, -257)),
    -- The authenticator's counter at its last use (0: it keeps none).
    sign_count bigint not null default 0 constraint passkeys_sign_count check (sign_count between 0 and 4294967295),
    -- The person's name for it ("Sam's phone").
    name text not null constraint passkeys_name check (char_length(name) between 1 and 60),
    created_at timestamptz not null default now(),
    last_used_at timestamptz,
    primary key (tenant_id, id),
    foreign key (tenant_id, person_id) references people (tenant_id, id)
);

-- A credential id names one passkey of the tenant: what a login looks it up by.
create unique index passkeys_credential on passkeys (tenant_id, credential_id);
create index passkeys_person on passkeys (tenant_id, person_id, created_at);

alter table passkeys enable row level security;
alter table passkeys force row level security;

create policy passkeys_tenant on passkeys
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- The person's own; a PASSKEY login, the one credential it names; a LOGIN, those of the person
-- whose username or email it holds. Nobody else, admins included.
create policy passkeys_visible on passkeys as restrictive for select
    using (
        person_id = (select current_person_id())
        or credential_id = (select current_passkey_credential_id())
        or ((select current_person_role()) = 'LOGIN'
            and person_id in (select p.id from people p
                              where p.tenant_id = passkeys.tenant_id
                                and (p.username_key = (select current_login_name())
                                     or p.email_key = (select current_login_name()))))
    );

-- Registered, renamed, counted and removed by the person alone.
create policy passkeys_insert on passkeys as restrictive for insert
    with check (person_id = (select current_person_id()));

create policy passkeys_update on passkeys as restrictive for update
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()));

create policy passkeys_delete on passkeys as restrictive for delete
    using (person_id = (select current_person_id()));

grant select, insert, delete on passkeys to storykeep_app;
grant update (name, sign_count, last_used_at) on passkeys to storykeep_app;

-- CHALLENGES
--
-- Each ceremony's challenge: 32 random bytes the server hands out, kept here as SHA-256 (like
-- activation codes) so that any server of several can check it, spent (deleted) by the first
-- login answer that names it, right or wrong, or by the passkey it registers, and dead after
-- expires_at (a few minutes). Bound to the tenant by the tenant policy: another tenant's
-- challenge is never found.
--
--   register      a person adding a passkey: theirs, with the user handle offered.
--   login         a login by passkey alone: nobody's yet.
--   second_step   a login that gave the right password and must now show a passkey too
--                 (accounts.adultsRequirePasskey): that person's.

create table passkey_challenges (
    tenant_id uuid not null references tenants (tenant_id),
    challenge_hash bytea not null constraint passkey_challenges_sha256 check (length(challenge_hash) = 32),
    purpose text not null constraint passkey_challenges_purpose check (purpose in ('register', 'login', 'second_step')),
    person_id uuid,
    user_handle bytea,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    primary key (tenant_id, challenge_hash),
    foreign key (tenant_id, person_id) references people (tenant_id, id),
    constraint passkey_challenges_whose check ((purpose = 'login') = (person_id is null)),
    constraint passkey_challenges_handle check ((purpose = 'register') = (user_handle is not null))
);

-- The background purge of dead challenges.
create index passkey_challenges_expiry on passkey_challenges (tenant_id, expires_at);

alter table passkey_challenges enable row level security;
alter table passkey_challenges force row level security;

create policy passkey_challenges_tenant on passkey_challenges
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- A person's own challenges; a PASSKEY login, the one whose hash it holds; the tenant's operator
-- (the purge: AGENCY_ADMIN without a person), those that expired.
create policy passkey_challenges_visible on passkey_challenges as restrictive for select
    using (
        person_id = (select current_person_id())
        or ((select current_person_role()) = 'PASSKEY' and challenge_hash = (select current_secret_hash()))
        or ((select current_person_role()) = 'AGENCY_ADMIN' and (select current_person_id()) is null and expires_at < now())
    );

-- A person makes theirs; a PASSKEY login makes the nobody's challenge whose hash it holds.
create policy passkey_challenges_insert on passkey_challenges as restrictive for insert
    with check (
        person_id = (select current_person_id())
        or ((select current_person_role()) = 'PASSKEY' and person_id is null and challenge_hash = (select current_secret_hash()))
    );

create policy passkey_challenges_delete on passkey_challenges as restrictive for delete
    using (
        person_id = (select current_person_id())
        or ((select current_person_role()) = 'PASSKEY' and challenge_hash = (select current_secret_hash()))
        or ((select current_person_role()) = 'AGENCY_ADMIN' and (select current_person_id()) is null and expires_at < now())
    );

grant select, insert, delete on passkey_challenges to storykeep_app;

-- ERASURE (0031): the person's passkeys and challenges go with them.
create function privacy_erase_passkeys(tenant uuid, person uuid) returns void
    language sql
    set search_path = public, pg_temp
begin atomic
    delete from passkey_challenges c where c.tenant_id = tenant and c.person_id = person;
    delete from passkeys k where k.tenant_id = tenant and k.person_id = person;
end;

comment on function privacy_erase_passkeys(uuid, uuid) is
    'An erasure''s passkey part: the person''s passkeys and their unspent challenges.';

revoke all on function privacy_erase_passkeys(uuid, uuid) from public;

select privacy_admit_erasure();
