#!/usr/bin/env bash
# The mixed load (issue 18): `storykeep seed` data in a cluster of its own, the server on a free
# loopback port, and scripts/bench-load.py's clients: journal first page, search, calendar,
# createEntry, login and a social worker's shared entries, mixed, at 8, 32 and 64 kept-alive
# connections; per operation requests/s, p50 and p99, the server's RSS and the load average. Then
# the journal's first page alone over HTTP (wrk, scripts/bench-requestpath.lua) beside pgbench
# running the same SQL transaction (scripts/bench-journal-sql.sh, prepared) as the same young
# person at the same concurrency, and their ratio (target: HTTP at 50 % of pgbench or more). Both
# clients are C programs: a Python client would take a good part of the two cores from the server.
# Called by scripts/bench.sh (make bench; BENCH_LOAD=0 skips it); runs alone too.
#   scripts/bench-load.sh            the load at each level
#   scripts/bench-load.sh --soak M   make soak: the mix at BENCH_LOAD_SOAK_CONNECTIONS (32) for M
#                                    minutes, p99 and RSS each minute, the start's and the end's
#   BENCH_CONFIGURATION=debug|release (default release), BENCH_LOAD_TENANTS (10),
#   BENCH_LOAD_PEOPLE (10000 young people), BENCH_LOAD_ENTRIES (1000000), BENCH_LOAD_LEVELS
#   (8,32,64), BENCH_LOAD_SECONDS (20 at each level)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/bench-cluster.sh  # $configuration, $bin, bench_cluster, bench_serve

soak_minutes=
[[ ${1:-} == --soak ]] && soak_minutes=${2:?--soak takes minutes}
tenants=${BENCH_LOAD_TENANTS:-10}
people=${BENCH_LOAD_PEOPLE:-10000}
entries=${BENCH_LOAD_ENTRIES:-1000000}
levels=${BENCH_LOAD_LEVELS:-8,32,64}
seconds=${BENCH_LOAD_SECONDS:-20}
password=seed-password

bench_cluster bench-load.sh
$bin migrate >/dev/null 2>&1
echo "Mixed load: $tenants tenants, $(printf "%'d" "$people") young people, $(printf "%'d" "$entries") entries ($configuration build, PostgreSQL 15, fsync off, $(nproc) cores)"
bench_seed --tenant-prefix load --tenants "$tenants" --people "$people" --entries "$entries" --heavy-person-entries 1000
bench_serve 18280
export BENCH_PSQL="runuser -u postgres -- ${psql_super[*]}"
load=(python3 scripts/bench-load.py "http://127.0.0.1:$port" load "$tenants" "$password" "$server_pid")

if [[ -n $soak_minutes ]]; then
    connections=${BENCH_LOAD_SOAK_CONNECTIONS:-32}
    echo "Soak: the mix at $connections connections for $soak_minutes minutes"
    "${load[@]}" soak "$connections" "$((soak_minutes * 60))" 60
    exit
fi

echo
echo "The mix at $levels connections"
"${load[@]}" mixed "$levels" "$seconds"

echo
echo "The journal's first page (20 entries, tags, files) as heavy of load-1 (1,000 entries): HTTP beside pgbench"
read -r person tenant < <(pgc_as_postgres "${psql_super[@]}" -A -t -F ' ' -c \
    "select p.id, p.tenant_id from people p join tenants t using (tenant_id) where t.slug = 'load-1' and p.username = 'heavy'")
. scripts/bench-journal-sql.sh  # $context, $columns, $attach, page
page 20 "" >"$root/first-20.sql"
chmod a+r "$root/first-20.sql"
"${load[@]}" journal-requests "$root/first-page.requests"
# wrk_page CONNECTIONS SECONDS: "RPS P50 P99 ERRORS" of the page over HTTP.
wrk_page() {
    wrk -t2 -c"$1" -d"$2"s --timeout 10s --latency -s scripts/bench-requestpath.lua "http://127.0.0.1:$port" \
        -- "$root/first-page.requests" | sed -n 's/^RESULT .* rps=\([^ ]*\) p50_ms=\([^ ]*\) p99_ms=\([^ ]*\) errors=\([^ ]*\)$/\1 \2 \3 \4/p'
}
printf '  %-13s%12s%9s%9s%14s%8s\n' connections "HTTP req/s" "p50 ms" "p99 ms" "pgbench tps" ratio
for level in ${levels//,/ }; do  # one level at a time: HTTP, then pgbench, never both at once
    wrk_page "$level" 3 >/dev/null  # warm-up
    read -r rps p50 p99 errors < <(wrk_page "$level" "$seconds")
    tps=$("$PG_BIN/pgbench" -n -M prepared -c "$level" -j 2 -T "$seconds" -D person="$person" -D tenant="$tenant" \
        -f "$root/first-20.sql" "$DATABASE_URL" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
    printf '  %-13s%12s%9s%9s%14.1f%7.0f %%%s\n' "$level" "$rps" "$p50" "$p99" "$tps" \
        "$(python3 -c "print($rps / $tps * 100)")" "$([[ $errors == 0 ]] || echo ", $errors errors")"
done
echo "  server RSS $(($(awk '/VmRSS/ {print $2}' /proc/$server_pid/status) / 1024)) MB; load $(cut -d' ' -f1-3 /proc/loadavg)"
