-- 0038_privacy_later_modules: erasure (0031) reaches the modules that landed beside it: social
-- (0032-0034) and webhooks (0028).
--
-- 0031 wrote `or (select privacy_erasing()) is not null` into every restrictive policy there was
-- when it ran; social's policies came after it, and social re-created media_read (0033) without
-- the clause, so an erasure could no longer see, and so delete, a person's files or social rows.
-- privacy_admit_erasure() (0031) writes it into every restrictive policy that lacks it.
--
-- Each module's rows about the person then go in its privacy_erase_<module>() function, which
-- privacy_erase_person() calls by name before erasing the core's rows (MODULES ADDED LATER, 0031).

select privacy_admit_erasure();

-- Others' records that name the erased person as the one who acted stay, nameless: a group an
-- admin created is the agency's, a suspension an admin decided is the suspended person's record.
alter table social_groups alter column created_by drop not null;
alter table social_suspensions alter column suspended_by drop not null;

-- SOCIAL: the person's profile and everything hanging from it — their posts (with the comments,
-- reactions, files and reports on them), their comments, reactions, reports, friendships, blocks,
-- memberships, suspensions and rate counts. Called as the owner inside privacy_erase_person.
create function privacy_erase_social(tenant uuid, person uuid) returns void
    language plpgsql
    set search_path = public, pg_temp
as $$
begin
    -- Reports on their posts or comments, and the reports they made.
    delete from social_reports r
    where r.tenant_id = tenant
      and (r.reporter_id = person
           or r.post_id in (select p.id from social_posts p where p.tenant_id = tenant and p.author_id = person)
           or r.comment_id in (select c.id from social_comments c
                               where c.tenant_id = tenant
                                 and (c.author_id = person
                                      or c.post_id in (select p.id from social_posts p where p.tenant_id = tenant and p.author_id = person))));
    delete from social_comments c
    where c.tenant_id = tenant
      and (c.author_id = person or c.post_id in (select p.id from social_posts p where p.tenant_id = tenant and p.author_id = person));
    delete from social_reactions r
    where r.tenant_id = tenant
      and (r.person_id = person or r.post_id in (select p.id from social_posts p where p.tenant_id = tenant and p.author_id = person));
    delete from social_post_media m where m.tenant_id = tenant and m.author_id = person;
    delete from social_posts p where p.tenant_id = tenant and p.author_id = person;

    delete from social_friendships f where f.tenant_id = tenant and (f.requester_id = person or f.addressee_id = person);
    delete from social_blocks b where b.tenant_id = tenant and (b.blocker_id = person or b.blocked_id = person);
    delete from social_group_members m where m.tenant_id = tenant and m.person_id = person;
    update social_groups g set created_by = null where g.tenant_id = tenant and g.created_by = person;
    delete from social_suspensions s where s.tenant_id = tenant and s.person_id = person;
    update social_suspensions s set suspended_by = null where s.tenant_id = tenant and s.suspended_by = person;
    delete from social_rate_events e where e.tenant_id = tenant and e.person_id = person;
    delete from social_profiles p where p.tenant_id = tenant and p.person_id = person;
end;
$$;

comment on function privacy_erase_social(uuid, uuid) is
    'An erasure''s social part: the person''s profile, posts, comments, reactions, reports, friendships, blocks, memberships.';

revoke all on function privacy_erase_social(uuid, uuid) from public;

-- WEBHOOKS: deliveries whose body names the person (a young person's alert or share, an adult's
-- share): sent or not, they are about someone who no longer exists here.
create function privacy_erase_webhooks(tenant uuid, person uuid) returns void
    language sql
    set search_path = public, pg_temp
begin atomic
    delete from webhook_deliveries d where d.tenant_id = tenant and position(person::text in d.body) > 0;
end;

comment on function privacy_erase_webhooks(uuid, uuid) is
    'An erasure''s webhook part: deliveries whose body names the person.';

revoke all on function privacy_erase_webhooks(uuid, uuid) from public;
