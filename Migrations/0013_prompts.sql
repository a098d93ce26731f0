-- 0013_prompts: prompts from adults. An adult who looks after a young person (a current
-- assignment of 0010_caseload) sends them a prompt, a question to write about ("How did the
-- football trial go?"); the young person answers it with an entry of their journal, or dismisses
-- it. The adult sees whether and when it was answered, never the entry (entries stay their
-- author's: 0004_journals_author_only).
-- Follows the pattern of 0001_tenancy: tenant_id leads every key, row-level security is enabled
-- and forced, the permissive tenant policy admits a tenant's rows only, and restrictive policies
-- next to each table narrow them.
--
-- WHO SEES A PROMPT
--
-- The young person it was sent to, always (it is theirs to answer or dismiss, even once the
-- adult no longer looks after them). The adult who sent it, while they look after the young
-- person: once the assignment ends, they no longer learn whether or when it was answered. No one
-- else: not the young person's other adults, not an agency admin.
--
-- HOW MANY ARE OPEN
--
-- A young person has at most the tenant file's `adultPrompts.maxOpenPerYoungPerson` open prompts
-- (neither answered nor dismissed), from all their adults together, so that adults cannot flood
-- a child. Counting them is the database's job, against concurrent senders: an adult cannot see
-- the other adults' prompts (above), so the count is kept beside them, in one row per young
-- person (`adult_prompt_inboxes`) that sending adds one to and closing takes one from, in
-- triggers of `adult_prompts`. Each change of that row locks it until its transaction ends, so
-- two prompts sent at once are counted one after the other, and the one over the limit is
-- refused (`adult_prompts_open_limit`), whichever resolver sent it. What an adult learns of it is
-- the number alone, which the refusal tells them anyway.

create table adult_prompts (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    young_person_id uuid not null,
    -- Who sent it: a social worker or carer assigned to the young person when they did.
    adult_id uuid not null,
    -- At most TextLimit.adultPrompt (Sources/Storykeep/Core/TextLimit.swift).
    text text not null constraint adult_prompts_text_length check (length(text) between 1 and 500),
    sent_at timestamptz not null default clock_timestamp(),
    -- Closed: dismissed by the young person, or answered with one of their entries (which may be
    -- purged later from their archive: the link goes, the answer stays).
    dismissed_at timestamptz,
    answered_entry_id uuid,
    answered_at timestamptz,
    primary key (tenant_id, id),
    foreign key (tenant_id, young_person_id) references people (tenant_id, id),
    foreign key (tenant_id, adult_id) references people (tenant_id, id),
    -- The answer is an entry of the young person's own (entries' (tenant_id, id, author_id) key).
    constraint adult_prompts_answer_is_own_entry
        foreign key (tenant_id, answered_entry_id, young_person_id) references entries (tenant_id, id, author_id)
        on delete set null (answered_entry_id),
    constraint adult_prompts_closed_once check (answered_at is null or dismissed_at is null),
    constraint adult_prompts_answer check (answered_entry_id is null or answered_at is not null)
);

-- A young person's prompts, newest first (prompts), and the open ones among them.
create index adult_prompts_young_person on adult_prompts (tenant_id, young_person_id, sent_at);
-- An adult's prompts to one young person, newest first (sentPrompts).
create index adult_prompts_adult on adult_prompts (tenant_id, adult_id, young_person_id, sent_at);
-- The prompts an entry answers, for the foreign key when the archive's purge deletes entries.
create index adult_prompts_answered_entry on adult_prompts (tenant_id, answered_entry_id)
    where answered_entry_id is not null;

alter table adult_prompts enable row level security;
alter table adult_prompts force row level security;

create policy adult_prompts_tenant on adult_prompts
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- The young person it was sent to; its adult while they look after the young person.
create policy adult_prompts_read on adult_prompts as restrictive for select
    using (
        young_person_id = (select current_person_id())
        or (adult_id = (select current_person_id())
            and young_person_id in (select p from current_assigned_people() as p))
    );

-- Sent by an adult (a social worker or carer) in their own name, to a young person they look
-- after now. The columns they may give are those of the grant below: it is sent open.
create policy adult_prompts_insert on adult_prompts as restrictive for insert
    with check (
        adult_id = (select current_person_id())
        and (select current_person_role()) in ('SOCIAL_WORKER', 'CARER')
        and young_person_id in (select p from current_assigned_people() as p)
    );

-- Answered or dismissed by its young person alone (the columns of the grant below);
-- adult_prompts_guard keeps a closed prompt as it closed.
create policy adult_prompts_update on adult_prompts as restrictive for update
    using (young_person_id = (select current_person_id()))
    with check (young_person_id = (select current_person_id()));

-- Nobody deletes one: the young person's record of what they were asked.
grant select on adult_prompts to storykeep_app;
grant insert (tenant_id, young_person_id, adult_id, text) on adult_prompts to storykeep_app;
grant update (dismissed_at, answered_entry_id, answered_at) on adult_prompts to storykeep_app;

-- A prompt closes once, answered with an entry or dismissed, and then stays as it closed; only
-- its link to an entry may go, when the archive's purge deletes that entry (the foreign key's
-- SET NULL, run as the table's owner, passes here too).
create function adult_prompts_guard() returns trigger
    language plpgsql
as $$
begin
    if old.answered_at is not null or old.dismissed_at is not null then
        if old.answered_entry_id is not null and new.answered_entry_id is null
            and new.answered_at is not distinct from old.answered_at
            and new.dismissed_at is not distinct from old.dismissed_at then
            return new;
        end if;
        raise exception 'an answered or dismissed prompt stays as it closed'
            using errcode = 'check_violation', constraint = 'adult_prompts_closed';
    end if;
    if new.answered_at is not null and new.answered_entry_id is null then
        raise exception 'a prompt is answered with an entry'
            using errcode = 'check_violation', constraint = 'adult_prompts_closed';
    end if;
    return new;
end;
$$;

create trigger adult_prompts_guard before update on adult_prompts
    for each row execute function adult_prompts_guard();

-- THE COUNT OF OPEN PROMPTS, one row per young person who was ever sent one (never deleted).

create table adult_prompt_inboxes (
    tenant_id uuid not null references tenants (tenant_id),
    young_person_id uuid not null,
    open_prompts integer not null constraint adult_prompt_inboxes_open_prompts check (open_prompts >= 0),
    primary key (tenant_id, young_person_id),
    foreign key (tenant_id, young_person_id) references people (tenant_id, id)
);

alter table adult_prompt_inboxes enable row level security;
alter table adult_prompt_inboxes force row level security;

create policy adult_prompt_inboxes_tenant on adult_prompt_inboxes
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- The young person's own row, and the rows of the young people an adult looks after now: the
-- people whose prompts change it (the triggers below run in their transactions, as them).
create policy adult_prompt_inboxes_party on adult_prompt_inboxes as restrictive
    using (
        young_person_id = (select current_person_id())
        or young_person_id in (select p from current_assigned_people() as p)
    )
    with check (
        young_person_id = (select current_person_id())
        or young_person_id in (select p from current_assigned_people() as p)
    );

grant select, insert, update (open_prompts) on adult_prompt_inboxes to storykeep_app;

-- The count moves one at a time, in step with adult_prompts: a row starts at one (the first
-- prompt), sending adds one, and only the young person takes one away (closing a prompt), so
-- that an adult can never lower it to get past the limit.
create function adult_prompt_inboxes_counting() returns trigger
    language plpgsql
as $$
begin
    if tg_op = 'INSERT' then
        if new.open_prompts = 1 then
            return new;
        end if;
    elsif new.open_prompts = old.open_prompts + 1
        or (new.open_prompts = old.open_prompts - 1 and new.young_person_id = current_person_id()) then
        return new;
    end if;
    raise exception 'open prompts are counted one at a time, as they are sent and closed'
        using errcode = 'check_violation', constraint = 'adult_prompt_inboxes_counting';
end;
$$;

create trigger adult_prompt_inboxes_counting before insert or update on adult_prompt_inboxes
    for each row execute function adult_prompt_inboxes_counting();

-- Sending counts the prompt, and refuses it when the young person would have more open prompts
-- than their tenant allows: the tenant file's `adultPrompts.maxOpenPerYoungPerson`, as
-- `storykeep tenant apply` stored it in tenants.config (5, its default, for a tenant applied
-- before the key existed). The upsert locks the young person's row until the end of the
-- transaction, so concurrent senders are counted one after the other.
create function adult_prompts_count_sent() returns trigger
    language plpgsql
as $$
declare
    open_now integer;
    most integer;
begin
    insert into adult_prompt_inboxes as i (tenant_id, young_person_id, open_prompts)
    values (new.tenant_id, new.young_person_id, 1)
    on conflict (tenant_id, young_person_id) do update set open_prompts = i.open_prompts + 1
    returning i.open_prompts into open_now;
    select coalesce((t.config #>> '{adultPrompts,maxOpenPerYoungPerson}')::integer, 5) into most
    from tenants t where t.tenant_id = new.tenant_id;
    if open_now > most then
        raise exception 'this young person has % open prompts already', most
            using errcode = 'check_violation', constraint = 'adult_prompts_open_limit';
    end if;
    return null;
end;
$$;

create trigger adult_prompts_count_sent after insert on adult_prompts
    for each row execute function adult_prompts_count_sent();

-- Answering or dismissing takes the prompt off the count.
create function adult_prompts_count_closed() returns trigger
    language plpgsql
as $$
begin
    update adult_prompt_inboxes set open_prompts = open_prompts - 1
    where tenant_id = new.tenant_id and young_person_id = new.young_person_id;
    return null;
end;
$$;

create trigger adult_prompts_count_closed after update on adult_prompts
    for each row
    when (old.answered_at is null and old.dismissed_at is null
          and (new.answered_at is not null or new.dismissed_at is not null))
    execute function adult_prompts_count_closed();
