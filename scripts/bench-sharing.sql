-- bench-sharing.sh's data, on top of `storykeep seed --tenant-prefix bench` (run as the cluster's
-- superuser, in one transaction; the triggers of 0010 and 0012 run as for any insert).
--
-- In bench-1: the social worker sw1 looks after 30 new young people (bench-share-1 ... -30),
-- each with 2,000 entries over two years, two of their eight tags on each; every other entry
-- (1,000 each) is shared with sw1 and has a small file, and a quarter of the others have one.
-- The older 700 shares of each are seen. And the seed's `heavy` shares every tenth of their
-- entries with sw2, so that the author's plans are measured with shares of their own.

begin;

create temporary table bench_young on commit drop as
select gen_random_uuid() as id, n, t.tenant_id, w.id as worker
from generate_series(1, 30) as n
join tenants t on t.slug = 'bench-1'
join people w on w.tenant_id = t.tenant_id and w.email = 'sw1@agency-1.example.org';

insert into people (tenant_id, id, role, username, display_name)
select tenant_id, id, 'YOUNG_PERSON', 'bench-share-' || n, 'Young person ' || n from bench_young;

insert into assignments (tenant_id, young_person_id, adult_id, relationship, since)
select tenant_id, id, worker, 'SOCIAL_WORKER', '2020-01-01' from bench_young;

create temporary table bench_tags on commit drop as
select y.tenant_id, y.id as owner_id, gen_random_uuid() as id, k,
       (array['school', 'football', 'family time', 'contact', 'friends', 'music', 'worries', 'plans'])[k] as name
from bench_young y, generate_series(1, 8) as k;

insert into tags (tenant_id, id, owner_id, name) select tenant_id, id, owner_id, name from bench_tags;

create temporary table bench_entries on commit drop as
select y.tenant_id, y.id as author_id, y.worker, gen_random_uuid() as id, i,
       date '2024-11-01' + (i * 730 / 2000) as day,
       (date '2024-11-01' + (i * 730 / 2000))::timestamptz + make_interval(mins => 480 + i % 600) as created_at,
       1 + i % 8 as tag1, 1 + (i + 3) % 8 as tag2
from bench_young y, generate_series(1, 2000) as i;

insert into entries (tenant_id, id, author_id, day, kind, body, mood, tag_names, created_at, updated_at)
select e.tenant_id, e.id, e.author_id, e.day, 'TEXT',
       'Day ' || e.i || ': ' || (array['Scored twice at football practice.', 'Contact with mum went well.',
                                      'Worried about the maths test.', 'Cooked dinner with my carer.'])[1 + e.i % 4],
       (array['Happy', 'Okay', 'Calm', 'Worried'])[1 + e.i % 4],
       t1.name || ' ' || t2.name, e.created_at, e.created_at
from bench_entries e
join bench_tags t1 on t1.owner_id = e.author_id and t1.k = e.tag1
join bench_tags t2 on t2.owner_id = e.author_id and t2.k = e.tag2;

insert into entry_tags (tenant_id, entry_id, tag_id, author_id)
select e.tenant_id, e.id, t.id, e.author_id
from bench_entries e join bench_tags t on t.owner_id = e.author_id and t.k in (e.tag1, e.tag2);

create temporary table bench_media on commit drop as
select e.tenant_id, e.id as entry_id, e.author_id, gen_random_uuid() as id
from bench_entries e where e.i % 2 = 0 or e.i % 8 = 1;

-- A PNG's first bytes, then a kilobyte that differs per file.
insert into media (tenant_id, id, owner_id, content_type, bytes)
select tenant_id, id, author_id, 'image/png', '\x89504e470d0a1a0a'::bytea || convert_to(repeat(id::text, 28), 'UTF8')
from bench_media;

insert into entry_media (tenant_id, entry_id, media_id, author_id, position)
select tenant_id, entry_id, id, author_id, 0 from bench_media;

insert into shares (tenant_id, entry_id, author_id, sharee_id, assignment_id, message, shared_at)
select e.tenant_id, e.id, e.author_id, e.worker, a.id, case when e.i % 10 = 0 then 'Have a look at this one' end,
       e.created_at + interval '1 hour'
from bench_entries e
join assignments a on a.tenant_id = e.tenant_id and a.young_person_id = e.author_id and a.adult_id = e.worker
where e.i % 2 = 0;

-- Seen by sw1, in sw1's name (shares_guard lets only the sharee mark a share seen).
select set_config('storykeep.person_id', (select worker::text from bench_young limit 1), true);
update shares s set seen_at = s.shared_at + interval '1 day'
from bench_entries e where s.entry_id = e.id and s.tenant_id = e.tenant_id and e.i <= 1400;
select set_config('storykeep.person_id', '', true);

-- heavy shares every tenth entry with sw2.
insert into assignments (tenant_id, young_person_id, adult_id, relationship, since)
select h.tenant_id, h.id, w.id, 'SOCIAL_WORKER', '2000-01-01'
from people h join tenants t on t.tenant_id = h.tenant_id and t.slug = 'bench-1'
join people w on w.tenant_id = h.tenant_id and w.email = 'sw2@agency-1.example.org'
where h.username = 'heavy';

insert into shares (tenant_id, entry_id, author_id, sharee_id, assignment_id)
select e.tenant_id, e.id, e.author_id, a.adult_id, a.id
from (select e.*, row_number() over (order by e.day, e.created_at) as r
      from entries e join people h on h.tenant_id = e.tenant_id and h.id = e.author_id and h.username = 'heavy'
      join tenants t on t.tenant_id = h.tenant_id and t.slug = 'bench-1'
      where e.archived_at is null) as e
join assignments a on a.tenant_id = e.tenant_id and a.young_person_id = e.author_id and a.until is null
where e.r % 10 = 0;

commit;
