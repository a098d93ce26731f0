-- 0030_privacy: the GDPR rights of access and erasure (issue 14; Sources/Storykeep/Privacy/).
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, and the policies sit next to the table they guard.
--
-- DATA EXPORTS. `requestMyData` (a person, about themself) and `exportPersonData` (an agency
-- admin, about a person of their agency: a subject access request) each add a row here; the
-- server's background job builds the ZIP and stores it in the row, so that a request survives a
-- restart of the server: a row still PENDING, or BUILDING by a server that stopped (claimed long
-- ago), is claimed again. The ZIP waits here until it is downloaded once through a signed link
-- (then its bytes go at once) or it expires (then the job removes the bytes).
--
-- WHO SEES A ROW: the person who asked (requested_by), to follow its progress; and the tenant's
-- operator (role AGENCY_ADMIN with no person: the server's own work, the builder, the signed
-- download, `storykeep person export`). An agency admin person sees only the exports they asked
-- for, not another admin's, and not a young person's own.

create table data_exports (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    -- Whose data.
    person_id uuid not null,
    -- Who asked: the person, or an agency admin; null for the operator (the command line).
    requested_by uuid,
    status text not null default 'PENDING'
        constraint data_exports_status check (status in ('PENDING', 'BUILDING', 'READY', 'DOWNLOADED', 'EXPIRED', 'FAILED')),
    -- 0 to 100: how much of the ZIP is built.
    progress integer not null default 0 constraint data_exports_progress check (progress between 0 and 100),
    requested_at timestamptz not null default clock_timestamp(),
    -- When a builder took it (a claim older than a few minutes is a builder that stopped).
    claimed_at timestamptz,
    ready_at timestamptz,
    -- The link works until then; the bytes go then.
    expires_at timestamptz,
    downloaded_at timestamptz,
    zip bytea,
    byte_size bigint generated always as (octet_length(zip)) stored,
    sha256 bytea generated always as (sha256(zip)) stored,
    primary key (tenant_id, id),
    foreign key (tenant_id, person_id) references people (tenant_id, id),
    foreign key (tenant_id, requested_by) references people (tenant_id, id),
    constraint data_exports_ready check ((status = 'READY') = (zip is not null))
);

-- Already compressed or small: no second compression; slices read only the chunks needed.
alter table data_exports alter column zip set storage external;

-- The builder's queue, oldest first.
create index data_exports_queue on data_exports (tenant_id, status, requested_at);

alter table data_exports enable row level security;
alter table data_exports force row level security;

create policy data_exports_tenant on data_exports
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy data_exports_visible on data_exports as restrictive
    using (
        requested_by = (select current_person_id())
        or ((select current_person_role()) = 'AGENCY_ADMIN' and (select current_person_id()) is null)
    )
    with check (
        requested_by is not distinct from (select current_person_id())
        or ((select current_person_role()) = 'AGENCY_ADMIN' and (select current_person_id()) is null)
    );

-- A person asks about themself; an agency admin about anyone of the tenant (the resolver checks
-- the person is theirs to see, which people_visible already ensures: an admin sees the tenant).
create policy data_exports_insert on data_exports as restrictive for insert
    with check (
        person_id = (select current_person_id())
        or (select current_person_role()) = 'AGENCY_ADMIN'
    );

grant select, insert on data_exports to storykeep_app;
grant update (status, progress, claimed_at, ready_at, expires_at, downloaded_at, zip) on data_exports to storykeep_app;
grant delete on data_exports to storykeep_app;
