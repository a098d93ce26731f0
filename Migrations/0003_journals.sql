-- 0003_journals: a young person's journal. Entries, their media and tags, the daily check-in
-- and its skips, the person's own look (profile), and the archive of deleted entries.
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- next to each table narrow them.
--
-- WHO SEES A JOURNAL
--
-- Its author, and nobody else: not another young person, not a carer, not an agency admin. Every
-- table here has a restrictive policy comparing its author (author_id, owner_id or person_id)
-- with current_person_id() of 0002's WHO IS ASKING. An admin context sets a person id of its own,
-- so it matches nothing; a context without a person matches nothing.
--
-- SHARING (a later migration) widens exactly one policy per table, the `..._read` ones below:
-- `author_id = me` becomes `author_id = me or <a live share of this entry names me>`. Writes stay
-- the author's alone.
--
-- One pseudo-role, PURGE, exists for the archive's clean-up (`storykeep purge` and the server's
-- periodic run): a transaction with a tenant, no person and storykeep.role = 'PURGE' sees the
-- tenant's ARCHIVED entries, their media and links, and may delete them. Nothing live, no tags,
-- no profiles; it can insert and update nothing.
--
-- Who owns what is also held by the foreign keys, which PostgreSQL checks without row-level
-- security: a link from an entry to a tag or a media file carries the entry's author, and its
-- keys require the tag's and the file's owner to be that author. Another person's tag or file
-- cannot be attached to an entry even by a statement that names it (JournalStore checks first
-- to say which field was wrong; these keys are the backstop).
--
-- Under row-level security PostgreSQL uses a query's condition as an index condition only if
-- its functions are leakproof (0002). uuid, date, timestamptz and text comparisons are; enum
-- comparisons and the full-text match `@@` are not. Hence `kind` is text with a check (not an
-- enum), queries always name the author (`author_id = current_person_id()`) so that the indexes
-- led by (tenant_id, author_id) serve them, and a text search filters the author's entries found
-- that way. (The GIN index on `search` serves a match only where no restrictive policy stands
-- before it; it is there for when `ts_match_vq` is marked leakproof, which only a superuser can.)

-- ENTRIES

create table entries (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    author_id uuid not null,
    -- The day the entry is about (which may differ from when it was written), in the author's
    -- own reckoning: a date, no time zone.
    day date not null,
    kind text not null
        constraint entries_kind check (kind in ('TEXT', 'AUDIO', 'VIDEO', 'DRAWING', 'IMAGE', 'MOOD')),
    body text constraint entries_body_length check (length(body) <= 20000),
    -- A label of the person's mood icons (their profile's, or the tenant's defaults).
    mood text constraint entries_mood_length check (length(mood) between 1 and 50),
    -- The entry's colour or pattern, a name the apps know (e.g. "#ffd6e0", "stars").
    background text constraint entries_background_length check (length(background) between 1 and 100),
    -- The smart-suggestion prompt (its text, from the tenant file) the entry answers.
    suggestion text constraint entries_suggestion_length check (length(suggestion) between 1 and 500),
    -- The names of the entry's tags, space-separated, for search. Written by JournalStore and
    -- TagStore in the same statements that change an entry's tags or rename or delete a tag.
    tag_names text not null default '',
    -- Full-text search over the text and the tag names. 'simple' lower-cases and splits words
    -- without stemming or stop words: young people write in many languages.
    search tsvector generated always as (to_tsvector('simple', coalesce(body, '') || ' ' || tag_names)) stored,
    created_at timestamptz not null default clock_timestamp(),
    updated_at timestamptz not null default clock_timestamp(),
    -- Set when the author deletes the entry: it leaves the journal, search and calendar at once
    -- and waits in the archive, restorable, until purged after the tenant's retention period.
    archived_at timestamptz,
    primary key (tenant_id, id),
    -- The target of the links' ownership keys (entry_tags, entry_media).
    unique (tenant_id, id, author_id),
    foreign key (tenant_id, author_id) references people (tenant_id, id),
    -- A mood check-in has a mood.
    constraint entries_mood_has_mood check (kind <> 'MOOD' or mood is not null)
);

-- The journal, newest first: (day, created_at, id) descending is the connection's order and its
-- cursor, read by a backward scan; a month of the calendar is a range of it.
create index entries_timeline on entries (tenant_id, author_id, day, created_at, id)
    where archived_at is null;

-- One live check-in a day per person: a second check-in updates the first (ON CONFLICT on this
-- index). An archived check-in does not count, so a person may check in again after deleting.
create unique index entries_check_in on entries (tenant_id, author_id, day)
    where kind = 'MOOD' and archived_at is null;

-- The archive, most recently deleted first; and the purge, across a tenant's authors.
create index entries_archive on entries (tenant_id, author_id, archived_at, id)
    where archived_at is not null;
create index entries_purge on entries (tenant_id, archived_at)
    where archived_at is not null;

create index entries_search on entries using gin (search);

