-- 0034_social_moderation: keeping the social space safe (issue 13): reports, the moderators'
-- decisions, suspensions, the tenant's blocked words and per-person rate limits.
-- Follows the pattern of 0001_tenancy and 0032/0033: tenant_id leads every key, row-level
-- security is enabled and forced, restrictive policies next to each table.
--
-- BLOCKED WORDS, HELD IN THE DATABASE
--
-- The tenant file's `social.blockedWords` (words or phrases, any case, matched as whole words)
-- hold a post or comment for review: social_content_held() reads them from the tenants row, and
-- the triggers below set `status` themselves, PENDING_REVIEW when the text holds one, so that no
-- statement (the server's or anyone's under the app role) publishes past them. An author's edit
-- of a held or published post is checked again; only a moderator publishes a held one
-- (restorePost) or removes one.
--
-- MODERATORS: an agency admin of a tenant with the module on (current_person_moderates_social(),
-- 0032). They read every post, comment and report of the tenant, decide on reports, remove and
-- restore content, and suspend people. Reporters are never named to the reported person.

-- BLOCKED WORDS

create function social_content_held(content text) returns boolean
    language sql stable parallel safe
as $$
    select coalesce(
        (select bool_or(lower(content) ~ ('\m' || regexp_replace(lower(w), '([.*+?^${}()|\[\]\\])', '\\\1', 'g') || '\M'))
         from tenants t, jsonb_array_elements_text(coalesce(t.config -> 'social' -> 'blockedWords', '[]'::jsonb)) as w
         where t.tenant_id = (select current_tenant_id())),
        false)
$$;

comment on function social_content_held(text) is
    'Whether the text holds one of the tenant''s social.blockedWords (whole words, any case).';

-- SUSPENSIONS

create table social_suspensions (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    person_id uuid not null,
    until timestamptz not null,
    reason text not null constraint social_suspensions_reason_length check (length(reason) between 1 and 500),
    suspended_by uuid not null,
    created_at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, id),
    foreign key (tenant_id, person_id) references people (tenant_id, id),
    foreign key (tenant_id, suspended_by) references people (tenant_id, id),
    constraint social_suspensions_until check (until > created_at)
);

create index social_suspensions_person on social_suspensions (tenant_id, person_id, until);

alter table social_suspensions enable row level security;
alter table social_suspensions force row level security;

create policy social_suspensions_tenant on social_suspensions
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- The suspended person reads theirs (until when, and why); moderators every one and make them.
create policy social_suspensions_read on social_suspensions as restrictive for select
    using (person_id = (select current_person_id()) or (select current_person_moderates_social()));

create policy social_suspensions_insert on social_suspensions as restrictive for insert
    with check ((select current_person_moderates_social()) and suspended_by = (select current_person_id()));

grant select, insert on social_suspensions to storykeep_app;

-- Whether the person acting is suspended now.
create function current_person_suspended() returns boolean
    language sql stable parallel safe
as $$
    select exists (select from social_suspensions s
                   where s.tenant_id = (select current_tenant_id()) and s.person_id = (select current_person_id())
                     and s.until > clock_timestamp())
$$;

comment on function current_person_suspended() is 'Whether the person acting is suspended from posting and commenting now.';

