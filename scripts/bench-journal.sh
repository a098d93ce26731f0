#!/usr/bin/env bash
# The journal's figures (issue 5), for a young person with 10,000 entries in a database of
# 1,000,000: p50 and p99 of the first page, a search and a month of the calendar, and the number of
# SQL statements each ran, at page sizes 20 and 100 (constant: no statement per entry).
#
# Starts a throw-away PostgreSQL of its own (fsync off, as the tests' clusters; pg_stat_statements
# preloaded, on this cluster only), seeds it with `storykeep seed` (timed), VACUUM ANALYZE, starts
# the server on a free loopback port and measures:
#   1. over HTTP, GraphQL with a bearer token (scripts/bench-journal.py), when the server has the
#      journal API;
#   2. in the database, the statements JournalStore runs for the same three reads, as the app role
#      with the person's context set, with pgbench (one client, prepared statements, p50 and p99 of
#      whole transactions: BEGIN, set_config, the statements, COMMIT) and EXPLAIN ANALYZE.
# Called by scripts/bench.sh (make bench; BENCH_JOURNAL=0 skips it); runs alone too.
#   BENCH_CONFIGURATION=debug|release (default release), BENCH_JOURNAL_ENTRIES (1000000),
#   BENCH_JOURNAL_HEAVY (10000), BENCH_JOURNAL_REQUESTS (500 per figure)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/bench-cluster.sh  # $configuration, $bin, bench_cluster, bench_serve

entries=${BENCH_JOURNAL_ENTRIES:-1000000}
heavy=${BENCH_JOURNAL_HEAVY:-10000}
requests=${BENCH_JOURNAL_REQUESTS:-500}
month=2026-10      # the seed's last month (--until 2026-10-31)
search=football    # a word of the seed's sentences and tags, in several languages

bench_cluster bench-journal.sh
$bin migrate >/dev/null 2>&1

echo "Journal: a young person with $(printf "%'d" "$heavy") entries among $(printf "%'d" "$entries") ($configuration build, PostgreSQL 15, fsync off)"
started=$(date +%s.%N)
$bin seed --seed 1 --tenant-prefix bench --tenants 10 --people 1000 --entries "$entries" \
    --heavy-person-entries "$heavy" --jobs 2 2>"$root/seed.log" | sed 's/^/  /'
seeded=$(date +%s.%N)
pgc_as_postgres "${psql_super[@]}" -c "vacuum analyze" >/dev/null
analysed=$(date +%s.%N)
python3 -c 'import sys; a, b, c = map(float, sys.argv[1:]); print(f"  seed: {b - a:.1f} s (storykeep seed), then VACUUM ANALYZE: {c - b:.1f} s")' \
    "$started" "$seeded" "$analysed"
pgc_as_postgres "${psql_super[@]}" -A -t -c "select '  database: ' || pg_size_pretty(pg_database_size(current_database()))
    || ', entries ' || pg_size_pretty(pg_total_relation_size('entries'))
    || ', media ' || pg_size_pretty(pg_total_relation_size('media'))"

read -r person tenant < <(pgc_as_postgres "${psql_super[@]}" -A -t -F ' ' -c \
    "select p.id, p.tenant_id from people p join tenants t using (tenant_id) where t.slug = 'bench-1' and p.username = 'heavy'")

echo
echo "Over HTTP: GraphQL at /t/bench-1/graphql as heavy (bearer token from login)"
bench_serve 18180
BENCH_PSQL="runuser -u postgres -- ${psql_super[*]}" python3 scripts/bench-journal.py \
    "http://127.0.0.1:$port" bench-1 heavy seed-password "$month" "$search" "$requests" || {
    status=$?
    [[ $status -eq 3 ]] || exit $status
}

