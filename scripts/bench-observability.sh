#!/usr/bin/env bash
# What metrics and tracing cost (issue 17): the cached feed request (a young person's journal,
# `entries(first: 20)`, its document in the cache) against two servers on one database that differ
# only in `metrics.enabled` and `tracing.enabled`: one as deployed (Prometheus metrics, the trace
# middleware, no-op spans: no tracer is bootstrapped), one with both off. Their requests are
# interleaved in rounds, so that the machine's load falls on both alike; medians, and the extra
# the "on" server takes (target: under 5 %).
#
# Starts a throw-away PostgreSQL of its own and the two servers on free loopback ports.
# Called by scripts/bench.sh (make bench; BENCH_OBSERVABILITY=0 skips it); runs alone too.
#   BENCH_CONFIGURATION=debug|release (default release), BENCH_OBSERVABILITY_ROUNDS (20),
#   BENCH_OBSERVABILITY_REQUESTS (200 per server and round)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/pg-cluster.sh

configuration=${BENCH_CONFIGURATION:-release}
bin=.build/$configuration/storykeep
[[ -x $bin ]] || swift build -c "$configuration" --product storykeep >&2

pgc_throwaway
pgc_start "$root" test
$bin migrate >/dev/null 2>&1
$bin tenant apply tenants/ >/dev/null
password="bench feed reader password"
printf '%s\n' "$password" | $bin user create --tenant demo --role YOUNG_PERSON --username bench-feed \
    --password-stdin --if-absent >/dev/null

pids=()
trap 'kill "${pids[@]}" 2>/dev/null; pgc_throwaway_cleanup' EXIT
ports=()
for variant in on off; do
    port=$(pgc_free_port $((18380 + ${#ports[@]} * 10)) /nonexistent)
    enabled=$([[ $variant == on ]] && echo true || echo false)
    STORYKEEP_HTTP_PORT=$port STORYKEEP_LOG_LEVEL=warning STORYKEEP_JOBS_ENABLED=false \
        STORYKEEP_METRICS_ENABLED=$enabled STORYKEEP_TRACING_ENABLED=$enabled \
        $bin serve >"$root/server-$variant.log" 2>&1 &
    pids+=($!)
    ports+=("$port")
    for _ in $(seq 200); do curl -fs "http://127.0.0.1:$port/health/ready" >/dev/null && break; sleep 0.1; done
done
# The "on" server answers /metrics; the "off" one does not have it.
curl -fs "http://127.0.0.1:${ports[0]}/metrics" | grep -q '^storykeep_' || { echo "bench-observability: no metrics on the on server" >&2; exit 1; }
[[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${ports[1]}/metrics") == 404 ]] \
    || { echo "bench-observability: the off server has metrics" >&2; exit 1; }

echo "Metrics and tracing: what they add to the cached feed request ($configuration build, $(nproc) cores)"
python3 scripts/bench-observability.py --on "http://127.0.0.1:${ports[0]}" --off "http://127.0.0.1:${ports[1]}" \
    --tenant demo --user bench-feed --password "$password" \
    --rounds "${BENCH_OBSERVABILITY_ROUNDS:-20}" --requests "${BENCH_OBSERVABILITY_REQUESTS:-200}"
