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

create index sessions_person_seen on sessions (tenant_id, person_id, last_used_at);

create index social_posts_author_live on social_posts (tenant_id, author_id) where deleted_at is null;
