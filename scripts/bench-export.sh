#!/usr/bin/env bash
# The case-management export's figures (issue 14): `storykeep seed` journals in one tenant, bench-1,
# whose young people share every live entry with their social worker (the sharing module's seed)
# and whose change log notes each (the export module's seed), BENCH_EXPORT_ENTRIES entries in all
# (about 100,000 of them shared); then over HTTP (scripts/bench-export.py), as a case management
# system with a client of its own: the whole feed from a cursor of zero with each entry's document
# (entries per second; target 5,000/s), and one poll that finds nothing (p50/p99; target p99 under
# 5 ms), with the SQL statements of each (pg_stat_statements) and the plan of the feed's statement.
# A throw-away PostgreSQL of its own (fsync off) and a server on a free loopback port. Called by
# scripts/bench.sh (make bench; BENCH_EXPORT=0 skips it); runs alone too.
# BENCH_CONFIGURATION=debug|release (default release), BENCH_EXPORT_ENTRIES (105000),
# BENCH_EXPORT_POLLS (1000).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/bench-cluster.sh  # $configuration, $bin, bench_cluster, bench_serve

entries=${BENCH_EXPORT_ENTRIES:-105000}
polls=${BENCH_EXPORT_POLLS:-1000}

bench_cluster bench-export.sh
$bin migrate >/dev/null 2>&1

echo "Export: the feed from zero and an empty poll ($configuration build, PostgreSQL 15, fsync off, $(nproc) cores)"
started=$(date +%s)
$bin seed --seed 1 --tenant-prefix bench --tenants 1 --people 60 --days 730 --entries "$entries" --jobs 2 \
    --set caseload.youngPeoplePerSocialWorker=30 --set sharing.sharesPerYoungPerson=100000 --set rewards.days=0 \
    2>"$root/seed.log" | sed 's/^/  /'
pgc_as_postgres "${psql_super[@]}" -c "vacuum analyze" >/dev/null
echo "  seeded and analysed in $(($(date +%s) - started)) s; $(pgc_as_postgres "${psql_super[@]}" -A -t -c \
    "select count(*) || ' changes noted, ' || count(distinct entry_id) || ' entries' from export_changes")"

bench_serve 18380
BENCH_PSQL="runuser -u postgres -- ${psql_super[*]}" python3 scripts/bench-export.py \
    "http://127.0.0.1:$port" bench-1 admin@agency-1.example.org seed-password "$polls"

# The feed's statement (ExportStatements.changes) past the end, as the client's context runs it.
read -r tenant client < <(pgc_as_postgres "${psql_super[@]}" -A -t -F ' ' -c \
    "select c.tenant_id, c.id from cms_clients c join tenants t using (tenant_id) where t.slug = 'bench-1' limit 1")
read -r xid sequence < <(pgc_as_postgres "${psql_super[@]}" -A -t -F ' ' -c \
    "select xid, sequence from export_changes order by xid desc, sequence desc limit 1")
echo "  the feed's statement past the end, EXPLAIN (ANALYZE, BUFFERS) as storykeep_app in the client's context, generic plan:"
"$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$DATABASE_URL" <<SQL | sed 's/^/    /'
begin;
select set_config('storykeep.tenant_id', '$tenant', true), set_config('storykeep.role', 'CMS', true),
       set_config('storykeep.login_name', '$client', true) \\g /dev/null
set local plan_cache_mode = force_generic_plan;
prepare changes (text, bigint, int8) as
    select c.xid::text, c.sequence, c.entry_id from export_changes c
    where c.tenant_id = current_tenant_id()
      and (c.xid, c.sequence) > (\$1::text::xid8, \$2::bigint)
      and c.xid < pg_snapshot_xmin(pg_current_snapshot())
    order by c.xid, c.sequence
    limit \$3;
execute changes('$xid', $sequence, 501) \\g /dev/null
explain (analyze, buffers, costs off) execute changes('$xid', $sequence, 501);
rollback;
SQL