-- The prompts a person answered most recently, so that suggestions do not repeat them.
create index entries_suggestions on entries (tenant_id, author_id, created_at)
    where suggestion is not null;

alter table entries enable row level security;
alter table entries force row level security;

create policy entries_tenant on entries
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Read: the author; a PURGE, archived entries. SHARING widens this policy.
create policy entries_read on entries as restrictive for select
    using (
        author_id = (select current_person_id())
        or ((select current_person_role()) = 'PURGE' and archived_at is not null)
    );

create policy entries_insert on entries as restrictive for insert
    with check (author_id = (select current_person_id()));

create policy entries_update on entries as restrictive for update
    using (author_id = (select current_person_id()))
    with check (author_id = (select current_person_id()));

-- Nobody deletes an entry outright: the author archives it (an update), a PURGE removes it
-- once archived. A server bug cannot destroy a live entry.
create policy entries_delete on entries as restrictive for delete
    using ((select current_person_role()) = 'PURGE' and archived_at is not null);

-- Never the author: an entry stays its author's.
grant select, insert, delete on entries to storykeep_app;
grant update (day, kind, body, mood, background, suggestion, tag_names, updated_at, archived_at)
    on entries to storykeep_app;

-- MEDIA
--
-- Audio, video, images and drawings, stored in PostgreSQL under the same policies as entries.
-- Uploaded first (the file's content type is decided by its bytes, Sources/Storykeep/Journals/
-- MediaSniffer.swift), then attached to at most one entry. byte_size and sha256 are computed by
-- the database from the bytes, so they cannot disagree with them.

create table media (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    owner_id uuid not null,
    content_type text not null constraint media_content_type check (content_type in (
        'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/heic',
        'audio/mpeg', 'audio/aac', 'audio/mp4', 'audio/ogg', 'audio/wav', 'audio/flac', 'audio/webm',
        'video/mp4', 'video/quicktime', 'video/webm', 'video/ogg')),
    bytes bytea not null constraint media_not_empty check (octet_length(bytes) > 0),
    byte_size bigint generated always as (octet_length(bytes)) stored,
    sha256 bytea generated always as (sha256(bytes)) stored,
    created_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, id),
    -- The target of the links' ownership keys (entry_media, profiles.avatar_media_id).
    unique (tenant_id, id, owner_id),
    foreign key (tenant_id, owner_id) references people (tenant_id, id)
);

-- Media is already compressed: no second compression, and slices of the bytes (HTTP Range
-- requests: substring(bytes from ... for ...)) read only the TOAST chunks they need.
alter table media alter column bytes set storage external;

-- A person's files, newest first (their uploads, files never attached).
create index media_owner on media (tenant_id, owner_id, created_at);

alter table media enable row level security;
alter table media force row level security;

create policy media_tenant on media
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

grant select, insert, delete on media to storykeep_app;

-- ENTRY MEDIA: an entry's files, in order.

create table entry_media (
    tenant_id uuid not null references tenants (tenant_id),
    entry_id uuid not null,
    media_id uuid not null,
    author_id uuid not null,
    position integer not null constraint entry_media_position check (position >= 0),
    primary key (tenant_id, entry_id, position),
    -- A file belongs to one entry at most: purging the entry purges the file.
    unique (tenant_id, media_id),
    -- Both ends belong to the same person (see WHO SEES A JOURNAL).
    foreign key (tenant_id, entry_id, author_id) references entries (tenant_id, id, author_id) on delete cascade,
    foreign key (tenant_id, media_id, author_id) references media (tenant_id, id, owner_id) on delete cascade
);

alter table entry_media enable row level security;
alter table entry_media force row level security;

create policy entry_media_tenant on entry_media
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- A PURGE reads links (ids only) to find the files of the archived entries it removes.
-- SHARING widens this policy.
create policy entry_media_read on entry_media as restrictive for select
    using (author_id = (select current_person_id()) or (select current_person_role()) = 'PURGE');

create policy entry_media_insert on entry_media as restrictive for insert
    with check (author_id = (select current_person_id()));

create policy entry_media_delete on entry_media as restrictive for delete
    using (author_id = (select current_person_id()));

grant select, insert, delete on entry_media to storykeep_app;

-- MEDIA: WHO READS AND REMOVES A FILE (here because these policies read entry_media)
--
-- Read: the owner; a PURGE, files attached to an archived entry (the subquery sees archived
-- entries only, by entries_read). SHARING widens this policy.
create policy media_read on media as restrictive for select
    using (
        owner_id = (select current_person_id())
        or ((select current_person_role()) = 'PURGE'
            and id in (select em.media_id from entry_media em
                       join entries e on e.tenant_id = em.tenant_id and e.id = em.entry_id
                       where em.tenant_id = media.tenant_id))
    );

create policy media_insert on media as restrictive for insert
    with check (owner_id = (select current_person_id()));

-- Files are never changed, only removed with their archived entry.
create policy media_delete on media as restrictive for delete
    using (
        (select current_person_role()) = 'PURGE'
        and id in (select em.media_id from entry_media em
                   join entries e on e.tenant_id = em.tenant_id and e.id = em.entry_id
                   where em.tenant_id = media.tenant_id)
    );

