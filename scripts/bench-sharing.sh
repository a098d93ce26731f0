#!/usr/bin/env bash
# Sharing's figures (issue 11), on journals seeded by `storykeep seed` in one tenant, bench-1: a
# young person `heavy` with BENCH_SHARING_HEAVY entries and 30 others with BENCH_SHARING_ENTRIES
# between them (unevenly, as the seed spreads them); the caseload's seed gives the social worker
# sw1 the first 30 young people (heavy among them), and the sharing module's seed has each young
# person share every k-th of their live entries with their social worker, BENCH_SHARING_SHARES
# at most (as many as they have below that), sw1 having seen the older seven in ten.
#   1. The author's own reads keep their plans when 0012 widens the journal's read policies for
#      sharees: EXPLAIN (ANALYZE, BUFFERS) of the first page, a search, a month of the calendar
#      and the archive's first page (JournalStatements' and ArchiveStatements' statements,
#      prepared, as storykeep_app in heavy's context),
#      with custom and generic plans (plan_cache_mode), before 0012 (a second database of the
#      same seed, migrated up to 0011, no shares) and after it, when heavy has shared 1,000
#      entries (every tenth).
#   2. The sharee's first page: sw1 with 30 young people who shared up to 1,000 entries each.
#      EXPLAIN of ShareStatements.sharedPage and the media and tags of its 20 entries; then over
#      HTTP (scripts/bench-sharing.py) p50/p99 and SQL statement counts.
# A throw-away PostgreSQL of its own (fsync off; pg_stat_statements on this cluster only) and a
# server on a free loopback port. Called by scripts/bench.sh (make bench; BENCH_SHARING=0 skips
# it); runs alone too. BENCH_CONFIGURATION=debug|release (default release),
# BENCH_SHARING_ENTRIES (300000), BENCH_SHARING_HEAVY (10000), BENCH_SHARING_SHARES (1000),
# BENCH_SHARING_REQUESTS (500).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/bench-cluster.sh  # $configuration, $bin, bench_cluster, bench_serve

entries=${BENCH_SHARING_ENTRIES:-300000}
heavy=${BENCH_SHARING_HEAVY:-10000}
shares=${BENCH_SHARING_SHARES:-1000}
requests=${BENCH_SHARING_REQUESTS:-500}
month=2026-10      # the seed's last month (--until 2026-10-31)
search=football    # a word of the seed's sentences and tags

bench_cluster bench-sharing.sh 'pg_stat_statements.track_planning = on'

