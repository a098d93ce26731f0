# What bench-journal.sh and bench-sharing.sh set up alike: the storykeep binary, a throw-away
# cluster that counts the statements of each request, and the server on a free loopback port.
# Source it from the repository's root: it sources scripts/pg-cluster.sh, and leaves in $bin the
# binary of the configuration BENCH_CONFIGURATION (debug|release, default release; in
# $configuration), built from the checkout as it is (swift build: a few seconds when nothing
# changed), so that a benchmark never measures a binary older than the code beside it.
# BENCH_BINARY names another binary to measure as it is (a copy of an earlier build, to compare
# before and after a change; give it its migrations with STORYKEEP_DATABASE_MIGRATIONS_DIRECTORY).

. scripts/pg-cluster.sh
configuration=${BENCH_CONFIGURATION:-release}
if [[ -n ${BENCH_BINARY:-} ]]; then
    bin=$BENCH_BINARY
    configuration="$configuration, $bin"
else
    bin=.build/$configuration/storykeep
    swift build -c "$configuration" --product storykeep >&2
fi

# bench_cluster NAME [SETTING...]: a throw-away cluster (pgc_throwaway, in $root) with
# pg_stat_statements preloaded (top-level statements and utility commands tracked, then each
# SETTING, a line of postgresql.conf), in schema bench_stats; started and provisioned (not
# migrated). Leaves in psql_super the psql command line of the superuser (run it through
# pgc_as_postgres). NAME (the calling script's) heads the settings' comment.
bench_cluster() {
    local name=$1
    shift
    pgc_throwaway
    pgc_init "$root"
    printf '%s\n' "# $name: statement counts per request" "shared_preload_libraries = 'pg_stat_statements'" \
        "pg_stat_statements.track = top" "pg_stat_statements.track_utility = on" "$@" \
        | pgc_as_postgres tee -a "$root/data/postgresql.conf" >/dev/null
    pgc_start "$root" test
    psql_super=("$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$root/run" -p "$PGC_PORT" -U postgres -d "$PGC_DATABASE")
    pgc_as_postgres "${psql_super[@]}" -c "create schema bench_stats; create extension pg_stat_statements schema bench_stats" >/dev/null
}

# bench_serve FROM: starts the server on the first free port from FROM (in $port, its process
# in $server_pid, which pgc_throwaway stops at exit; its log in $root/server.log) and waits up to
# 20 s until it is ready.
bench_serve() {
    port=$(pgc_free_port "$1" /nonexistent)
    STORYKEEP_HTTP_PORT=$port STORYKEEP_LOG_LEVEL=warning $bin serve >"$root/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 200); do curl -fs "http://127.0.0.1:$port/health/ready" >/dev/null && break; sleep 0.1; done
}

# bench_seed ARG...: `storykeep seed --seed 1 --jobs 2 ARG...` into the cluster (its log in
# $root/seed.log; its last line printed, the log's end on a failure), then VACUUM ANALYZE; says
# how long both took.
bench_seed() {
    local started
    started=$(date +%s)
    $bin seed --seed 1 --jobs 2 "$@" 2>"$root/seed.log" | tail -n 1 | sed 's/^/  /' \
        || { tail -5 "$root/seed.log" >&2; exit 1; }
    pgc_as_postgres "${psql_super[@]}" -c "vacuum analyze" >/dev/null
    echo "  seeded and analysed in $(($(date +%s) - started)) s"
}