-- Nobody suspended posts or comments (their private journal is another module's and untouched).
alter policy social_posts_insert on social_posts
    with check (
        author_id = (select current_person_id()) and (select current_person_in_social())
        and (group_id is null or group_id in (select current_social_groups()))
        and not (select current_person_suspended())
    );

alter policy social_comments_insert on social_comments
    with check (
        author_id = (select current_person_id()) and (select current_person_in_social())
        and exists (select from social_posts p where p.tenant_id = social_comments.tenant_id and p.id = social_comments.post_id)
        and not (select current_person_suspended())
    );

-- REMOVAL: a moderator's decision on a post or comment, which its author reads.

alter table social_posts
    add column removed_at timestamptz,
    add column removal_reason text constraint social_posts_removal_reason_length check (length(removal_reason) between 1 and 500);

alter table social_comments
    add column removed_at timestamptz,
    add column removal_reason text constraint social_comments_removal_reason_length check (length(removal_reason) between 1 and 500);

-- Authors edit and delete theirs; moderators decide.
alter policy social_posts_update on social_posts
    using ((author_id = (select current_person_id()) and (select current_person_in_social()))
           or (select current_person_moderates_social()))
    with check (author_id = (select current_person_id()) or (select current_person_moderates_social()));

alter policy social_comments_update on social_comments
    using (author_id = (select current_person_id()) or (select current_person_moderates_social()))
    with check (author_id = (select current_person_id()) or (select current_person_moderates_social()));

grant update (status, removed_at, removal_reason) on social_posts to storykeep_app;
grant update (status, removed_at, removal_reason) on social_comments to storykeep_app;

-- WHO CHANGES WHAT (a trigger, not a SECURITY DEFINER: it runs with the caller's rights). New
-- content is published unless it holds a blocked word; an author changes text, link and
-- deleted_at, and their edit is held again if it holds one (a held or removed post stays so); a
-- moderator changes status and the removal's columns alone.
create function social_content_guard() returns trigger
    language plpgsql
as $$
declare
    me uuid := current_person_id();
    content text := coalesce(new.text, '') || coalesce(' ' || (to_jsonb(new) ->> 'link'), '');
begin
    if tg_op = 'INSERT' then
        new.status := case when social_content_held(content) then 'PENDING_REVIEW' else 'PUBLISHED' end;
        new.removed_at := null;
        new.removal_reason := null;
        return new;
    end if;
    if me is not distinct from old.author_id then
        if new.status is distinct from old.status or new.removed_at is distinct from old.removed_at
           or new.removal_reason is distinct from old.removal_reason then
            raise exception 'only a moderator decides whether content is published'
                using errcode = 'check_violation', constraint = 'social_content_guard';
        end if;
        if old.status = 'PUBLISHED' and social_content_held(content) then
            new.status := 'PENDING_REVIEW';
        end if;
    elsif current_person_moderates_social() then
        if to_jsonb(new) - array['status', 'removed_at', 'removal_reason'] <> to_jsonb(old) - array['status', 'removed_at', 'removal_reason'] then
            raise exception 'a moderator decides on content, and changes nothing else of it'
                using errcode = 'check_violation', constraint = 'social_content_guard';
        end if;
    else
        raise exception 'only its author or a moderator changes content'
            using errcode = 'check_violation', constraint = 'social_content_guard';
    end if;
    return new;
end;
$$;

create trigger social_posts_guard before insert or update on social_posts
    for each row execute function social_content_guard();

create trigger social_comments_guard before insert or update on social_comments
    for each row execute function social_content_guard();

-- REPORTS

create type social_report_reason as enum (
    'BULLYING', 'HARASSMENT', 'HATE', 'SELF_HARM', 'SEXUAL_CONTENT', 'VIOLENCE', 'SPAM', 'PERSONAL_INFORMATION', 'OTHER');

create table social_reports (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    reporter_id uuid not null,
    -- What is reported: a post or a comment (exactly one).
    post_id uuid,
    comment_id uuid,
    reason social_report_reason not null,
    text text constraint social_reports_text_length check (length(text) between 1 and 500),
    created_at timestamptz not null default clock_timestamp(),
    -- A moderator's decision: REMOVED (the content was taken down) or DISMISSED.
    resolved_at timestamptz,
    resolution text constraint social_reports_resolution check (resolution in ('REMOVED', 'DISMISSED')),
    primary key (tenant_id, id),
    foreign key (tenant_id, reporter_id) references people (tenant_id, id),
    foreign key (tenant_id, post_id) references social_posts (tenant_id, id),
    foreign key (tenant_id, comment_id) references social_comments (tenant_id, id),
    constraint social_reports_one_thing check ((post_id is null) <> (comment_id is null)),
    constraint social_reports_resolved check ((resolved_at is null) = (resolution is null))
);

-- One open report per person and thing: reporting again changes nothing.
create unique index social_reports_open_post on social_reports (tenant_id, post_id, reporter_id)
    where resolved_at is null and post_id is not null;
create unique index social_reports_open_comment on social_reports (tenant_id, comment_id, reporter_id)
    where resolved_at is null and comment_id is not null;
-- The moderation queue: the open reports.
create index social_reports_open on social_reports (tenant_id, created_at) where resolved_at is null;

alter table social_reports enable row level security;
alter table social_reports force row level security;

create policy social_reports_tenant on social_reports
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

-- The reporter reads their own; moderators every one and decide. Nobody else: the reported
-- person never learns who reported them.
create policy social_reports_read on social_reports as restrictive for select
    using (reporter_id = (select current_person_id()) or (select current_person_moderates_social()));

-- In one's own name, of a post or comment one reads, while taking part.
create policy social_reports_insert on social_reports as restrictive for insert
    with check (
        reporter_id = (select current_person_id()) and (select current_person_in_social()) and resolved_at is null
        and (exists (select from social_posts p where p.tenant_id = social_reports.tenant_id and p.id = social_reports.post_id)
             or exists (select from social_comments c where c.tenant_id = social_reports.tenant_id and c.id = social_reports.comment_id))
    );

create policy social_reports_update on social_reports as restrictive for update
    using ((select current_person_moderates_social()))
    with check ((select current_person_moderates_social()));

grant select, insert on social_reports to storykeep_app;
grant update (resolved_at, resolution) on social_reports to storykeep_app;

-- RATE LIMITS: what each person did recently, by action (`post`, `comment`, `friendRequest`),
-- counted in the database so that a limit holds across servers. SocialStatements.rateCheck
-- counts, under a transaction-level advisory lock per person and action, and forgets what is
-- older than the window as it goes.

create table social_rate_events (
    tenant_id uuid not null references tenants (tenant_id),
    id uuid not null default gen_random_uuid(),
    person_id uuid not null,
    action text not null constraint social_rate_events_action check (action ~ '^[a-z][a-zA-Z]{0,39}$'),
    at timestamptz not null default clock_timestamp(),
    primary key (tenant_id, id),
    foreign key (tenant_id, person_id) references people (tenant_id, id)
);

create index social_rate_events_person on social_rate_events (tenant_id, person_id, action, at);

alter table social_rate_events enable row level security;
alter table social_rate_events force row level security;

create policy social_rate_events_tenant on social_rate_events
    using (tenant_id = (select current_tenant_id()))
    with check (tenant_id = (select current_tenant_id()));

create policy social_rate_events_own on social_rate_events as restrictive
    using (person_id = (select current_person_id()))
    with check (person_id = (select current_person_id()));

grant select, insert, delete on social_rate_events to storykeep_app;
