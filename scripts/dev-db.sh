#!/usr/bin/env bash
# The project-local PostgreSQL cluster of `make run`, kept between runs.
#   scripts/dev-db.sh start    start it (or reuse it if it runs), write .data/storykeep.env
#   scripts/dev-db.sh stop     stop it (the data stays)
#   scripts/dev-db.sh status   say where it is and whether it runs
# It lives in .data/pg, unless the postgres user cannot reach .data (a parent folder closed to
# others) or the socket path would be too long: then in /var/lib/storykeep/clusters/<hash of
# this checkout's path>, and .data/pg.location says so.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
. "$here/pg-cluster.sh"

mkdir -p "$project/.data"
chmod 755 "$project/.data"

cluster_root() {
    if [[ -f "$project/.data/pg.location" ]]; then
        sed -n 's/^cluster=//p' "$project/.data/pg.location"
        return
    fi
    local local_root="$project/.data/pg"
    # A Unix socket path holds at most 107 bytes: ROOT/run/.s.PGSQL.NNNNN must fit.
    if pgc_reachable "$project/.data" && (( ${#local_root} < 80 )); then
        printf '%s' "$local_root"
        return
    fi
    local elsewhere
    elsewhere="/var/lib/storykeep/clusters/$(printf '%s' "$project" | sha256sum | cut -c1-16)"
    mkdir -p "$elsewhere"
    chmod 755 /var/lib/storykeep /var/lib/storykeep/clusters
    cat >"$project/.data/pg.location" <<LOCATION
# The postgres user cannot reach $project/.data (or its path is too long for a socket),
# so this checkout's PostgreSQL cluster is kept here instead:
cluster=$elsewhere
LOCATION
    printf '%s' "$elsewhere"
}

root=$(cluster_root)
case "${1:-}" in
start)
    pgc_start "$root" dev
    cat >"$project/.data/storykeep.env" <<ENV
# Written by scripts/dev-db.sh: the project-local cluster in $root.
# storykeep commands run from the checkout read this file; the environment overrides it.
DATABASE_URL=$DATABASE_URL
STORYKEEP_OWNER_DATABASE_URL=$STORYKEEP_OWNER_DATABASE_URL
ENV
    chmod 600 "$project/.data/storykeep.env"
    echo "PostgreSQL 15 in $root, port $PGC_PORT (connection strings in .data/storykeep.env)"
    ;;
stop)
    pgc_stop "$root"
    echo "PostgreSQL in $root stopped (data kept)"
    ;;
status)
    if pgc_running "$root"; then echo "running: $root"; else echo "stopped: $root"; fi
    ;;
*)
    echo "usage: $0 start | stop | status" >&2
    exit 2
    ;;
esac
