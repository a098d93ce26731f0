#!/usr/bin/env bash
# A throw-away replicated PostgreSQL 15 pair on loopback, for the failover tests (issue 18): a
# primary and a synchronous streaming standby (pg_basebackup -R; the primary's
# synchronous_standby_names names it, synchronous_commit stays on, so a COMMIT returns only once
# the standby has the WAL on disk). Failover is PostgreSQL's own: kill the primary, promote the
# standby (`pg_ctl promote`); Storykeep's multi-host URL with target_session_attrs=read-write
# finds whichever answers as primary.
#
#   eval "$(scripts/pg-ha.sh start)"   starts the pair under /tmp/storykeep-ha.*, prints the exports:
#       STORYKEEP_HA_ROOT, DATABASE_URL and STORYKEEP_OWNER_DATABASE_URL (both hosts, read-write
#       wanted), STORYKEEP_DATABASE_READ_URL (the standby), STORYKEEP_HA_PRIMARY_PORT,
#       STORYKEEP_HA_STANDBY_PORT
#   scripts/pg-ha.sh kill-primary ROOT      kill -9 the primary's postmaster and every backend (a crash)
#   scripts/pg-ha.sh promote ROOT           promote the standby; returns once it takes writes
#   scripts/pg-ha.sh restart-primary ROOT   restart the primary at once (-m immediate), as after a crash
#   scripts/pg-ha.sh psql ROOT primary|standby [psql arguments]   psql as the superuser on that node
#   scripts/pg-ha.sh stop ROOT              stop both and remove ROOT
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/pg-cluster.sh"

# The standby's name, as the primary's synchronous_standby_names lists it (its walreceiver's
# application_name comes from cluster_name).
standby_name=storykeep_standby

port_of() { sed -n "s/^$2=//p" "$1/ports"; }

node_psql() {
    local root=$1 node=$2
    shift 2
    pgc_as_postgres "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$root/$node/run" -p "$(port_of "$root" "$node")" \
        -U postgres -d "$PGC_DATABASE" "$@"
}

check_root() {
    case "${1:-}" in /tmp/storykeep-ha.*) ;; *) echo "pg-ha: ${1:-(none)} is not a pair of this script's" >&2; exit 1 ;; esac
}

# A libpq URL of ROLE (storykeep_app, storykeep_owner) with PASSWORD for the given host:port list.
url() { printf 'postgresql://%s:%s@%s/%s%s' "$1" "$2" "$3" "$PGC_DATABASE" "${4:-}"; }

start() {
    local root primary_port standby_port
    root=$(mktemp -d /tmp/storykeep-ha.XXXXXX)
    chmod 755 "$root"
    mkdir -p "$root/primary" "$root/standby/run"
    [[ $(id -u) -eq 0 ]] && chown postgres: "$root/primary" "$root/standby" "$root/standby/run"

    pgc_init "$root/primary"
    pgc_as_postgres tee -a "$root/primary/data/pg_hba.conf" >/dev/null <<<'local   replication  postgres            peer'
    pgc_launch "$root/primary" ha
    primary_port=$PGC_PORT
    pgc_provision "$root/primary"

    pgc_as_postgres "$PG_BIN/pg_basebackup" -D "$root/standby/data" -h "$root/primary/run" -p "$primary_port" -U postgres \
        -R -X stream -c fast >"$root/standby/basebackup.log" 2>&1 || { cat "$root/standby/basebackup.log" >&2; return 1; }
    # The standby retries a lost primary every 200 ms (default 5 s): after the primary restarts,
    # its commits wait for the standby to be back.
    pgc_launch "$root/standby" ha "-c cluster_name=$standby_name -c wal_retrieve_retry_interval=200ms"
    standby_port=$PGC_PORT
    printf 'primary=%s\nstandby=%s\n' "$primary_port" "$standby_port" >"$root/ports"

    # Only now, and only on the primary (ALTER SYSTEM writes its postgresql.auto.conf, which the
    # standby's copy predates): commits wait for the standby from here on, and a promoted standby
    # waits for no one.
    node_psql "$root" primary -c "ALTER SYSTEM SET synchronous_standby_names = '$standby_name'" -c "SELECT pg_reload_conf()" >/dev/null
    local attempt
    for attempt in $(seq 100); do
        [[ $(node_psql "$root" primary -c "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'") == 1 ]] && break
        sleep 0.1
    done
    [[ $attempt -lt 100 ]] || { echo "pg-ha: the standby did not become synchronous; its log:" >&2; tail -n 20 "$root/standby/postgres.log" >&2; return 1; }

    local owner app hosts
    owner=$(sed -n 's/^OWNER_PASSWORD=//p' "$root/primary/credentials")
    app=$(sed -n 's/^APP_PASSWORD=//p' "$root/primary/credentials")
    hosts="127.0.0.1:$primary_port,127.0.0.1:$standby_port"
    # connect_timeout bounds a connection attempt to a host that does not answer at all.
    printf 'export STORYKEEP_HA_ROOT=%q\n' "$root"
    printf 'export DATABASE_URL=%q\n' "$(url storykeep_app "$app" "$hosts" '?target_session_attrs=read-write&connect_timeout=2')"
    printf 'export STORYKEEP_OWNER_DATABASE_URL=%q\n' "$(url storykeep_owner "$owner" "$hosts" '?target_session_attrs=read-write&connect_timeout=2')"
    printf 'export STORYKEEP_DATABASE_READ_URL=%q\n' "$(url storykeep_app "$app" "127.0.0.1:$standby_port" '?connect_timeout=2')"
    printf 'export STORYKEEP_HA_PRIMARY_PORT=%s\n' "$primary_port"
    printf 'export STORYKEEP_HA_STANDBY_PORT=%s\n' "$standby_port"
}

# The postmaster of NODE and its children, by process id.
node_processes() {
    local pid
    pid=$(head -n 1 "$1/$2/data/postmaster.pid" 2>/dev/null) || return 0
    kill -0 "$pid" 2>/dev/null || return 0
    printf '%s %s' "$pid" "$(pgrep -P "$pid" | tr '\n' ' ')"
}

case "${1:-}" in
start)
    start
    ;;
kill-primary)
    check_root "${2:-}"
    pids=$(node_processes "$2" primary)
    [[ -n $pids ]] || { echo "pg-ha: the primary is not running" >&2; exit 1; }
    kill -9 $pids
    ;;
promote)
    check_root "${2:-}"
    pgc_as_postgres "$PG_BIN/pg_ctl" -D "$2/standby/data" -w -t 30 promote >/dev/null
    ;;
restart-primary)
    check_root "${2:-}"
    pgc_as_postgres "$PG_BIN/pg_ctl" -D "$2/primary/data" -l "$2/primary/postgres.log" -w -t 30 -m immediate restart >/dev/null
    ;;
psql)
    check_root "${2:-}"
    node_psql "$2" "${3:?primary or standby}" "${@:4}"
    ;;
stop)
    check_root "${2:-}"
    for node in standby primary; do
        pids=$(node_processes "$2" "$node")
        [[ -z $pids ]] || pgc_as_postgres "$PG_BIN/pg_ctl" -D "$2/$node/data" -m immediate -w stop >/dev/null || kill -9 $pids
    done
    rm -rf "$2"
    ;;
*)
    echo "usage: $0 start | kill-primary ROOT | promote ROOT | restart-primary ROOT | psql ROOT primary|standby [ARGS] | stop ROOT" >&2
    exit 2
    ;;
esac