# The same seed twice: in a database migrated up to 0011 (no shares), for the "before" plans,
# and in the bench's own, migrated to the end, with the shares.
before=$root/migrations-before-sharing
mkdir "$before"
for file in Migrations/*.sql; do [[ $(basename "$file") < 0012 ]] && ln -s "$PWD/$file" "$before/"; done
before_database=${PGC_DATABASE}_before
pgc_as_postgres "${psql_super[@]}" >/dev/null <<SQL
create database $before_database owner storykeep_owner;
revoke all on database $before_database from public;
grant connect, temporary on database $before_database to storykeep_app;
SQL
psql_before=("${psql_super[@]:0:${#psql_super[@]}-1}" "$before_database")
before_urls=(DATABASE_URL="${DATABASE_URL%/*}/$before_database"
             STORYKEEP_OWNER_DATABASE_URL="${STORYKEEP_OWNER_DATABASE_URL%/*}/$before_database")
env "${before_urls[@]}" STORYKEEP_DATABASE_MIGRATIONS_DIRECTORY="$before" $bin migrate >/dev/null 2>&1
$bin migrate >/dev/null 2>&1

echo "Sharing: the author's plans before and after 0012, and sharedWithMe ($configuration build, PostgreSQL 15, fsync off)"
started=$(date +%s)
seed=(seed --seed 1 --tenant-prefix bench --tenants 1 --people 31 --days 1460 --entries "$(($entries + $heavy))"
      --heavy-person-entries "$heavy" --jobs 2 --set caseload.youngPeoplePerSocialWorker=30
      --set rewards.days=0)  # the same journals in both databases; the "before" one has no rewards tables
env "${before_urls[@]}" $bin "${seed[@]}" --set sharing.sharesPerYoungPerson=0 >/dev/null 2>"$root/seed-before.log" \
    || { tail -5 "$root/seed-before.log" >&2; exit 1; }
$bin "${seed[@]}" --set sharing.sharesPerYoungPerson="$shares" 2>"$root/seed.log" | sed 's/^/  /'
pgc_as_postgres "${psql_super[@]}" -c "vacuum analyze" >/dev/null
pgc_as_postgres "${psql_before[@]}" -c "vacuum analyze" >/dev/null
echo "  seeded twice and analysed in $(($(date +%s) - started)) s"
heavy_query="select p.id, p.tenant_id from people p join tenants t using (tenant_id) where t.slug = 'bench-1' and p.username = 'heavy'"
read -r person tenant < <(pgc_as_postgres "${psql_super[@]}" -A -t -F ' ' -c "$heavy_query")
read -r before_person before_tenant < <(pgc_as_postgres "${psql_before[@]}" -A -t -F ' ' -c "$heavy_query")

# JournalStatements.entriesPage and .calendar, as the server prepares them; the first page
# starts at EntryPosition.start, the days at PostgresDate.earliest and .latest.
entries_page="select e.id, e.day, e.kind, e.body, e.mood, e.background, e.suggestion, e.created_at, e.updated_at, e.archived_at
    from entries e
    where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is null
      and (e.day, e.created_at, e.id) < (\$1::date, \$2::timestamptz, \$3::uuid)
      and e.day between \$4::date and \$5::date
      and (\$6::text[] is null or e.kind = any(\$6::text[]))
      and (\$7::uuid[] is null or exists (select from entry_tags et
                                         where et.tenant_id = e.tenant_id and et.entry_id = e.id and et.tag_id = any(\$7::uuid[])))
      and (\$8::text is null or e.search @@ websearch_to_tsquery('simple', \$8::text))
    order by e.day desc, e.created_at desc, e.id desc
    limit \$9"
calendar="select e.day, count(*), coalesce(array_agg(e.mood order by e.created_at, e.id) filter (where e.mood is not null), '{}')
    from entries e
    where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is null
      and e.day >= \$1 and e.day < \$2
    group by e.day"
# ArchiveStatements.archivePage, from ArchivePosition.pastNewest.
archive_page="select e.id, e.day, e.kind, e.body, e.mood, e.background, e.suggestion, e.created_at, e.updated_at, e.archived_at,
           e.archived_at
    from entries e
    where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is not null
      and (e.archived_at, e.id) < (\$1::timestamptz, \$2::uuid)
    order by e.archived_at desc, e.id desc
    limit \$3"
start="'5874897-12-31', '294276-12-31 23:59:59.999999+00', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '4713-11-24 BC', '5874897-12-31'"
next_month=$(date -d "$month-01 +1 month" +%F)

# explain_author LABEL URL PERSON TENANT: the four reads as heavy (PERSON of TENANT in the
# database of URL), custom and generic plans, each run 7 times in one session; the plans to
# $root/plans.
explain_author() {
    local mode query url=$2 person=$3 tenant=$4
    for mode in force_custom_plan force_generic_plan; do
        for query in "first page|page($start, null, null, null, 21)" "search $search|page($start, null, null, '$search', 21)" \
            "calendar $month|month('$month-01', '$next_month')" "archive|archive('294276-12-31 23:59:59.999999+00', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 21)"; do
            "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$url" >"$root/plans/$1|${query%%|*}|$mode" <<SQL
begin;
select set_config('storykeep.person_id', '$person', true), set_config('storykeep.role', 'YOUNG_PERSON', true),
       set_config('storykeep.tenant_id', '$tenant', true) \\g /dev/null
set local plan_cache_mode = $mode;
prepare page (date, timestamptz, uuid, date, date, text[], uuid[], text, int8) as $entries_page;
prepare month (date, date) as $calendar;
prepare archive (timestamptz, uuid, int8) as $archive_page;
$(for _ in 1 2 3 4 5 6 7; do echo "explain (analyze, buffers, costs off) execute ${query#*|};"; done)
rollback;
SQL
        done
    done
}

# The summary of one file of plans: the median planning and execution times of the runs after the
# first (warm), the last plan's top buffers and its scan of entries.
summary() {
    awk 'function median(a, n,   v, m, i, j, x) {
             for (i = 2; i <= n; i++) v[++m] = a[i]
             for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
             return (v[int((m + 1) / 2)] + v[int(m / 2) + 1]) / 2 }
         BEGIN { fresh = 1 }
         fresh { b = ""; s = ""; fresh = 0 }
         /Buffers:/ && !b { b = $0; sub(/^ *Buffers: */, "", b) }
         /Scan.* on entries|Scan using .* on entries/ && !s { s = $0; sub(/^ *(-> *)?/, "", s); sub(/ \(actual.*/, "", s) }
         /Planning Time/ { p[runs + 1] = $3 }
         /BitmapOr/ { or = " (a BitmapOr)" }
         /Execution Time/ { t[++runs] = $3; fresh = 1; lb = b; ls = s }
         END { printf "plan %6.3f ms, run %6.3f ms  %-16s %s%s", median(p, runs), median(t, runs), lb, ls, or }' "$1"
}