-- TAGS: a person's own. (The tenant's suggested tags live in its tenant file; choosing one
-- makes it the person's own tag.)

create table tags (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    owner_id uuid not null,
    -- 1 to 99 characters, trimmed.
    name text not null
        constraint tags_name_length check (length(name) between 1 and 99)
        constraint tags_name_trimmed check (name = btrim(name)),
    -- What uniqueness compares: the name lower-cased by ICU, so that "École" and "école", not
    -- only "Music" and "music", are one name (lower() in the clusters' C collation folds ASCII only).
    name_key text generated always as (lower(name collate "und-x-icu")) stored,
    created_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, id),
    -- The target of entry_tags' ownership key.
    unique (tenant_id, id, owner_id),
    foreign key (tenant_id, owner_id) references people (tenant_id, id)
);

create unique index tags_name on tags (tenant_id, owner_id, name_key);

alter table tags enable row level security;
alter table tags force row level security;

create policy tags_tenant on tags
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy tags_owner on tags as restrictive
    using (owner_id = (select current_person_id()))
    with check (owner_id = (select current_person_id()));

grant select, insert, delete on tags to storykeep_app;
grant update (name) on tags to storykeep_app;

-- ENTRY TAGS

create table entry_tags (
    tenant_id uuid not null references tenants (tenant_id),
    entry_id uuid not null,
    tag_id uuid not null,
    author_id uuid not null,
    primary key (tenant_id, entry_id, tag_id),
    foreign key (tenant_id, entry_id, author_id) references entries (tenant_id, id, author_id) on delete cascade,
    -- Deleting a tag takes it off its entries and keeps the entries.
    foreign key (tenant_id, tag_id, author_id) references tags (tenant_id, id, owner_id) on delete cascade
);

-- Filtering by tag, and the entries a renamed or deleted tag touches.
create index entry_tags_tag on entry_tags (tenant_id, tag_id);

alter table entry_tags enable row level security;
alter table entry_tags force row level security;

create policy entry_tags_tenant on entry_tags
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- SHARING widens this policy.
create policy entry_tags_read on entry_tags as restrictive for select
    using (author_id = (select current_person_id()));

create policy entry_tags_insert on entry_tags as restrictive for insert
    with check (author_id = (select current_person_id()));

create policy entry_tags_delete on entry_tags as restrictive for delete
    using (author_id = (select current_person_id()));

grant select, insert, delete on entry_tags to storykeep_app;

-- CHECK-IN SKIPS: "not today, thanks", so the question is not asked again that day.

create table check_in_skips (
    tenant_id uuid not null references tenants (tenant_id),
    person_id uuid not null,
    day date not null,
    skipped_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, person_id, day),
    foreign key (tenant_id, person_id) references people (tenant_id, id)
);

alter table check_in_skips enable row level security;
alter table check_in_skips force row level security;

create policy check_in_skips_tenant on check_in_skips
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy check_in_skips_own on check_in_skips as restrictive
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()));

grant select, insert on check_in_skips to storykeep_app;

-- PROFILES: how the app looks for its person. No row until they change something; NULL columns
-- mean the defaults (their name in `people`, the tenant's mood icons).

create table profiles (
    tenant_id uuid not null references tenants (tenant_id),
    person_id uuid not null,
    display_name text constraint profiles_display_name_length check (length(display_name) between 1 and 100),
    -- A built-in avatar's name or an emoji; or a picture of their own (avatar_media_id).
    avatar text constraint profiles_avatar_length check (length(avatar) between 1 and 100),
    avatar_media_id uuid,
    -- The app's colours: {"primary": "#5b3cc4", "background": "#fff8e7", ...}.
    colours jsonb not null default '{}' constraint profiles_colours_object check (jsonb_typeof(colours) = 'object'),
    -- Their mood icons: [{"emoji": "😄", "label": "Happy"}, ...].
    mood_icons jsonb constraint profiles_mood_icons_array check (jsonb_typeof(mood_icons) = 'array'),
    -- The colours and patterns offered for entries' backgrounds: ["#ffd6e0", "stars", ...].
    entry_backgrounds jsonb not null default '[]'
        constraint profiles_entry_backgrounds_array check (jsonb_typeof(entry_backgrounds) = 'array'),
    updated_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, person_id),
    foreign key (tenant_id, person_id) references people (tenant_id, id),
    -- Their own picture only; the avatar goes back to the default if the file is ever purged.
    foreign key (tenant_id, avatar_media_id, person_id) references media (tenant_id, id, owner_id)
        on delete set null (avatar_media_id)
);

alter table profiles enable row level security;
alter table profiles force row level security;

create policy profiles_tenant on profiles
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy profiles_own on profiles as restrictive
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()));

grant select, insert on profiles to storykeep_app;
grant update (display_name, avatar, avatar_media_id, colours, mood_icons, entry_backgrounds, updated_at)
    on profiles to storykeep_app;
