-- 0033_social_posts: posts, their files, reactions and comments, and interest groups (issue 13).
-- Follows the pattern of 0001_tenancy and 0032_social: tenant_id leads every key, row-level
-- security is enabled and forced, restrictive policies next to each table.
--
-- WHO READS A POST (social_posts_read, the one place it is written)
--
-- Its author; the moderating admin (0032: an agency admin of a tenant with the module on); and a
-- person who takes part, when the post is published and not deleted, its author is not blocked
-- either way, and:
--   - in a group: they are a member of the group (whatever the post's visibility);
--   - otherwise: they are the author's friend, or the post is for the AGENCY and the author's
--     profile is not private.
-- Comments, reactions and a post's files are read through it: each of their read policies asks
-- `exists (select from social_posts ...)`, which social_posts_read answers. A file of a post
-- (the journal's `media`, served at media/<id> with Range) is readable by whoever reads the post:
-- media_read gains that arm below.

-- INTEREST GROUPS: made by agency admins; people join and leave them.

create table social_groups (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    name text not null constraint social_groups_name_length check (length(name) between 1 and 80),
    description text constraint social_groups_description_length check (length(description) between 1 and 500),
    created_by uuid not null,
    created_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, id),
    foreign key (tenant_id, created_by) references people (tenant_id, id)
);

create unique index social_groups_name on social_groups (tenant_id, lower(name));

alter table social_groups enable row level security;
alter table social_groups force row level security;

create policy social_groups_tenant on social_groups
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy social_groups_read on social_groups as restrictive for select
    using ((select current_person_in_social()) or (select current_person_moderates_social()));

create policy social_groups_insert on social_groups as restrictive for insert
    with check ((select current_person_moderates_social()) and created_by = (select current_person_id()));

grant select, insert on social_groups to storykeep_app;

create table social_group_members (
    tenant_id uuid not null references tenants (tenant_id),
    group_id uuid not null,
    person_id uuid not null,
    joined_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, group_id, person_id),
    foreign key (tenant_id, group_id) references social_groups (tenant_id, id),
    foreign key (tenant_id, person_id) references social_profiles (tenant_id, person_id)
);

create index social_group_members_person on social_group_members (tenant_id, person_id, group_id);

alter table social_group_members enable row level security;
alter table social_group_members force row level security;

create policy social_group_members_tenant on social_group_members
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- One's own memberships (who else is in a group is not shown).
create policy social_group_members_own on social_group_members as restrictive
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()) and (select current_person_in_social()));

grant select, insert, delete on social_group_members to storykeep_app;

-- The groups the person acting is a member of.
create function current_social_groups() returns setof uuid
    language sql stable parallel safe
as $$
    select m.group_id from social_group_members m
    where m.tenant_id = (select current_tenant_id()) and m.person_id = (select current_person_id())
$$;

comment on function current_social_groups() is 'The social groups the person acting is a member of.';

-- The people whose profile is private, as far as the person acting reads profiles.
create function current_social_private_people() returns setof uuid
    language sql stable parallel safe
as $$
    select p.person_id from social_profiles p where p.tenant_id = (select current_tenant_id()) and p.private
$$;

comment on function current_social_private_people() is 'The people whose social profile is private.';

-- POSTS

create type social_post_visibility as enum ('AGENCY', 'FRIENDS');

