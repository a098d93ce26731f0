#!/usr/bin/env bash
# The request path beside its references (issue 19): a seeded database (`storykeep seed`, 10
# tenants, 1,000,000 entries), and for each workload Storykeep over HTTP (wrk, with
# scripts/bench-requestpath.lua rotating young people's tokens), pgbench running exactly the
# statements Storykeep sent for the same requests (captured with log_statement, round trips as
# Storykeep grouped them), and the Python peer (scripts/bench-peer.py: strawberry-graphql,
# asyncpg, uvicorn; the same SQL in the same row-level security context), the systems taking
# turns in rounds; per workload the medians of req/s, p50, p99, the CPU per request of the server,
# of PostgreSQL and of the client (wrk, pgbench), and the ratios to the targets. Figures, not verdicts.
#
#   1. a young person's first journal page (`entries(first: 20)` with tags and media), 8 and 32
#      connections (target: at least 80 % of pgbench's tx/s, server CPU at most 0.3 ms a request,
#      at least 6 times the peer);
#   2. `createEntry` with one tag, 8 connections (target: at least 3 times the peer's req/s, p99
#      no worse than the peer's);
#   3. `login` at 8 connections beside the Argon2id limit of the machine (scripts/bench-argon2.c,
#      libargon2 at Config/storykeep.json's parameters, 2 threads), and the p99 of `{ me { id } }`
#      (1 connection, a request every 20 ms) alone and during the logins (target: logins at
#      least 90 % of the limit, the p99 during them under 3 times the quiet one).
#
# The server runs with jobs.enabled false (a process for requests alone: no background statement
# mixes into the capture or the CPU), and the seeded tenants' mutation limits raised (every client
# is 127.0.0.1). Readers (the journal page, `me`) and writers (`createEntry`) are different young
# people, so that the pages read stay the same while entries are written. Loads go to 127.0.0.1.
# Called by scripts/bench.sh (make bench; BENCH_REQUESTPATH=0 skips it); runs alone too:
#   scripts/bench-requestpath.sh
#   BENCH_CONFIGURATION=debug|release (default release) or BENCH_BINARY (a binary as it is),
#   BENCH_RP_TENANTS (10), BENCH_RP_PEOPLE (10000 young people), BENCH_RP_ENTRIES (1000000),
#   BENCH_RP_USERS (64 readers and 64 writers; pgbench's connections run as the first 8 of each),
#   BENCH_RP_SECONDS (20 a run), BENCH_RP_ROUNDS (3), BENCH_RP_PEER_WORKERS (uvicorn worker
#   processes of the peer, default one per core)
#   BENCH_RP_ONLY (page,create,login: the workloads to run, e.g. create alone beside
#   STORYKEEP_DATABASE_POOL_SIZE=4 to see what a smaller pool does to the write tail).
#   BENCH_RP_ROUNDS=0 prints what each sends PostgreSQL and stops. A quick try:
#   BENCH_RP_ENTRIES=50000 BENCH_RP_PEOPLE=500 BENCH_RP_SECONDS=5 BENCH_RP_ROUNDS=1 scripts/bench-requestpath.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/bench-cluster.sh  # $configuration, $bin, bench_cluster, bench_serve

tenants=${BENCH_RP_TENANTS:-10}
people=${BENCH_RP_PEOPLE:-10000}
entries=${BENCH_RP_ENTRIES:-1000000}
users=${BENCH_RP_USERS:-64}
seconds=${BENCH_RP_SECONDS:-20}
rounds=${BENCH_RP_ROUNDS:-3}
workers=${BENCH_RP_PEER_WORKERS:-$(nproc)}

command -v wrk >/dev/null || scripts/deps.sh --python >&2
python3 -c 'import strawberry, asyncpg, uvicorn, argon2, starlette' 2>/dev/null || scripts/deps.sh --python >&2

# Planning times too: the page's statements are compared, Storykeep beside pgbench.
bench_cluster bench-requestpath.sh "pg_stat_statements.track_planning = on"
$bin migrate >/dev/null 2>&1
echo "The request path: $tenants tenants, $(printf "%'d" "$people") young people, $(printf "%'d" "$entries") entries" \
    "($configuration build, PostgreSQL 15, fsync off, $(nproc) cores)"
bench_seed --tenant-prefix load --tenants "$tenants" --people "$people" --entries "$entries"
# Every client is 127.0.0.1 and a writer writes thousands of entries: the tenants' mutation
# limits (3000 a minute an address, 300 a person) would measure themselves.
pgc_as_postgres "${psql_super[@]}" -c "update tenants set config = jsonb_set(config, '{rateLimits}',
    coalesce(config->'rateLimits', '{}') || '{\"mutationsPerMinutePerPerson\": 100000, \"mutationsPerMinutePerAddress\": 1000000}')
    where slug like 'load-%'" >/dev/null

# The bare Argon2id loop, at the server's parameters.
gcc -O2 -o "$root/bench-argon2" scripts/bench-argon2.c -largon2 -lpthread

STORYKEEP_JOBS_ENABLED=false bench_serve 18480
curl -fs "http://127.0.0.1:$port/health/ready" >/dev/null || { echo "the server did not start:" >&2; tail "$root/server.log" >&2; exit 1; }

BENCH_PSQL="runuser -u postgres -- ${psql_super[*]}" python3 scripts/bench-requestpath.py \
    --base "http://127.0.0.1:$port" --server-pid "$server_pid" --bin "$bin" --root "$root" \
    --postmaster-pid "$(pgc_as_postgres head -n 1 "$root/data/postmaster.pid")" --pg-port "$PGC_PORT" \
    --argon2 "$root/bench-argon2" --pgbench "$PG_BIN/pgbench" --tenants "$tenants" --users "$users" --seconds "$seconds" --rounds "$rounds" \
    --peer-workers "$workers" --only "${BENCH_RP_ONLY:-page,create,login}"
