-- 0015_rewards: stars, achievements and what stars unlock (issue 12). A young person earns stars
-- by the rules of their agency's file (`rewards.rules`): for a check-in, a new entry, a shared
-- entry, a streak of check-ins; earns achievements (`rewards.achievements`), each once, some with
-- a star bonus; and spends stars on unlockables (`rewards.unlockables`). Everything is written
-- in the transaction of the action that earned it (Sources/Storykeep/Rewards/Earning.swift), as
-- the young person.
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- next to each table narrow them.
--
-- THE LEDGER IS THE TRUTH
--
-- `star_ledger` holds every star earned (positive) or spent (negative), append-only: the app role
-- has no UPDATE or DELETE on it. A balance is its sum. Each row names what paid (the rule, the
-- achievement or the unlockable, by its id in the tenant file when it was paid) and what caused
-- it; the stars are those of the file then, so changing the file changes later earnings only.
-- Deleting an entry takes nothing away: no row refers to entries by a key, so the archive's
-- purge leaves the ledger as it is.
--
-- NO DOUBLE PAY, WHATEVER RUNS AT ONCE
--
-- Nothing here is read, then written on what was read. Each guarantee is a constraint or a row
-- lock PostgreSQL takes while it writes:
--   * once per cause: a unique index per kind of cause (an entry pays each rule once, a day's
--     check-in once, an achievement once, an unlock is charged once);
--   * a check-in day counts once (reward_check_in_days' key), and an entry pays for being shared
--     once (reward_shared_entries' key), however often it is changed, archived, restored or
--     shared again: the first insert wins, the others find the row and write nothing;
--   * a daily limit: the day's counter of the rule (reward_day_payments) goes up only while it is
--     below the limit, in one INSERT ... ON CONFLICT DO UPDATE ... WHERE, which locks the row
--     and sees its latest value; a payment is written only when the counter went up;
--   * counts for achievements (reward_counts) go up the same way, so each count is exact;
--   * spending: an unlock first takes a transaction-level advisory lock on the person's stars,
--     then reads the balance in a statement of its own (Sources/Storykeep/Rewards/
--     RewardStatements.swift), so two unlocks at once cannot both spend the same stars.
--
-- WHO SEES WHAT
--
-- A young person sees their own rows of every table here, and only they write them (as
-- themselves, with the role YOUNG_PERSON). Adults never see a young person's stars, unless the
-- tenant's file says `rewards.visibleToTeam: true`: then the adults in a current assignment with
-- them (current_assigned_people(), 0010) read their ledger (the API shows them the balance only).

-- THE LEDGER

create table star_ledger (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    person_id uuid not null,
    -- What caused it: a new entry, a check-in, a shared entry, a streak of check-ins (the rules'
    -- `on`), an achievement's bonus, or an unlock (spending).
    cause text not null constraint star_ledger_cause check (
        cause in ('entryCreated', 'checkIn', 'entryShared', 'streak', 'achievement', 'unlock')),
    -- What paid or was bought, by its id in the tenant file then: a rule, an achievement or an
    -- unlockable (ids are slugs there, of at most 63 characters).
    source_id text not null
        constraint star_ledger_source_id_format check (source_id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    -- The entry that earned them (entryCreated, entryShared): no foreign key, so that the
    -- archive's purge removes the entry and the history keeps its stars.
    entry_id uuid,
    -- The day they count for, in the tenant's time zone: the check-in's for checkIn and streak,
    -- else the day they were paid (what a daily limit counts).
    day date not null,
    -- Earned (positive), or spent on an unlock (negative).
    stars integer not null
        constraint star_ledger_stars check (stars <> 0 and (stars < 0) = (cause = 'unlock')),
    created_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, id),
    foreign key (tenant_id, person_id) references people (tenant_id, id),
    constraint star_ledger_entry check ((entry_id is not null) = (cause in ('entryCreated', 'entryShared')))
);

-- Once per cause: an entry pays each rule once (created, shared), a check-in day each rule once
-- (checkIn, streak), an achievement and an unlock once per person. Earning writes
-- `ON CONFLICT ... DO NOTHING` on these.
create unique index star_ledger_once_per_entry on star_ledger (tenant_id, person_id, cause, source_id, entry_id)
    where entry_id is not null;
create unique index star_ledger_once_per_day on star_ledger (tenant_id, person_id, cause, source_id, day)
    where cause in ('checkIn', 'streak');
create unique index star_ledger_once on star_ledger (tenant_id, person_id, cause, source_id)
    where cause in ('achievement', 'unlock');

-- A person's history, newest first ((created_at, id) descending is its order and its cursor), and
-- their balance, summed from this index alone.
create index star_ledger_history on star_ledger (tenant_id, person_id, created_at, id) include (stars);

alter table star_ledger enable row level security;
alter table star_ledger force row level security;

create policy star_ledger_tenant on star_ledger
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- The young person; and, where the tenant's file says `rewards.visibleToTeam: true`, the adults
-- in a current assignment with them.
create policy star_ledger_read on star_ledger as restrictive for select
    using (
        person_id = (select current_person_id())
        or (person_id in (select p from current_assigned_people() as p)
            and (select (t.config -> 'rewards' ->> 'visibleToTeam')::boolean from tenants t
                 where t.tenant_id = (select current_tenant_id())))
    );

create policy star_ledger_insert on star_ledger as restrictive for insert
    with check (person_id = (select current_person_id()) and (select current_person_role()) = 'YOUNG_PERSON');

-- Append-only: no UPDATE, no DELETE.
grant select, insert on star_ledger to storykeep_app;

-- CHECK-IN DAYS: each day a young person checked in, once, with the length of the streak it
-- ends (consecutive days with a check-in up to it). The first check-in of a day inserts it; a
-- check-in changed the same day, or made again after deleting the day's, finds it and pays
-- nothing.

create table reward_check_in_days (
    tenant_id uuid not null references tenants (tenant_id),
    person_id uuid not null,
    day date not null,
    streak integer not null constraint reward_check_in_days_streak check (streak >= 1),
    primary key (tenant_id, person_id, day),
    foreign key (tenant_id, person_id) references people (tenant_id, id)
);

alter table reward_check_in_days enable row level security;
alter table reward_check_in_days force row level security;

create policy reward_check_in_days_tenant on reward_check_in_days
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy reward_check_in_days_own on reward_check_in_days as restrictive
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()) and (select current_person_role()) = 'YOUNG_PERSON');