-- PENDING_REVIEW: held for a moderator (the tenant's blocked words, 0034); REMOVED: taken down
-- by one. Only PUBLISHED posts and comments are read by others.
create type social_content_status as enum ('PUBLISHED', 'PENDING_REVIEW', 'REMOVED');

create table social_posts (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    author_id uuid not null,
    text text constraint social_posts_text_length check (length(text) between 1 and 2000),
    -- A plain http(s) URL, shown as it is: the server never fetches it.
    link text constraint social_posts_link_length check (length(link) between 1 and 2000)
        constraint social_posts_link_format check (link ~ '^https?://[^[:space:]]+$'),
    group_id uuid,
    visibility social_post_visibility not null,
    status social_content_status not null default 'PUBLISHED',
    created_at timestamptz not null default clock_timestamp(),
    edited_at timestamptz,
    deleted_at timestamptz,
    primary key (tenant_id, id),
    -- The target of the files' key, which holds a post's files to its author's.
    unique (tenant_id, id, author_id),
    foreign key (tenant_id, author_id) references social_profiles (tenant_id, person_id),
    foreign key (tenant_id, group_id) references social_groups (tenant_id, id)
);

-- The timeline, newest first: (created_at, id) descending is its order and its cursor, read by a
-- backward scan that the policy filters. A profile's posts and a group's likewise.
create index social_posts_timeline on social_posts (tenant_id, created_at, id);
create index social_posts_author on social_posts (tenant_id, author_id, created_at, id);
create index social_posts_group on social_posts (tenant_id, group_id, created_at, id) where group_id is not null;

alter table social_posts enable row level security;
alter table social_posts force row level security;

create policy social_posts_tenant on social_posts
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy social_posts_read on social_posts as restrictive for select
    using (
        (author_id = (select current_person_id()) and (select current_person_in_social()))
        or (select current_person_moderates_social())
        or ((select current_person_in_social()) and status = 'PUBLISHED' and deleted_at is null
            and author_id not in (select current_social_blocked())
            and case when group_id is not null then group_id in (select current_social_groups())
                     else author_id in (select current_social_friends())
                          or (visibility = 'AGENCY' and author_id not in (select current_social_private_people()))
                end)
    );

-- In one's own name, while taking part, to a group only as a member of it.
create policy social_posts_insert on social_posts as restrictive for insert
    with check (
        author_id = (select current_person_id()) and (select current_person_in_social())
        and (group_id is null or group_id in (select current_social_groups()))
    );

-- The author edits and deletes their own.
create policy social_posts_update on social_posts as restrictive for update
    using (author_id = (select current_person_id()) and (select current_person_in_social()))
    with check (author_id = (select current_person_id()));

grant select, insert on social_posts to storykeep_app;
grant update (text, link, status, edited_at, deleted_at) on social_posts to storykeep_app;

-- A POST'S FILES: the author's own uploads (the journal's media), in order.

create table social_post_media (
    tenant_id uuid not null references tenants (tenant_id),
    post_id uuid not null,
    media_id uuid not null,
    author_id uuid not null,
    position int not null constraint social_post_media_position check (position between 0 and 9),
    primary key (tenant_id, post_id, media_id),
    foreign key (tenant_id, post_id, author_id) references social_posts (tenant_id, id, author_id),
    foreign key (tenant_id, media_id, author_id) references media (tenant_id, id, owner_id)
);

create index social_post_media_media on social_post_media (tenant_id, media_id);

alter table social_post_media enable row level security;
alter table social_post_media force row level security;

create policy social_post_media_tenant on social_post_media
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy social_post_media_read on social_post_media as restrictive for select
    using (exists (select from social_posts p where p.tenant_id = social_post_media.tenant_id and p.id = social_post_media.post_id));

create policy social_post_media_insert on social_post_media as restrictive for insert
    with check (author_id = (select current_person_id()));

grant select, insert on social_post_media to storykeep_app;

-- A file: its owner's, a sharee's (0012, with 0025's probe), and now anyone's who reads a post it
-- is attached to (the probe sees only the links social_post_media_read shows them; `offset 0`
-- keeps it a correlated probe, as 0025 explains).
alter policy media_read on media
    using (
        owner_id = (select current_person_id())
        or exists (select from entry_media em
                   where em.tenant_id = media.tenant_id and em.media_id = media.id
                   offset 0)
        or exists (select from social_post_media pm
                   where pm.tenant_id = media.tenant_id and pm.media_id = media.id
                   offset 0)
    );

-- REACTIONS: one per person and post, of a fixed set.

create type social_reaction_kind as enum ('LIKE', 'LOVE', 'LAUGH', 'WOW', 'SAD', 'HUG');

create table social_reactions (
    tenant_id uuid not null references tenants (tenant_id),
    post_id uuid not null,
    person_id uuid not null,
    kind social_reaction_kind not null,
    created_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, post_id, person_id),
    foreign key (tenant_id, post_id) references social_posts (tenant_id, id),
    foreign key (tenant_id, person_id) references social_profiles (tenant_id, person_id)
);

alter table social_reactions enable row level security;
alter table social_reactions force row level security;

create policy social_reactions_tenant on social_reactions
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Of a post one reads, by someone not blocked either way.
create policy social_reactions_read on social_reactions as restrictive for select
    using (
        person_id not in (select current_social_blocked())
        and exists (select from social_posts p where p.tenant_id = social_reactions.tenant_id and p.id = social_reactions.post_id)
    );

-- One's own, on a post one reads, while taking part (a restrictive policy FOR ALL would narrow
-- reading too: hence one per command).
create policy social_reactions_insert on social_reactions as restrictive for insert
    with check (
        person_id = (select current_person_id()) and (select current_person_in_social())
        and exists (select from social_posts p where p.tenant_id = social_reactions.tenant_id and p.id = social_reactions.post_id)
    );

create policy social_reactions_update on social_reactions as restrictive for update
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()) and (select current_person_in_social()));

create policy social_reactions_delete on social_reactions as restrictive for delete
    using (person_id = (select current_person_id()));

grant select, insert, delete on social_reactions to storykeep_app;
grant update (kind, created_at) on social_reactions to storykeep_app;

-- COMMENTS

create table social_comments (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    post_id uuid not null,
    author_id uuid not null,
    text text not null constraint social_comments_text_length check (length(text) between 1 and 1000),
    status social_content_status not null default 'PUBLISHED',
    created_at timestamptz not null default clock_timestamp(),
    deleted_at timestamptz,
    primary key (tenant_id, id),
    foreign key (tenant_id, post_id) references social_posts (tenant_id, id),
    foreign key (tenant_id, author_id) references social_profiles (tenant_id, person_id)
);

create index social_comments_post on social_comments (tenant_id, post_id, created_at, id);

alter table social_comments enable row level security;
alter table social_comments force row level security;

create policy social_comments_tenant on social_comments
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- On a post one reads: one's own, and others' published ones by someone not blocked either way;
-- every one for the moderating admin.
create policy social_comments_read on social_comments as restrictive for select
    using (
        exists (select from social_posts p where p.tenant_id = social_comments.tenant_id and p.id = social_comments.post_id)
        and (author_id = (select current_person_id())
             or (select current_person_moderates_social())
             or (status = 'PUBLISHED' and deleted_at is null and author_id not in (select current_social_blocked())))
    );

-- In one's own name, on a post one reads, while taking part.
create policy social_comments_insert on social_comments as restrictive for insert
    with check (
        author_id = (select current_person_id()) and (select current_person_in_social())
        and exists (select from social_posts p where p.tenant_id = social_comments.tenant_id and p.id = social_comments.post_id)
    );

create policy social_comments_update on social_comments as restrictive for update
    using (author_id = (select current_person_id()))
    with check (author_id = (select current_person_id()));

grant select, insert on social_comments to storykeep_app;
grant update (deleted_at) on social_comments to storykeep_app;