mkdir "$root/plans"
explain_author before "${before_urls[0]#DATABASE_URL=}" "$before_person" "$before_tenant"
explain_author after "$DATABASE_URL" "$person" "$tenant"
pgc_as_postgres "${psql_super[@]}" -A -t -c "select '  shares: ' || count(*) || ' (' || count(*) filter (where author_id = '$person') || ' of heavy''s, '
    || (select count(*) from entries where author_id = '$person') || ' entries)' from shares"
# What sw1 holds: each young person's shares, and the entries of the one who has the fewest.
pgc_as_postgres "${psql_super[@]}" -A -t -c "select '  sw1: ' || count(*) || ' young people, ' || sum(n) || ' shares (' || min(n) || ' to ' || max(n)
    || ' each; ' || sum(u) || ' unseen); entries per young person ' || min(e) || ' to ' || max(e)
    from (select s.author_id, count(*) as n, count(*) filter (where s.seen_at is null) as u,
                 (select count(*) from entries x where x.author_id = s.author_id) as e
          from shares s join people w on w.id = s.sharee_id and w.email = 'sw1@agency-1.example.org'
          group by s.author_id) per_young_person"

echo
echo "The author's own reads, EXPLAIN (ANALYZE, BUFFERS) as storykeep_app in heavy's context: before 0012, then after"
echo "  (median planning and execution times of runs 2 to 7 of each in one session; the last run's buffers and scan)"
for mode in force_custom_plan force_generic_plan; do
    for query in "first page" "search $search" "calendar $month" archive; do
        printf '  %-18s %-19s before %s\n' "$query" "${mode#force_}" "$(summary "$root/plans/before|$query|$mode")"
        printf '  %-18s %-19s after  %s\n' "" "" "$(summary "$root/plans/after|$query|$mode")"
    done
done
echo "  the plans after 0012, generic (the last run):"
for query in "first page" "search $search" "calendar $month" archive; do
    echo "    $query:"
    awk 'runs == 6; /Execution Time/ { runs++ }' "$root/plans/after|$query|force_generic_plan" | sed 's/^/      /'
done

