-- 0032_social: the social module's people (issue 13): a social profile per person who takes part,
-- friendships (requests, then friends) and blocks. Posts, comments and reactions follow in 0033,
-- moderation in 0034.
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- next to each table narrow them.
--
-- WHO TAKES PART
--
-- A person takes part while the agency has `social` in its file's modules and their role is one
-- of the file's `social.participants` (default young people only): current_person_in_social()
-- below reads both from the tenants row, so that switching the module off, or taking a role out
-- of the list, closes everything at once in the database, whatever a server's cache holds. Staff
-- who take part are labelled (`staff`, set from their role and held by the policies).
-- An agency admin reads every profile, post and comment (moderation) without taking part.
--
-- BLOCKS, BOTH WAYS
--
-- A block hides two people from each other everywhere: current_social_blocked() is everyone the
-- person acting blocked or was blocked by, and every read policy of the social tables leaves out
-- rows by them (profiles, friendships, posts, comments, reactions). For that the blocked person's
-- context must see the block row too (social_blocks_read): a statement could tell them that a
-- block exists; the API never does (it never lists who blocked whom, only one's own blocks).

-- WHO TAKES PART

create function current_person_in_social() returns boolean
    language sql stable parallel safe
as $$
    select coalesce(
        (select t.config -> 'modules' ? 'social'
                and coalesce(t.config -> 'social' -> 'participants', '["YOUNG_PERSON"]'::jsonb) ? (select current_person_role())
         from tenants t where t.tenant_id = (select current_tenant_id())),
        false)
$$;

comment on function current_person_in_social() is
    'Whether the person acting takes part in the social module: it is on and their role is one of social.participants.';

-- Whether the person acting moderates: an agency admin of a tenant with the module on.
create function current_person_moderates_social() returns boolean
    language sql stable parallel safe
as $$
    select (select current_person_role()) = 'AGENCY_ADMIN' and (select current_tenant_has_module('social'))
$$;

comment on function current_person_moderates_social() is
    'Whether the person acting is an agency admin of a tenant with the social module on.';

-- SOCIAL PROFILES
--
-- What others see of a person in the social module: a display name they chose (never their legal
-- name, username, email or case reference, which stay in `people`), a bio, interests, whether
-- only friends see their posts and bio (`private`), and whether they may be found by name
-- (`discoverable`). Written by the person alone; made by their first updateSocialProfile.

-- Interests: at most 10, each 1 to 40 characters (TextLimit.socialInterest).
create function social_interests_valid(interests text[]) returns boolean
    language sql immutable parallel safe
    return cardinality(interests) <= 10
        and coalesce((select bool_and(length(i) between 1 and 40) from unnest(interests) as i), true);

create table social_profiles (
    tenant_id uuid not null references tenants (tenant_id),
    person_id uuid not null,
    display_name text not null constraint social_profiles_display_name_length check (length(display_name) between 1 and 60),
    bio text constraint social_profiles_bio_length check (length(bio) between 1 and 300),
    interests text[] not null default '{}' constraint social_profiles_interests check (social_interests_valid(interests)),
    private boolean not null default false,
    discoverable boolean not null default false,
    -- An adult of the agency taking part (social.participants): shown as staff.
    staff boolean not null,
    -- What searchPeople matches: the display name lower-cased.
    name_key text generated always as (lower(display_name)) stored,
    created_at timestamptz not null default clock_timestamp(),
    updated_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, person_id),
    foreign key (tenant_id, person_id) references people (tenant_id, id)
);

