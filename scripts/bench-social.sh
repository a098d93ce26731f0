#!/usr/bin/env bash
# The social module's figures (issue 13), in one tenant, bench-social, with the module on and its
# posting rate limit out of reach:
#   1. HealthSpace's "1,000 users create a post at the same moment": 1,000 young people, each with
#      a session made beforehand, each sending one createPost at once (scripts/bench-social.py:
#      1,000 connections opened first, then released together); all must succeed; p50/p95/p99.
#   2. The timeline's first page for a person with 200 friends in a tenant of 100,000 posts
#      (100 per person over a year, seven in ten for friends, the rest for the agency): EXPLAIN
#      (ANALYZE, BUFFERS) of PostStatements.timeline as storykeep_app in their context, then over
#      HTTP p50/p99 and the SQL statements per request (pg_stat_statements).
# People, profiles, friendships, sessions and posts are written by the superuser in bulk (as the
# seed does); the requests go through the server like an app's. A throw-away PostgreSQL of its
# own (fsync off) and a server on a free loopback port. Called by scripts/bench.sh (make bench;
# BENCH_SOCIAL=0 skips it); runs alone too. BENCH_CONFIGURATION=debug|release (default release),
# BENCH_SOCIAL_WRITERS (1000), BENCH_SOCIAL_POSTS (100000), BENCH_SOCIAL_FRIENDS (200),
# BENCH_SOCIAL_REQUESTS (500).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/bench-cluster.sh  # $configuration, $bin, bench_cluster, bench_serve

writers=${BENCH_SOCIAL_WRITERS:-1000}
posts=${BENCH_SOCIAL_POSTS:-100000}
friends=${BENCH_SOCIAL_FRIENDS:-200}
requests=${BENCH_SOCIAL_REQUESTS:-500}

# A thousand connections at once, on both ends.
ulimit -n "$(( $(ulimit -Hn) < 8192 ? $(ulimit -Hn) : 8192 ))"
bench_cluster bench-social.sh
$bin migrate >/dev/null 2>&1
tenants=$root/tenants
mkdir -p "$tenants"
cat >"$tenants/bench-social.yaml" <<'YAML'
slug: bench-social
displayName: Bench Social
timeZone: Europe/London
termsVersion: "1"
modules: [social]
moodIcons:
  - { emoji: "🙂", label: Okay }
social:
  rateLimits: { postsPerHour: 1000 }
rateLimits: { mutationsPerMinutePerPerson: 100000, mutationsPerMinutePerAddress: 1000000 }
YAML
$bin tenant apply "$tenants" >/dev/null

echo "Social: 1,000 createPost at once, and the timeline of a person with $friends friends among $posts posts ($configuration build, PostgreSQL 15, fsync off)"
started=$(date +%s)
# Person n (1..writers) is bench-n, display name "Person n", session token "bench-social-token-" + n
# padded with x to the 43 characters of a token; person 1 is the timeline's reader, befriended by
# persons 2..friends+1.
pgc_as_postgres "${psql_super[@]}" >/dev/null <<SQL
begin;
select set_config('storykeep.tenant_id', tenant_id::text, true) from tenants where slug = 'bench-social';
create temporary table bench_people as
    select n, gen_random_uuid() as id, rpad('bench-social-token-' || n, 43, 'x') as token from generate_series(1, $writers) as n;
insert into people (tenant_id, id, role, username, display_name, terms_version_accepted, terms_accepted_at)
select current_setting('storykeep.tenant_id')::uuid, id, 'YOUNG_PERSON', 'bench-' || n, 'Person ' || n, '1', now() from bench_people;
insert into sessions (tenant_id, person_id, token_hash, expires_at, max_expires_at)
select current_setting('storykeep.tenant_id')::uuid, id, sha256(convert_to(token, 'UTF8')), now() + interval '1 day', now() + interval '1 day'
from bench_people;
insert into social_profiles (tenant_id, person_id, display_name, discoverable, staff)
select current_setting('storykeep.tenant_id')::uuid, id, 'Person ' || n, true, false from bench_people;
insert into social_friendships (tenant_id, requester_id, addressee_id, requested_at, accepted_at)
select current_setting('storykeep.tenant_id')::uuid, f.id, r.id, now() - interval '1 day', now()
from bench_people r, bench_people f where r.n = 1 and f.n between 2 and $friends + 1;
insert into social_posts (tenant_id, author_id, text, visibility, created_at)
select current_setting('storykeep.tenant_id')::uuid, p.id, 'Post ' || i || ' of person ' || p.n,
       (case when i % 10 < 7 then 'FRIENDS' else 'AGENCY' end)::social_post_visibility,
       now() - interval '365 days' * random()
from generate_series(1, $posts) as i join bench_people p on p.n = 1 + i % $writers;
\copy (select token from bench_people order by n) to '$root/tokens'
commit;
vacuum analyze;
SQL
echo "  seeded and analysed in $(($(date +%s) - started)) s"

read -r reader tenant < <(pgc_as_postgres "${psql_super[@]}" -A -t -F ' ' -c \
    "select p.id, p.tenant_id from people p join tenants t using (tenant_id) where t.slug = 'bench-social' and p.username = 'bench-1'")
echo
echo "The timeline's first page (PostStatements.timeline, 21 rows), EXPLAIN (ANALYZE, BUFFERS) as storykeep_app in bench-1's context:"
"$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$DATABASE_URL" <<SQL | sed 's/^/    /'
begin;
select set_config('storykeep.person_id', '$reader', true), set_config('storykeep.role', 'YOUNG_PERSON', true),
       set_config('storykeep.tenant_id', '$tenant', true) \\g /dev/null
prepare timeline (timestamptz, uuid, int8) as
    select p.id, p.author_id, p.text, p.link, p.group_id, p.visibility::text, p.status::text, p.created_at, p.edited_at, p.removal_reason,
           p.reshare, p.reshare_of
    from social_posts p
    where p.tenant_id = current_tenant_id() and p.deleted_at is null and (p.created_at, p.id) < (\$1, \$2)
    order by p.created_at desc, p.id desc
    limit \$3;
explain (analyze, buffers, costs off) execute timeline('294276-12-31 23:59:59.999999+00', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 21);
rollback;
SQL

echo
echo "Over HTTP: GraphQL at /t/bench-social/graphql"
# Requests alone: the background jobs, which run as the same role, would add their statements to the counts.
STORYKEEP_JOBS_ENABLED=false bench_serve 18380
echo "  load before: $(uptime)"
BENCH_PSQL="runuser -u postgres -- ${psql_super[*]}" python3 scripts/bench-social.py \
    "http://127.0.0.1:$port" bench-social "$root/tokens" "$requests"
echo "  load after: $(uptime)"