echo
echo "In the database: JournalStore's statements as storykeep_app in heavy's context (pgbench, 1 client, prepared)"
bench_sql=$root/pgbench
mkdir -p "$bench_sql"
. scripts/bench-journal-sql.sh  # $context, $columns, $attach, page
page 20 "" >"$bench_sql/first-20.sql"
page 100 "" >"$bench_sql/first-100.sql"
page 20 "AND e.search @@ websearch_to_tsquery('simple', :q)" >"$bench_sql/search-20.sql"
page 100 "AND e.search @@ websearch_to_tsquery('simple', :q)" >"$bench_sql/search-100.sql"
printf '%s\n%s\nCOMMIT;\n' "$context" "SELECT e.day, count(*), coalesce(array_agg(e.mood ORDER BY e.created_at, e.id) FILTER (WHERE e.mood IS NOT NULL), '{}') FROM entries e WHERE e.tenant_id = current_tenant_id() AND e.author_id = current_person_id() AND e.archived_at IS NULL AND e.day >= :from::date AND e.day < :to::date GROUP BY e.day;" >"$bench_sql/calendar.sql"
chmod -R a+rX "$bench_sql"
printf '  %-44s%9s%9s%12s\n' "transaction (BEGIN, context, reads, COMMIT)" "p50 ms" "p99 ms" "statements"
for script in first-20 first-100 search-20 search-100 calendar; do
    "$PG_BIN/pgbench" -n -M prepared -c 1 -j 1 -t "$((requests * 2))" -l --log-prefix="$bench_sql/log-$script" \
        -D person="$person" -D tenant="$tenant" -D q="$search" -D from="$month-01" -D to="$(date -d "$month-01 +1 month" +%F)" \
        -f "$bench_sql/$script.sql" "$DATABASE_URL" >"$bench_sql/$script.out" 2>&1 \
        || { cat "$bench_sql/$script.out" >&2; exit 1; }
    reads=$(( $(grep -ciE '^(SELECT|WITH)' "$bench_sql/$script.sql") - 1 ))
    cat "$bench_sql"/log-"$script"* | awk '{print $3 / 1000}' | sort -n | awk -v name="$script" -v reads="$reads" '
        { v[NR] = $1 } END {
            p50 = v[int(NR * 0.5) > 0 ? int(NR * 0.5) : 1]; p99 = v[int(NR * 0.99) > 0 ? int(NR * 0.99) : 1]
            printf "  %-44s%9.2f%9.2f%12s\n", name, p50, p99, reads " + 3" }'
done
echo "  (statements: the reads, + BEGIN, set_config and COMMIT; $((requests * 2)) transactions each)"

echo
echo "EXPLAIN ANALYZE, as storykeep_app in heavy's context (execution time; top of plan)"
explain() {
    "$PG_BIN/psql" -X -q -A -t "$DATABASE_URL" <<SQL | grep -E "Execution Time|Rows Removed|^(Limit|Sort|GroupAggregate|Index|Bitmap)|->  (Index|Bitmap|Seq|Sort)" | head -6 | sed 's/^/    /'
begin;
select set_config('storykeep.person_id', '$person', true), set_config('storykeep.role', 'YOUNG_PERSON', true), set_config('storykeep.tenant_id', '$tenant', true) \\g /dev/null
explain (analyze, costs off) $1;
rollback;
SQL
}
echo "  first page (21 rows):"
explain "select $columns from entries e where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is null order by e.day desc, e.created_at desc, e.id desc limit 21"
echo "  search \"$search\" (21 rows):"
explain "select $columns from entries e where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is null and e.search @@ websearch_to_tsquery('simple', '$search') order by e.day desc, e.created_at desc, e.id desc limit 21"
echo "  search \"zebra\" (no match: the whole journal read):"
explain "select $columns from entries e where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is null and e.search @@ websearch_to_tsquery('simple', 'zebra') order by e.day desc, e.created_at desc, e.id desc limit 21"
echo "  calendar $month:"
explain "select e.day, count(*) from entries e where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is null and e.day >= '$month-01' and e.day < date '$month-01' + interval '1 month' group by e.day"
echo "  seed's progress log: $(wc -l <"$root/seed.log") lines; last: $(tail -n 1 "$root/seed.log")"
