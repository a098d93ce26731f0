-- 0044_social_admin_people: what agency admins read beside each person of `people` (issue 13,
-- HealthSpace's admin list): when they were last seen, how many posts they have, and how many
-- open reports there are of their posts and comments. Each is read for a page of people in one
-- statement, each person one probe of an index, so that a page costs the same on a tenant of a
-- hundred people or a hundred thousand posts:
--   - last seen: the newest `last_used_at` of any of their sessions, revoked or not
--     (sessions_person below, read backwards for its maximum: sessions_person of 0002 holds only
--     live sessions);
--   - posts: their posts not deleted (social_posts_author_live below, counted from the index);
--   - open reports: the open reports are few (the moderation queue); they are read through
--     social_reports_open (0034) and joined to their posts and comments by key.
-- And the timeline's read policy, cheaper (THE TIMELINE'S POLICY below).

create index sessions_person_seen on sessions (tenant_id, person_id, last_used_at);

create index social_posts_author_live on social_posts (tenant_id, author_id) where deleted_at is null;

-- THE TIMELINE'S POLICY, CHEAPER (measured by scripts/bench-social.sh: a person with 200 friends
-- among 100,000 posts). 0033 called the sets of blocked people, groups, friends and private
-- profiles in a select list, `x in (select current_social_friends())`, where PostgreSQL runs each
-- function as a query of its own, planned anew for every statement (0010 measured the same);
-- called in a FROM, as 0010's policies call current_assigned_people(), their bodies are inlined
-- into the statement's plan. The rule is 0033's (and 0034's), word for word.
alter policy social_posts_read on social_posts
    using (
        (author_id = (select current_person_id()) and (select current_person_in_social()))
        or (select current_person_moderates_social())
        or ((select current_person_in_social()) and status = 'PUBLISHED' and deleted_at is null
            and author_id not in (select b from current_social_blocked() as b)
            and case when group_id is not null then group_id in (select g from current_social_groups() as g)
                     else author_id in (select f from current_social_friends() as f)
                          or (visibility = 'AGENCY' and author_id not in (select p from current_social_private_people() as p))
                end)
    );

-- Every restrictive policy admits an erasure again (0031): the one above was rewritten.
select privacy_admit_erasure();
