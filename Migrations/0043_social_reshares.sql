-- 0043_social_reshares: resharing a post (issue 13's `resharePost(postId, comment)`).
--
-- A reshare is a post of the resharer's (their comment is its text), pointing at the original.
-- It never widens who reads the original:
--   - the original is shown inside a reshare to each reader only as social_posts_read lets that
--     reader read it themselves (PostStatements reads it in the reader's context): whoever may
--     not read the original sees the reshare with the original "unavailable";
--   - and the reshare's own audience must lie within the original's, so that it is not sent to
--     people who would see only that: a post in a group is reshared into that group only; a post
--     for FRIENDS (outside a group) only to the resharer's FRIENDS (never to the AGENCY, never
--     into a group); a post for the AGENCY to any audience the resharer may post to.
-- Only a published post one reads is reshared (not a reshare: resharing one reshares its
-- original), checked by social_posts_reshare_guard below as the person acting, so under their
-- policies (a policy of social_posts cannot read social_posts itself). A deleted or removed
-- original shows as unavailable in every reshare of it; an erased person's original leaves its
-- reshares pointing at nothing (`reshare` stays true), unavailable too.

alter table social_posts
    add column reshare boolean not null default false,
    add column reshare_of uuid,
    add constraint social_posts_reshare_of foreign key (tenant_id, reshare_of) references social_posts (tenant_id, id)
        on delete set null (reshare_of),
    add constraint social_posts_reshare check (reshare_of is null or reshare);

-- The reshares of a post (its author's notification, erasure's SET NULL).
create index social_posts_reshares on social_posts (tenant_id, reshare_of) where reshare_of is not null;

create function social_posts_reshare_guard() returns trigger
    language plpgsql
as $$
declare
    original social_posts;
begin
    if new.reshare_of is null then
        if new.reshare then
            raise exception 'a reshare names the post it reshares'
                using errcode = 'check_violation', constraint = 'social_posts_reshare_guard';
        end if;
        return new;
    end if;
    select * into original from social_posts o
    where o.tenant_id = new.tenant_id and o.id = new.reshare_of and o.status = 'PUBLISHED' and o.deleted_at is null;
    if not found or original.reshare then
        raise exception 'only a published post one reads, not a reshare, is reshared'
            using errcode = 'check_violation', constraint = 'social_posts_reshare_guard';
    end if;
    if (original.group_id is not null and new.group_id is distinct from original.group_id)
       or (original.group_id is null and original.visibility = 'FRIENDS'
           and (new.visibility <> 'FRIENDS' or new.group_id is not null)) then
        raise exception 'a reshare goes to no wider an audience than its original'
            using errcode = 'check_violation', constraint = 'social_posts_reshare_audience';
    end if;
    return new;
end;
$$;

create trigger social_posts_reshare_guard before insert on social_posts
    for each row execute function social_posts_reshare_guard();
