#!/usr/bin/env bash
# Live updates at scale (issue 15): 1,000 concurrent WebSocket subscribers on one server, social
# workers subscribed to safetyAlertChanged, all assigned to one young person and each to one of
# their own; prints the time from each alert's commit to each subscriber's `next` (p50/p99), for
# the team's alerts (reaching all) and for own ones (reaching one), and the server's memory per
# connection (scripts/bench-live.py). People and sessions are written
# through SQL as the app role, not logged in: no Argon2.
#
# Starts a throw-away PostgreSQL of its own and the server on a free loopback port.
# Called by scripts/bench.sh (make bench; BENCH_LIVE=0 skips it); runs alone too.
#   BENCH_CONFIGURATION=debug|release (default release), BENCH_LIVE_WORKERS (1000), BENCH_LIVE_ROUNDS (5),
#   BENCH_LIVE_OWN (20: alerts of one worker's own young person)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/pg-cluster.sh

configuration=${BENCH_CONFIGURATION:-release}
workers=${BENCH_LIVE_WORKERS:-1000}
rounds=${BENCH_LIVE_ROUNDS:-5}
own=${BENCH_LIVE_OWN:-20}
bin=.build/$configuration/storykeep
swift build -c "$configuration" --product storykeep >&2  # never a binary older than the code
# A socket each, on both sides, and the database's: well past the usual 1,024.
ulimit -n "$(( $(ulimit -Hn) < 8192 ? $(ulimit -Hn) : 8192 ))"

pgc_throwaway
pgc_start "$root" test
$bin migrate >/dev/null 2>&1
tenants=$root/tenants
mkdir -p "$tenants"
sed -e 's/^slug: demo$/slug: bench-live/' -e '/^hosts:/,/^  - demo/d' tenants/demo.yaml >"$tenants/bench-live.yaml"
$bin tenant apply "$tenants" >/dev/null

port=$(pgc_free_port 18380 /nonexistent)
STORYKEEP_HTTP_PORT=$port STORYKEEP_LOG_LEVEL=warning $bin serve >"$root/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 200); do curl -fs "http://127.0.0.1:$port/health/ready" >/dev/null && break; sleep 0.1; done

echo "Live updates: $workers WebSocket subscribers, $rounds safety alerts reaching all of them ($configuration build, $(nproc) cores, PostgreSQL 15, fsync off)"
PSQL="$PG_BIN/psql" python3 scripts/bench-live.py "http://127.0.0.1:$port" bench-live "$server_pid" "$workers" "$rounds" "$own"
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