-- searchPeople: the discoverable people of a tenant by name (a prefix of the name or of a word
-- of it; the tenant's few hundred profiles are read through this index).
create index social_profiles_discoverable on social_profiles (tenant_id, name_key) where discoverable;

alter table social_profiles enable row level security;
alter table social_profiles force row level security;

create policy social_profiles_tenant on social_profiles
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- BLOCKS (first: the profiles' policies ask them)

create table social_blocks (
    tenant_id uuid not null references tenants (tenant_id),
    blocker_id uuid not null,
    blocked_id uuid not null,
    created_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, blocker_id, blocked_id),
    foreign key (tenant_id, blocker_id) references people (tenant_id, id),
    foreign key (tenant_id, blocked_id) references people (tenant_id, id),
    constraint social_blocks_two_people check (blocker_id <> blocked_id)
);

-- The other direction: the blocks naming a person as blocked.
create index social_blocks_blocked on social_blocks (tenant_id, blocked_id, blocker_id);

alter table social_blocks enable row level security;
alter table social_blocks force row level security;

create policy social_blocks_tenant on social_blocks
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Both people see the row (BLOCKS, BOTH WAYS); only the blocker makes and lifts it.
create policy social_blocks_read on social_blocks as restrictive for select
    using ((select current_person_id()) = any (array[blocker_id, blocked_id]));

create policy social_blocks_insert on social_blocks as restrictive for insert
    with check (blocker_id = (select current_person_id()) and (select current_person_in_social()));

create policy social_blocks_delete on social_blocks as restrictive for delete
    using (blocker_id = (select current_person_id()));

grant select, insert, delete on social_blocks to storykeep_app;

-- Everyone the person acting blocked or was blocked by. A SQL function, stable, of one SELECT: a
-- policy calls it as `x not in (select current_social_blocked())`, uncorrelated, a hash of a few
-- ids built once per statement.
create function current_social_blocked() returns setof uuid
    language sql stable parallel safe
as $$
    select b.blocked_id from social_blocks b
    where b.tenant_id = (select current_tenant_id()) and b.blocker_id = (select current_person_id())
    union all
    select b.blocker_id from social_blocks b
    where b.tenant_id = (select current_tenant_id()) and b.blocked_id = (select current_person_id())
$$;

comment on function current_social_blocked() is
    'The people the person acting blocked or was blocked by (social_blocks).';

-- A profile: its person's own; anyone's who takes part and is not blocked either way, when the
-- reader takes part too; every one for the moderating admin. (What of a private profile a
-- non-friend reads, its bio and interests, the statements leave out: SocialStatements.)
create policy social_profiles_read on social_profiles as restrictive for select
    using (
        person_id = (select current_person_id())
        or ((select current_person_in_social()) and person_id not in (select current_social_blocked()))
        or (select current_person_moderates_social())
    );

-- One's own, while taking part, labelled staff exactly when one is not a young person.
create policy social_profiles_insert on social_profiles as restrictive for insert
    with check (
        person_id = (select current_person_id()) and (select current_person_in_social())
        and staff = ((select current_person_role()) <> 'YOUNG_PERSON')
    );

create policy social_profiles_update on social_profiles as restrictive for update
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()) and (select current_person_in_social()));

grant select, insert on social_profiles to storykeep_app;
grant update (display_name, bio, interests, private, discoverable, updated_at) on social_profiles to storykeep_app;

-- FRIENDSHIPS
--
-- A request (`accepted_at` null) from `requester_id` to `addressee_id`, then a friendship once
-- the addressee accepts. Declining, cancelling and removing a friend delete the row, so that
-- either may ask again later (the rate limit of 0034 bounds how often). One row per pair,
-- whichever way it was asked.

create table social_friendships (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    requester_id uuid not null,
    addressee_id uuid not null,
    requested_at timestamptz not null default clock_timestamp(),
    accepted_at timestamptz,
    primary key (tenant_id, id),
    foreign key (tenant_id, requester_id) references social_profiles (tenant_id, person_id),
    foreign key (tenant_id, addressee_id) references social_profiles (tenant_id, person_id),
    constraint social_friendships_two_people check (requester_id <> addressee_id),
    constraint social_friendships_accepted_after check (accepted_at is null or accepted_at >= requested_at)
);

create unique index social_friendships_pair on social_friendships
    (tenant_id, least(requester_id, addressee_id), greatest(requester_id, addressee_id));
create index social_friendships_requester on social_friendships (tenant_id, requester_id, addressee_id);
create index social_friendships_addressee on social_friendships (tenant_id, addressee_id, requester_id);

alter table social_friendships enable row level security;
alter table social_friendships force row level security;

create policy social_friendships_tenant on social_friendships
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Its two people read it while they take part and neither blocked the other (a block also
-- deletes it: SocialStore.block).
create policy social_friendships_read on social_friendships as restrictive for select
    using (
        (select current_person_id()) = any (array[requester_id, addressee_id])
        and (select current_person_in_social())
        and requester_id not in (select current_social_blocked())
        and addressee_id not in (select current_social_blocked())
    );

-- A request in one's own name, not accepted yet, to someone whose profile one may read (so: who
-- takes part and is not blocked either way).
create policy social_friendships_insert on social_friendships as restrictive for insert
    with check (
        requester_id = (select current_person_id()) and accepted_at is null
        and (select current_person_in_social())
        and exists (select from social_profiles p where p.tenant_id = social_friendships.tenant_id and p.person_id = addressee_id)
    );

-- The addressee accepts.
create policy social_friendships_update on social_friendships as restrictive for update
    using (addressee_id = (select current_person_id()) and (select current_person_in_social()))
    with check (addressee_id = (select current_person_id()) and accepted_at is not null);

-- Either declines, cancels or ends it.
create policy social_friendships_delete on social_friendships as restrictive for delete
    using ((select current_person_id()) = any (array[requester_id, addressee_id]));

grant select, insert, delete on social_friendships to storykeep_app;
grant update (accepted_at) on social_friendships to storykeep_app;

-- The friends of the person acting (accepted friendships, as far as social_friendships_read shows
-- them: none blocked), for the policies of 0033 (`author_id in (select current_social_friends())`).
create function current_social_friends() returns setof uuid
    language sql stable parallel safe
as $$
    select case when f.requester_id = (select current_person_id()) then f.addressee_id else f.requester_id end
    from social_friendships f
    where f.tenant_id = (select current_tenant_id()) and f.accepted_at is not null
      and (select current_person_id()) = any (array[f.requester_id, f.addressee_id])
$$;

comment on function current_social_friends() is
    'The friends of the person acting (accepted social_friendships they may read).';
