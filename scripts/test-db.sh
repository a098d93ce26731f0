#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for development runs of the tests.
#   eval "$(scripts/test-db.sh start)"   starts one under /tmp and prints the exports
#                                         (DATABASE_URL, STORYKEEP_OWNER_DATABASE_URL, STORYKEEP_TEST_CLUSTER)
#   scripts/test-db.sh migrate           runs `storykeep migrate` against it (after swift build)
#   scripts/test-db.sh psql ROOT [ARGS]  psql as the superuser on it (unaligned, tuples only), e.g.
#                                         for what the application's roles may not do (tablespaces)
#   scripts/test-db.sh stop [ROOT]       stops and removes it (default: $STORYKEEP_TEST_CLUSTER)
# `make test` uses the same functions with a trap that removes the cluster on exit.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/pg-cluster.sh"

case "${1:-}" in
start)
    # Under /tmp, not $TMPDIR: the postgres user must be able to reach it.
    root=$(mktemp -d /tmp/storykeep-pg.XXXXXX)
    chmod 755 "$root"
    pgc_start "$root" test >&2
    printf 'export STORYKEEP_TEST_CLUSTER=%q\n' "$root"
    printf 'export DATABASE_URL=%q\n' "$DATABASE_URL"
    printf 'export STORYKEEP_OWNER_DATABASE_URL=%q\n' "$STORYKEEP_OWNER_DATABASE_URL"
    ;;
migrate)
    : "${STORYKEEP_OWNER_DATABASE_URL:?run eval \"\$(scripts/test-db.sh start)\" first}"
    "$here/../.build/debug/storykeep" migrate
    ;;
psql)
    root=${2:?which cluster? give its folder}
    case "$root" in /tmp/storykeep-pg.*) ;; *) echo "test-db: $root is not a throw-away cluster" >&2; exit 1 ;; esac
    pgc_as_postgres "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$root/run" -p "$(sed -n 4p "$root/data/postmaster.pid")" \
        -U postgres -d "$PGC_DATABASE" "${@:3}"
    ;;
stop)
    root=${2:-${STORYKEEP_TEST_CLUSTER:?which cluster? give its folder}}
    case "$root" in /tmp/storykeep-pg.*) ;; *) echo "test-db: $root is not a throw-away cluster" >&2; exit 1 ;; esac
    pgc_stop "$root"
    rm -rf "$root"
    ;;
*)
    echo "usage: $0 start | migrate | psql ROOT [ARGS] | stop [ROOT]" >&2
    exit 2
    ;;
esac
