-- 0042_messaging: private messages (issue 13, tenant module `messaging`): conversations of two
-- people, their messages (text and the sender's own files), read receipts, reports and the
-- moderators' removals.
-- Follows the pattern of 0001_tenancy and 0032-0034: tenant_id leads every key, row-level
-- security is enabled and forced, the permissive tenant policy admits a tenant's rows only, and
-- restrictive policies next to each table narrow them.
--
-- WHO MESSAGES WHOM (current_messaging_contacts(), the one place it is written)
--
-- Two friends (0032's friendships, which exist only while both take part in `social`), and a
-- young person and an adult currently assigned to them (0010: their social worker, carer or other
-- professional). Never a young person and an unrelated adult, never across agencies. A block
-- (0032), in either direction, ends it: the conversation disappears for both, its messages and
-- files with it, and no message passes. A suspended person (0034) sends nothing until the
-- suspension ends.
--
-- WHO READS A CONVERSATION: its two people, and nobody else, while the agency has `messaging` on
-- and neither blocked the other. Staff read no conversation they are not in. The moderating admin
-- (an agency admin of a tenant with the module on) reads a message only once someone reported
-- it (a report names a message sent to its reporter), with its reports: never the rest of the
-- conversation.

-- Whether the person acting moderates messages: an agency admin of a tenant with the module on.
create function current_person_moderates_messaging() returns boolean
    language sql stable parallel safe
as $$
    select (select current_person_role()) = 'AGENCY_ADMIN' and (select current_tenant_has_module('messaging'))
$$;

comment on function current_person_moderates_messaging() is
    'Whether the person acting is an agency admin of a tenant with the messaging module on.';

-- The people the person acting may message now: their friends and the people in a current
-- assignment with them, none blocked either way, while the module is on. Policies call it as
-- `x in (select c from current_messaging_contacts() as c)`, uncorrelated: run once per statement.
create function current_messaging_contacts() returns setof uuid
    language sql stable parallel safe
as $$
    select c from (
        select f from current_social_friends() as f
        union
        select a from current_assigned_people() as a
    ) as contacts (c)
    where (select current_tenant_has_module('messaging'))
      and c not in (select b from current_social_blocked() as b)
$$;

comment on function current_messaging_contacts() is
    'The people the person acting may message: friends and current assignments, none blocked either way.';

-- CONVERSATIONS: one per pair of people, the lesser id first.

create table messaging_conversations (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    person_a uuid not null,
    person_b uuid not null,
    created_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, id),
    -- One per pair (and the person_a half of "my conversations").
    unique (tenant_id, person_a, person_b),
    foreign key (tenant_id, person_a) references people (tenant_id, id),
    foreign key (tenant_id, person_b) references people (tenant_id, id),
    constraint messaging_conversations_pair check (person_a < person_b)
);

-- The person_b half of "my conversations".
create index messaging_conversations_b on messaging_conversations (tenant_id, person_b, person_a);

alter table messaging_conversations enable row level security;
alter table messaging_conversations force row level security;

create policy messaging_conversations_tenant on messaging_conversations
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Its two people, while the module is on and neither blocked the other.
create policy messaging_conversations_read on messaging_conversations as restrictive for select
    using (
        (select current_person_id()) in (person_a, person_b)
        and (select current_tenant_has_module('messaging'))
        and person_a not in (select b from current_social_blocked() as b)
        and person_b not in (select b from current_social_blocked() as b)
    );

-- Started by one of its people with someone they may message.
create policy messaging_conversations_insert on messaging_conversations as restrictive for insert
    with check (
        ((select current_person_id()) = person_a and person_b in (select c from current_messaging_contacts() as c))
        or ((select current_person_id()) = person_b and person_a in (select c from current_messaging_contacts() as c))
    );

grant select, insert on messaging_conversations to storykeep_app;

-- MESSAGES

create table messaging_messages (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    conversation_id uuid not null,
    sender_id uuid not null,
    recipient_id uuid not null,
    -- Null when the message is only files.
    text text constraint messaging_messages_text_length check (length(text) between 1 and 2000),
    created_at timestamptz not null default clock_timestamp(),
    -- The read receipt: set once, by the recipient.
    read_at timestamptz,
    -- When its recipient first reported it (messaging_reports): from then on the moderator reads
    -- it. A flag here, not a look at messaging_reports, which a policy of this table cannot ask
    -- (that table's own policy asks this one: PostgreSQL refuses the circle).
    reported_at timestamptz,
    -- A moderator's removal, which the sender reads (the recipient no longer reads the message).
    removed_at timestamptz,
    removal_reason text constraint messaging_messages_removal_reason_length check (length(removal_reason) between 1 and 500),
    primary key (tenant_id, id),
    -- The target of the files' key, which holds a message's files to its sender's.
    unique (tenant_id, id, sender_id),
    foreign key (tenant_id, conversation_id) references messaging_conversations (tenant_id, id),
    foreign key (tenant_id, sender_id) references people (tenant_id, id),
    foreign key (tenant_id, recipient_id) references people (tenant_id, id),
    constraint messaging_messages_two_people check (sender_id <> recipient_id),
    constraint messaging_messages_removed check ((removed_at is null) = (removal_reason is null))
);

-- A conversation's messages, newest first (`messages(conversationId, first, before)`, the last
-- message of each conversation).
create index messaging_messages_conversation on messaging_messages (tenant_id, conversation_id, created_at, id);
-- Unread counts: a person's unread messages, by conversation.
create index messaging_messages_unread on messaging_messages (tenant_id, recipient_id, conversation_id) where read_at is null;

alter table messaging_messages enable row level security;
alter table messaging_messages force row level security;

create policy messaging_messages_tenant on messaging_messages
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- Of a conversation one reads (a removed one: its sender only); a reported one for the moderator.
create policy messaging_messages_read on messaging_messages as restrictive for select
    using (
        (exists (select from messaging_conversations c
                 where c.tenant_id = messaging_messages.tenant_id and c.id = messaging_messages.conversation_id)
         and (removed_at is null or sender_id = (select current_person_id())))
        or (reported_at is not null and (select current_person_moderates_messaging()))
    );

-- In one's own name, not suspended, to someone one may message, in the conversation of the two.
create policy messaging_messages_insert on messaging_messages as restrictive for insert
    with check (
        sender_id = (select current_person_id())
        and not (select current_person_suspended())
        and recipient_id in (select c from current_messaging_contacts() as c)
        and read_at is null and reported_at is null and removed_at is null
        and exists (select from messaging_conversations c
                    where c.tenant_id = messaging_messages.tenant_id and c.id = messaging_messages.conversation_id
                      and c.person_a = least(sender_id, recipient_id) and c.person_b = greatest(sender_id, recipient_id))
    );

-- The recipient marks it read and reports it; the moderator removes it (messaging_messages_guard
-- says which column each may change).
create policy messaging_messages_update on messaging_messages as restrictive for update
    using (recipient_id = (select current_person_id()) or (select current_person_moderates_messaging()))
    with check (recipient_id = (select current_person_id()) or (select current_person_moderates_messaging()));

grant select, insert on messaging_messages to storykeep_app;
grant update (read_at, reported_at, removed_at, removal_reason) on messaging_messages to storykeep_app;

-- The recipient sets read_at and reported_at, each once; only a moderator removes.
create function messaging_messages_guard() returns trigger
    language plpgsql
as $$
begin
    if (new.removed_at, new.removal_reason) is distinct from (old.removed_at, old.removal_reason)
       and not current_person_moderates_messaging() then
        raise exception 'only a moderator removes a message'
            using errcode = 'check_violation', constraint = 'messaging_messages_guard';
    end if;
    if new.read_at is distinct from old.read_at
       and (old.read_at is not null or current_person_id() is distinct from old.recipient_id) then
        raise exception 'only its recipient marks a message read, once'
            using errcode = 'check_violation', constraint = 'messaging_messages_guard';
    end if;
    if new.reported_at is distinct from old.reported_at
       and (old.reported_at is not null or current_person_id() is distinct from old.recipient_id) then
        raise exception 'only its recipient reports a message'
            using errcode = 'check_violation', constraint = 'messaging_messages_guard';
    end if;
    return new;
end;
$$;

create trigger messaging_messages_guard before update on messaging_messages
    for each row execute function messaging_messages_guard();

-- Live delivery (0020): `messageAdded` to the recipient, who reads it again as themselves.
create trigger messaging_messages_live after insert on messaging_messages
    for each row execute function live_row_changed('messageAdded', 'recipient_id');

-- A MESSAGE'S FILES: the sender's own uploads (the journal's media), in order.

create table messaging_message_media (
    tenant_id uuid not null references tenants (tenant_id),
    message_id uuid not null,
    media_id uuid not null,
    sender_id uuid not null,
    position int not null constraint messaging_message_media_position check (position between 0 and 9),
    primary key (tenant_id, message_id, media_id),
    foreign key (tenant_id, message_id, sender_id) references messaging_messages (tenant_id, id, sender_id),
    foreign key (tenant_id, media_id, sender_id) references media (tenant_id, id, owner_id)
);

create index messaging_message_media_media on messaging_message_media (tenant_id, media_id);

alter table messaging_message_media enable row level security;
alter table messaging_message_media force row level security;

create policy messaging_message_media_tenant on messaging_message_media
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy messaging_message_media_read on messaging_message_media as restrictive for select
    using (exists (select from messaging_messages m
                   where m.tenant_id = messaging_message_media.tenant_id and m.id = messaging_message_media.message_id));

create policy messaging_message_media_insert on messaging_message_media as restrictive for insert
    with check (sender_id = (select current_person_id()));

grant select, insert on messaging_message_media to storykeep_app;

-- A file: as 0033 left it, and now anyone's who reads a message it is attached to.
alter policy media_read on media
    using (
        owner_id = (select current_person_id())
        or exists (select from entry_media em
                   where em.tenant_id = media.tenant_id and em.media_id = media.id
                   offset 0)
        or exists (select from social_post_media pm
                   where pm.tenant_id = media.tenant_id and pm.media_id = media.id
                   offset 0)
        or exists (select from messaging_message_media mm
                   where mm.tenant_id = media.tenant_id and mm.media_id = media.id
                   offset 0)
    );

-- REPORTS: the recipient reports a message sent to them, for a reason of 0034's list.

create table messaging_reports (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    message_id uuid not null,
    reporter_id uuid not null,
    reason social_report_reason not null,
    text text constraint messaging_reports_text_length check (length(text) between 1 and 500),
    created_at timestamptz not null default clock_timestamp(),
    -- A moderator's decision: REMOVED (the message was taken down) or DISMISSED.
    resolved_at timestamptz,
    resolution text constraint messaging_reports_resolution check (resolution in ('REMOVED', 'DISMISSED')),
    primary key (tenant_id, id),
    foreign key (tenant_id, message_id) references messaging_messages (tenant_id, id),
    foreign key (tenant_id, reporter_id) references people (tenant_id, id),
    constraint messaging_reports_resolved check ((resolved_at is null) = (resolution is null))
);

-- One open report per person and message: reporting again changes nothing.
create unique index messaging_reports_open_message on messaging_reports (tenant_id, message_id, reporter_id) where resolved_at is null;
-- The moderators' list: the open reports.
create index messaging_reports_open on messaging_reports (tenant_id, created_at) where resolved_at is null;

alter table messaging_reports enable row level security;
alter table messaging_reports force row level security;

create policy messaging_reports_tenant on messaging_reports
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- The reporter reads their own; moderators every one. The sender never learns who reported them.
create policy messaging_reports_read on messaging_reports as restrictive for select
    using (
        (reporter_id = (select current_person_id()) and (select current_tenant_has_module('messaging')))
        or (select current_person_moderates_messaging())
    );

-- Of a message sent to the reporter that they read (and marked reported: MessageStatements.report).
create policy messaging_reports_insert on messaging_reports as restrictive for insert
    with check (
        reporter_id = (select current_person_id()) and resolved_at is null
        and exists (select from messaging_messages m
                    where m.tenant_id = messaging_reports.tenant_id and m.id = messaging_reports.message_id
                      and m.recipient_id = (select current_person_id()))
    );

create policy messaging_reports_update on messaging_reports as restrictive for update
    using ((select current_person_moderates_messaging()))
    with check ((select current_person_moderates_messaging()));

grant select, insert on messaging_reports to storykeep_app;
grant update (resolved_at, resolution) on messaging_reports to storykeep_app;

-- Every restrictive policy above admits an erasure (0031).
select privacy_admit_erasure();

-- ERASURE: the person's conversations, with every message, file link and report in them (both
-- people's words: a conversation is the two's, and one of them is gone), and the reports they
-- made. Called as the owner inside privacy_erase_person (0031).
create function privacy_erase_messaging(tenant uuid, person uuid) returns void
    language plpgsql
    set search_path = public, pg_temp
as $$
begin
    delete from messaging_reports r
    where r.tenant_id = tenant
      and (r.reporter_id = person
           or r.message_id in (select m.id from messaging_messages m
                               where m.tenant_id = tenant and (m.sender_id = person or m.recipient_id = person)));
    delete from messaging_message_media mm
    where mm.tenant_id = tenant
      and mm.message_id in (select m.id from messaging_messages m
                            where m.tenant_id = tenant and (m.sender_id = person or m.recipient_id = person));
    delete from messaging_messages m where m.tenant_id = tenant and (m.sender_id = person or m.recipient_id = person);
    delete from messaging_conversations c where c.tenant_id = tenant and (c.person_a = person or c.person_b = person);
end;
$$;

comment on function privacy_erase_messaging(uuid, uuid) is
    'An erasure''s messaging part: the person''s conversations, their messages, files and reports, and the reports they made.';

revoke all on function privacy_erase_messaging(uuid, uuid) from public;
