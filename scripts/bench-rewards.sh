#!/usr/bin/env bash
# What rewards cost createEntry (issue 12): the p50, p90 and p99 of createEntry over HTTP in two
# tenants that differ only in the rewards module (the demo's file, once with `rewards` and once
# without), measured in the same run, their requests interleaved so that the machine's load falls
# on both alike; and the SQL statements one createEntry runs in each, from pg_stat_statements.
# Every entry pays (the rule's daily limit raised out of reach): the dearest path, where the
# day's counter and the ledger are written each time.
#
# Starts a throw-away PostgreSQL of its own (fsync off, as the tests' clusters; pg_stat_statements
# preloaded on this cluster only) and the server on a free loopback port.
# Called by scripts/bench.sh (make bench; BENCH_REWARDS=0 skips it); runs alone too.
#   BENCH_CONFIGURATION=debug|release (default release), BENCH_REWARDS_REQUESTS (1000 per tenant)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/pg-cluster.sh

configuration=${BENCH_CONFIGURATION:-release}
requests=${BENCH_REWARDS_REQUESTS:-1000}
bin=.build/$configuration/storykeep
swift build -c "$configuration" --product storykeep >&2  # never a binary older than the code

pgc_throwaway

pgc_init "$root"
pgc_as_postgres tee -a "$root/data/postgresql.conf" >/dev/null <<'CONF'
# bench-rewards.sh: statement counts per request
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = top
pg_stat_statements.track_utility = on
CONF
pgc_start "$root" test
psql_super=("$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$root/run" -p "$PGC_PORT" -U postgres -d "$PGC_DATABASE")
pgc_as_postgres "${psql_super[@]}" -c "create schema bench_stats; create extension pg_stat_statements schema bench_stats" >/dev/null
$bin migrate >/dev/null 2>&1

# The two tenants: the demo's file, with and without rewards; no hosts; every new entry pays.
tenants=$root/tenants
mkdir -p "$tenants"
for variant in on off; do
    sed -e "s/^slug: demo$/slug: bench-rewards-$variant/" -e '/^hosts:/,/^  - demo/d' \
        -e 's/{ id: new-entry, on: entryCreated, stars: 2, dailyLimit: 3 }/{ id: new-entry, on: entryCreated, stars: 2, dailyLimit: 1000000 }/' \
        tenants/demo.yaml >"$tenants/bench-rewards-$variant.yaml"
done
sed -i 's/^modules: \[tags, rewards, /modules: [tags, /' "$tenants/bench-rewards-off.yaml"
grep -q 'dailyLimit: 1000000' "$tenants/bench-rewards-on.yaml" && ! grep -q '^modules:.*rewards' "$tenants/bench-rewards-off.yaml" \
    || { echo "bench-rewards: tenants/demo.yaml changed; adapt the bench's copies" >&2; exit 1; }
$bin tenant apply "$tenants" >/dev/null
password="bench rewards writer password"
for variant in on off; do
    printf '%s\n' "$password" | $bin user create --tenant "bench-rewards-$variant" --role YOUNG_PERSON --username bench-writer \
        --password-stdin --if-absent >/dev/null
done

port=$(pgc_free_port 18280 /nonexistent)
STORYKEEP_HTTP_PORT=$port STORYKEEP_LOG_LEVEL=warning $bin serve >"$root/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 200); do curl -fs "http://127.0.0.1:$port/health/ready" >/dev/null && break; sleep 0.1; done

echo "Rewards: what they add to createEntry ($configuration build, PostgreSQL 15, fsync off)"
BENCH_PSQL="runuser -u postgres -- ${psql_super[*]}" python3 scripts/bench-rewards.py \
    "http://127.0.0.1:$port" bench-rewards-on bench-rewards-off bench-writer "$password" "$requests"