grant select, insert on reward_check_in_days to storykeep_app;

-- SHARED ENTRIES: each entry that has paid for being shared, once, however often it is shared
-- again. No foreign key to entries, as in the ledger.

create table reward_shared_entries (
    tenant_id uuid not null references tenants (tenant_id),
    person_id uuid not null,
    entry_id uuid not null,
    primary key (tenant_id, person_id, entry_id),
    foreign key (tenant_id, person_id) references people (tenant_id, id)
);

alter table reward_shared_entries enable row level security;
alter table reward_shared_entries force row level security;

create policy reward_shared_entries_tenant on reward_shared_entries
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy reward_shared_entries_own on reward_shared_entries as restrictive
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()) and (select current_person_role()) = 'YOUNG_PERSON');

grant select, insert on reward_shared_entries to storykeep_app;

-- DAILY LIMITS: how many times a rule paid a person on a day (in the tenant's time zone), for
-- rules with a `dailyLimit`. Earning raises `payments` only while it is below the limit of the
-- file then (`daily_limit`, written with each raise), and pays only when it rose.

create table reward_day_payments (
    tenant_id uuid not null references tenants (tenant_id),
    person_id uuid not null,
    rule_id text not null
        constraint reward_day_payments_rule_id_format check (rule_id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    day date not null,
    payments integer not null,
    daily_limit integer not null,
    primary key (tenant_id, person_id, rule_id, day),
    foreign key (tenant_id, person_id) references people (tenant_id, id),
    constraint reward_day_payments_within_limit check (payments between 1 and daily_limit)
);

alter table reward_day_payments enable row level security;
alter table reward_day_payments force row level security;

create policy reward_day_payments_tenant on reward_day_payments
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy reward_day_payments_own on reward_day_payments as restrictive
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()) and (select current_person_role()) = 'YOUNG_PERSON');

