-- 0012_sharing: a young person shares entries of their journal with adults of their current team
-- (the caseload of 0010). One row per share; the journal's read policies of 0003/0004 widen, as
-- 0003 said they would, so that a sharee reads a shared entry, its files and its tags in the
-- database itself, and nothing else of the author's.
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- next to each table narrow them.
--
-- WHEN A SHARE STANDS
--
-- A sharee reads a shared entry while, all three:
--   (a) the share stands: the author has not unshared it (`unshared_at` is null);
--   (b) the assignment the share was made in (`assignment_id`, the sharee's to the author) is
--       current: ending it ends what it opened, at once, and a later assignment of the same two
--       people does not bring old shares back;
--   (c) the entry is not archived (`entry_archived_at` is null: a copy of the entry's
--       `archived_at`, kept by the database, see ARCHIVED ENTRIES): archiving hides it at once,
--       restoring brings the shares back, since nothing was deleted.
-- That is the second arm of `shares_read` below, and the only place it is written: the
-- widened policies of entries, entry_media, entry_tags, media and tags ask "is there a share of
-- this entry naming me?" of `shares`, whose own policy answers for (a), (b) and (c).
--
-- Writing stays the author's alone: the widened policies are the `..._read` ones (SELECT). An
-- agency admin is never a sharee (adults are assigned only as social workers or carers), so an
-- admin reads no entry, file or tag of anyone's.
--
-- WHY THE POLICIES ASK WITH A CORRELATED EXISTS
--
-- 0004 measured what an OR in `entries_read` can cost: the author's first page went from 0.1 ms
-- (a backward scan of entries_timeline that stops after 21 rows) to 37-53 ms, when the planner
-- turned the OR of two indexable arms into a BitmapOr and a sort. Here the second arm is a
-- correlated EXISTS, a SubPlan, which can never be an arm of a BitmapOr: the author's own
-- queries keep their plans, and for their rows the first arm is true, so the EXISTS never runs
-- (PostgreSQL evaluates an OR's arms in order and stops at the first true one). For a sharee,
-- each row costs one probe of `shares_standing` (an index on (tenant, entry, sharee)), whatever
-- the number of shares they hold; an uncorrelated `id in (select ...)` would instead build a hash
-- of every share of theirs (30,000 for a social worker with 30 young people who shared 1,000
-- entries each) in every statement, in each of the five policies. In `shares_read` itself, (b)
-- is the opposite case: `assignment_id in (select ... my current assignments)` is uncorrelated,
-- a hash of a few dozen ids built once per statement, probed for each share row. (Measured with EXPLAIN (ANALYZE, BUFFERS), custom and generic plans:
-- scripts/bench-sharing.sh prints the plans of the author's first page, search and calendar.)
--
-- No policy of `shares` reads entries or their links (PostgreSQL refuses policies that reach back
-- to their own table: entries -> shares -> entries). Hence (c) is a column of `shares`, and the
-- ownership of the entry shared is held by a foreign key, which PostgreSQL checks without
-- row-level security.

-- SHARES

-- The target of shares' key to the assignment a share was made in, with its two people.
alter table assignments add constraint assignments_parties unique (tenant_id, id, young_person_id, adult_id);

create table shares (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    entry_id uuid not null,
    -- The entry's author, who shared it (the key below holds them to the entry).
    author_id uuid not null,
    -- The adult it is shared with.
    sharee_id uuid not null,
    -- The sharee's assignment to the author it was made in (the key below holds it to the two).
    assignment_id uuid not null,
    -- What the author says with it, at most TextLimit.shareMessage.
    message text constraint shares_message_length check (length(message) between 1 and 500),
    shared_at timestamptz not null default clock_timestamp(),
    -- When the sharee first opened it (markShareSeen, or replying).
    seen_at timestamptz,
    -- The sharee's short reply, which the author reads on the entry; replying again replaces it.
    reply text constraint shares_reply_length check (length(reply) between 1 and 500),
    replied_at timestamptz,
    -- Set when the author unshares; never set back (sharing again makes a new row). The row
    -- stays: who was shown what, and when, is history.
    unshared_at timestamptz,
    -- The entry's `archived_at`, kept by the triggers below (ARCHIVED ENTRIES).
    entry_archived_at timestamptz,
    primary key (tenant_id, id),
    -- An entry of the author's: purging the entry (after the archive's retention) takes its
    -- shares with it, as it takes its files and links.
    foreign key (tenant_id, entry_id, author_id) references entries (tenant_id, id, author_id) on delete cascade,
    foreign key (tenant_id, sharee_id) references people (tenant_id, id),
    foreign key (tenant_id, assignment_id, author_id, sharee_id)
        references assignments (tenant_id, id, young_person_id, adult_id),
    constraint shares_two_people check (author_id <> sharee_id),
    constraint shares_reply_when check ((reply is null) = (replied_at is null)),
    constraint shares_unshared_after check (unshared_at is null or unshared_at >= shared_at)
);

-- One standing share per entry and sharee: sharing again with the same person adds nothing
-- (ON CONFLICT on this index). Also what the widened policies probe: (tenant, entry, me).
create unique index shares_standing on shares (tenant_id, entry_id, sharee_id)
    where unshared_at is null;

-- An entry's shares, standing and past (the author's unsharing, the archive trigger).
create index shares_entry on shares (tenant_id, entry_id);

-- What one young person shared with me, newest first: (shared_at, id) descending is the
-- order and the cursor of sharedWithMe, read by a backward scan; the unseen ones have an index of
-- their own, which also counts them (unreadShares) without reading the table: it includes every
-- column shares_parties and shares_read ask of a sharee's row, so that counting is an
-- index-only scan.
create index shares_inbox on shares (tenant_id, sharee_id, author_id, shared_at, id)
    where unshared_at is null;
create index shares_unseen on shares (tenant_id, sharee_id, author_id, shared_at, id)
    include (assignment_id, entry_archived_at, unshared_at, seen_at)
    where unshared_at is null and seen_at is null;

alter table shares enable row level security;
alter table shares force row level security;

create policy shares_tenant on shares
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Its two people alone read it and change it. Written `me = any (array[author, sharee])`, one
-- condition, rather than `author = me or sharee = me`: PostgreSQL turns an OR of two conditions
-- that indexes serve into a BitmapOr of two index scans and a scan of the table, as 0004 found
-- for entries; here it did so for a sharee's unread counts (9,000 unseen shares: 15-17 ms for a
-- bitmap heap scan, where the index-only scan of shares_unseen takes 4 ms once VACUUM has marked
-- the table's pages all-visible; EXPLAIN ANALYZE, scripts/bench-sharing.sh).
create policy shares_parties on shares as restrictive
    using ((select current_person_id()) = any (array[author_id, sharee_id]))
    with check ((select current_person_id()) = any (array[author_id, sharee_id]));

-- The current assignments in which the person acting is the adult, as far as assignments_read
-- lets them see them: a sharee reads and updates a share made in one of them (shares_read,
-- shares_update). A SQL function, stable, of one SELECT: PostgreSQL inlines its body where a
-- policy calls it in a FROM, `assignment_id in (select a from current_assignments_as_adult() as
-- a)`, the uncorrelated subquery written out (a hash of a few dozen ids, built once per statement).
create function current_assignments_as_adult() returns setof uuid
    language sql stable parallel safe
as $$
    select a.id from assignments a
    where a.tenant_id = (select current_tenant_id()) and a.adult_id = (select current_person_id()) and a.until is null
$$;

comment on function current_assignments_as_adult() is
    'The current assignments in which the person acting is the adult.';

-- The author reads every share of theirs, standing or past; the sharee a standing one (WHEN A
-- SHARE STANDS), made in an assignment of theirs that is current. (The second arm has no
-- condition an index serves: no BitmapOr either.)
create policy shares_read on shares as restrictive for select
    using (
        author_id = (select current_person_id())
        or (unshared_at is null and entry_archived_at is null
            and assignment_id in (select a from current_assignments_as_adult() as a))
    );

-- The author shares, in their own name, in a current assignment of theirs, with its adult (the
-- key holds the two to the assignment) if not switched off. (The entry is theirs by its key;
-- shares_guard refuses a share that starts seen, replied or unshared.)
create policy shares_insert on shares as restrictive for insert
    with check (
        author_id = (select current_person_id())
        and assignment_id in (select a.id from assignments a
                              where a.tenant_id = (select current_tenant_id())
                                and a.young_person_id = (select current_person_id()) and a.until is null)
        and exists (select from people p
                    where p.tenant_id = shares.tenant_id and p.id = shares.sharee_id and p.disabled_at is null)
    );

-- The author unshares; the sharee marks seen and replies while the share stands. Which columns
-- each may change is held by shares_guard below and the grant.
create policy shares_update on shares as restrictive for update
    using (
        author_id = (select current_person_id())
        or (unshared_at is null and entry_archived_at is null
            and assignment_id in (select a from current_assignments_as_adult() as a))
    );

-- History: no DELETE for anyone (a share leaves only with its purged entry).
grant select, insert on shares to storykeep_app;
grant update (seen_at, reply, replied_at, unshared_at, entry_archived_at) on shares to storykeep_app;

-- WHO CHANGES WHAT (a trigger, not a SECURITY DEFINER: it runs with the caller's rights and
-- only refuses, or copies the entry's archived_at, which the author reads). A share starts fresh;
-- its sharee may set seen_at once and write the reply; its author may unshare once, and the
-- archive trigger keeps entry_archived_at equal to the entry's archived_at.
create function shares_guard() returns trigger
    language plpgsql
as $$
declare
    me uuid := current_person_id();
begin
    if tg_op = 'INSERT' then
        if new.seen_at is not null or new.reply is not null or new.unshared_at is not null then
            raise exception 'a new share is not seen, replied to or unshared yet'
                using errcode = 'check_violation', constraint = 'shares_guard';
        end if;
        new.entry_archived_at := (select e.archived_at from entries e
                                  where e.tenant_id = new.tenant_id and e.id = new.entry_id);
        return new;
    end if;
    if me is not distinct from old.author_id then
        if (new.seen_at, new.reply, new.replied_at) is distinct from (old.seen_at, old.reply, old.replied_at)
           or (old.unshared_at is not null and new.unshared_at is distinct from old.unshared_at) then
            raise exception 'the author of a share may only unshare it, once'
                using errcode = 'check_violation', constraint = 'shares_guard';
        end if;
    elsif me is not distinct from old.sharee_id then
        if (new.unshared_at, new.entry_archived_at) is distinct from (old.unshared_at, old.entry_archived_at)
           or (old.seen_at is not null and new.seen_at is distinct from old.seen_at)
           or (new.reply is null and old.reply is not null) then
            raise exception 'the sharee of a share may only mark it seen, once, and reply'
                using errcode = 'check_violation', constraint = 'shares_guard';
        end if;
    else
        raise exception 'only the two people of a share change it'
            using errcode = 'check_violation', constraint = 'shares_guard';
    end if;
    if new.entry_archived_at is distinct from old.entry_archived_at
       and new.entry_archived_at is distinct from (select e.archived_at from entries e
                                                   where e.tenant_id = new.tenant_id and e.id = new.entry_id) then
        raise exception 'entry_archived_at follows the entry''s archived_at'
            using errcode = 'check_violation', constraint = 'shares_guard';
    end if;
    return new;
end;
$$;

create trigger shares_guard before insert or update on shares
    for each row execute function shares_guard();

-- ARCHIVED ENTRIES
--
-- Archiving an entry (deleteEntry) or restoring it sets its shares' entry_archived_at to the
-- entry's archived_at, in the same statement, as its author (who alone updates entries and may
-- update their shares' copy).
create function shares_follow_archive() returns trigger
    language plpgsql
as $$
begin
    update shares s set entry_archived_at = new.archived_at
    where s.tenant_id = new.tenant_id and s.entry_id = new.id;
    return null;
end;
$$;

create trigger shares_follow_archive after update of archived_at on entries
    for each row when (old.archived_at is distinct from new.archived_at)
    execute function shares_follow_archive();

-- THE JOURNAL, WIDENED FOR SHAREES (replacing 0004's author-only read policies and 0003's
-- tags_owner). Each second arm asks `shares` for a share of this entry naming me, `exists
-- (select from shares_naming_me() s where s.tenant_id = <the row's> and s.entry_id = <its entry>)`;
-- shares_read answers for (a), (b) and (c).

-- The standing shares naming the person acting, as far as shares_read lets them see them. A SQL
-- function, stable, of one SELECT: PostgreSQL inlines its body where a policy calls it in a FROM,
-- so that the EXISTS above is the subquery written out, correlated as before (`unshared_at is
-- null` is here so that the partial index shares_standing serves its probe).
create function shares_naming_me() returns table (tenant_id uuid, entry_id uuid)
    language sql stable parallel safe
as $$
    select s.tenant_id, s.entry_id from shares s
    where s.sharee_id = (select current_person_id()) and s.unshared_at is null
$$;

comment on function shares_naming_me() is
    'The standing shares naming the person acting (their tenant and entry), as far as shares_read shows them.';

drop policy entries_read on entries;
create policy entries_read on entries as restrictive for select
    using (
        author_id = (select current_person_id())
        or (archived_at is null
            and exists (select from shares_naming_me() s
                        where s.tenant_id = entries.tenant_id and s.entry_id = entries.id))
    );

drop policy entry_media_read on entry_media;
create policy entry_media_read on entry_media as restrictive for select
    using (
        author_id = (select current_person_id())
        or exists (select from shares_naming_me() s where s.tenant_id = entry_media.tenant_id and s.entry_id = entry_media.entry_id)
    );

drop policy entry_tags_read on entry_tags;
create policy entry_tags_read on entry_tags as restrictive for select
    using (
        author_id = (select current_person_id())
        or exists (select from shares_naming_me() s where s.tenant_id = entry_tags.tenant_id and s.entry_id = entry_tags.entry_id)
    );

-- A file: its owner's, and a sharee's while it is attached to an entry they may read (the
-- subquery sees only the links entry_media_read shows them).
drop policy media_read on media;
create policy media_read on media as restrictive for select
    using (
        owner_id = (select current_person_id())
        or exists (select from entry_media em where em.tenant_id = media.tenant_id and em.media_id = media.id)
    );

-- A tag: its owner's, and a sharee's while it is on an entry they may read (the subquery sees
-- only the links entry_tags_read shows them): never a tag that is only on other entries.
-- Writing stays the owner's (0003's tags_owner held for every command; it becomes one policy
-- per command).
drop policy tags_owner on tags;

create policy tags_read on tags as restrictive for select
    using (
        owner_id = (select current_person_id())
        or exists (select from entry_tags et where et.tenant_id = tags.tenant_id and et.tag_id = tags.id)
    );

create policy tags_insert on tags as restrictive for insert
    with check (owner_id = (select current_person_id()));

create policy tags_update on tags as restrictive for update
    using (owner_id = (select current_person_id()))
    with check (owner_id = (select current_person_id()));

create policy tags_delete on tags as restrictive for delete
    using (owner_id = (select current_person_id()));