# The sharee's statements, as sw1 (ShareStatements.sharedPage; JournalStatements.mediaOfEntries;
# TagStatements.tagsOfEntries), for the first page of the young person (not heavy) who shared
# the most with sw1.
read -r worker young < <(pgc_as_postgres "${psql_super[@]}" -A -t -F ' ' -c \
    "select w.id, s.author_id from people w join shares s on s.tenant_id = w.tenant_id and s.sharee_id = w.id
     join people y on y.tenant_id = s.tenant_id and y.id = s.author_id and y.username <> 'heavy'
     where w.email = 'sw1@agency-1.example.org' group by w.id, s.author_id, y.username order by count(*) desc, y.username limit 1")
echo
echo "The sharee's first page (20) and unread counts, EXPLAIN (ANALYZE, BUFFERS) as storykeep_app in sw1's context"
for mode in force_custom_plan force_generic_plan; do
    "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$DATABASE_URL" >"$root/plans/sharee|$mode" <<SQL
begin;
select set_config('storykeep.person_id', '$worker', true), set_config('storykeep.role', 'SOCIAL_WORKER', true),
       set_config('storykeep.tenant_id', '$tenant', true) \\g /dev/null
set local plan_cache_mode = $mode;
prepare shared (uuid, timestamptz, uuid, int8) as
    select e.id, e.day, e.kind, e.body, e.mood, e.background, e.suggestion, e.created_at, e.updated_at, e.archived_at,
           s.id, s.message, s.shared_at, s.seen_at, s.reply, s.replied_at, e.updated_at > s.shared_at
    from shares s join entries e on e.tenant_id = s.tenant_id and e.id = s.entry_id
    where s.tenant_id = current_tenant_id() and s.sharee_id = current_person_id() and s.author_id = \$1
      and s.unshared_at is null and e.archived_at is null and (s.shared_at, s.id) < (\$2::timestamptz, \$3::uuid)
    order by s.shared_at desc, s.id desc limit \$4;
prepare files (uuid[]) as
    select em.entry_id, m.id, m.content_type, m.byte_size, m.sha256, m.created_at
    from entry_media em join media m on m.tenant_id = em.tenant_id and m.id = em.media_id
    where em.tenant_id = current_tenant_id() and em.entry_id = any(\$1::uuid[]) order by em.entry_id, em.position;
prepare tags (uuid[]) as
    select et.entry_id, t.id, t.name from entry_tags et join tags t on t.tenant_id = et.tenant_id and t.id = et.tag_id
    where et.tenant_id = current_tenant_id() and et.entry_id = any(\$1::uuid[]) order by t.name collate "und-x-icu", t.id;
prepare unseen (uuid[]) as
    select s.author_id, count(*) from shares s
    where s.tenant_id = current_tenant_id() and s.sharee_id = current_person_id()
      and s.author_id = any(\$1::uuid[]) and s.unshared_at is null and s.seen_at is null
    group by s.author_id;
select array_agg(young_person_id) as team from assignments where adult_id = '$worker' and until is null \\gset
select array_agg(id) as ids from (select s.entry_id as id from shares s where s.sharee_id = '$worker' and s.author_id = '$young'
    order by s.shared_at desc, s.id desc limit 20) page \\gset
\\echo '-- shares with their entries (21 rows):'
explain (analyze, buffers, costs off) execute shared('$young', '294276-12-31 23:59:59.999999+00', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 21);
\\echo '-- their files:'
explain (analyze, buffers, costs off) execute files(:'ids');
\\echo '-- their tags:'
explain (analyze, buffers, costs off) execute tags(:'ids');
\\echo '-- and, for myYoungPeople, the unseen shares of each of the 30 young people (unreadShares):'
explain (analyze, buffers, costs off) execute unseen(:'team');
rollback;
SQL
    echo "  ${mode#force_}: $(grep -c 'Execution Time' "$root/plans/sharee|$mode") statements," \
        "$(awk '/Execution Time/ { printf "%s%s ms", sep, $3; sep = " + " }' "$root/plans/sharee|$mode")"
done
echo "  the plans, generic:"
sed 's/^/    /' "$root/plans/sharee|force_generic_plan"

echo
echo "Over HTTP: GraphQL at /t/bench-1/graphql as sw1 (bearer token from login), the shares of the young person above"
bench_serve 18280
BENCH_PSQL="runuser -u postgres -- ${psql_super[*]}" python3 scripts/bench-sharing.py \
    "http://127.0.0.1:$port" bench-1 sw1@agency-1.example.org seed-password "$young" heavy "$requests"