grant select, insert on reward_day_payments to storykeep_app;
grant update (payments, daily_limit) on reward_day_payments to storykeep_app;

-- COUNTS: what achievements' conditions count, per person: entries written (`entries`, and of
-- each kind, `entries.TEXT` ...), days checked in (`checkIns`), entries shared (`shares`). Each
-- event raises its counts by one in the statement that pays for it; the row lock makes concurrent
-- raises queue, so a count never skips a number.

create table reward_counts (
    tenant_id uuid not null references tenants (tenant_id),
    person_id uuid not null,
    counter text not null constraint reward_counts_counter check (counter in (
        'entries', 'entries.TEXT', 'entries.AUDIO', 'entries.VIDEO', 'entries.DRAWING', 'entries.IMAGE', 'entries.MOOD',
        'checkIns', 'shares')),
    value integer not null constraint reward_counts_value check (value >= 1),
    primary key (tenant_id, person_id, counter),
    foreign key (tenant_id, person_id) references people (tenant_id, id)
);

alter table reward_counts enable row level security;
alter table reward_counts force row level security;

create policy reward_counts_tenant on reward_counts
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy reward_counts_own on reward_counts as restrictive
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()) and (select current_person_role()) = 'YOUNG_PERSON');

grant select, insert on reward_counts to storykeep_app;
grant update (value) on reward_counts to storykeep_app;

-- ACHIEVEMENTS EARNED: each once per person, kept as the tenant's file described it when earned
-- (its name, description, icon and bonus), so that a badge stays what it was even if the file
-- changes it or drops it. Its bonus, if any, is a ledger row of cause `achievement`.

create table reward_achievements (
    tenant_id uuid not null references tenants (tenant_id),
    person_id uuid not null,
    achievement_id text not null
        constraint reward_achievements_id_format check (achievement_id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    -- At most TextLimit.achievementName, .achievementDescription, .achievementIcon
    -- (Sources/Storykeep/Core/TextLimit.swift).
    name text not null constraint reward_achievements_name_length check (length(name) between 1 and 100),
    description text not null
        constraint reward_achievements_description_length check (length(description) between 1 and 500),
    icon text not null constraint reward_achievements_icon_length check (length(icon) between 1 and 32),
    stars integer not null constraint reward_achievements_stars check (stars between 0 and 100),
    earned_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, person_id, achievement_id),
    foreign key (tenant_id, person_id) references people (tenant_id, id)
);

alter table reward_achievements enable row level security;
alter table reward_achievements force row level security;

create policy reward_achievements_tenant on reward_achievements
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy reward_achievements_own on reward_achievements as restrictive
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()) and (select current_person_role()) = 'YOUNG_PERSON');

-- Earned for good: no UPDATE, no DELETE.
grant select, insert on reward_achievements to storykeep_app;

-- PROFILE CHOICES THAT STARS UNLOCK
--
-- The profile (0003) gains the two choices an unlockable may stand for besides an avatar: the
-- app's theme and a set of mood icons, each a name the apps know (an unlockable's id, or a free
-- one). Null is the agency's default. They belong to the profile module, which accepts any name;
-- the rewards module refuses one that names an unlockable the person has not unlocked
-- (`ProfileChanging`, Sources/Storykeep/Profile/ProfileEvents.swift).

alter table profiles
    add column theme text constraint profiles_theme_length check (length(theme) between 1 and 100),
    add column mood_icon_set text constraint profiles_mood_icon_set_length check (length(mood_icon_set) between 1 and 100);

grant update (theme, mood_icon_set) on profiles to storykeep_app;
