# A PostgreSQL 15 cluster of Storykeep's own, kept in one folder ("the root"):
#   ROOT/data          the cluster (initdb), owned by postgres
#   ROOT/run           its Unix socket directory
#   ROOT/postgres.log  the postmaster's output
#   ROOT/credentials   the generated passwords of storykeep_owner and storykeep_app
# Source this file, then call pgc_start ROOT dev|test and pgc_stop ROOT.
# pgc_start leaves the connection strings in DATABASE_URL (the app role) and
# STORYKEEP_OWNER_DATABASE_URL (the owner role, for migrations and tenant provisioning).
# PostgreSQL refuses to run as root, so as root everything runs as the postgres user; every
# parent of ROOT must then be searchable by postgres (the callers choose ROOT accordingly).

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PGC_DATABASE=storykeep

pgc_as_postgres() {
    if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# True when the postgres user can reach DIR (every parent searchable).
pgc_reachable() {
    pgc_as_postgres test -x "$1"
}

pgc_random_hex() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }

# Percent-encodes a socket directory for the host part of a postgresql:// URL.
pgc_url_encode() {
    local s=${1//%/%25}
    s=${s//\//%2F}; s=${s// /%20}; s=${s//:/%3A}; s=${s//@/%40}; s=${s//\?/%3F}; s=${s//#/%23}
    printf '%s' "$s"
}

pgc_port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Prints a free TCP port at or after $1 (skipping ports whose socket file exists in $2).
pgc_free_port() {
    local port=$1
    while pgc_port_in_use "$port" || [[ -e "$2/.s.PGSQL.$port" ]]; do
        port=$((port + 1))
    done
    printf '%s' "$port"
}

pgc_running() {
    [[ -f "$1/data/PG_VERSION" ]] && pgc_as_postgres "$PG_BIN/pg_ctl" -D "$1/data" status >/dev/null 2>&1
}

pgc_init() {
    local root=$1
    mkdir -p "$root/run"
    [[ $(id -u) -eq 0 ]] && chown postgres: "$root" "$root/run"
    pgc_as_postgres "$PG_BIN/initdb" -D "$root/data" -U postgres --no-locale -E UTF8 \
        --auth-local=peer --auth-host=scram-sha-256 >"$root/initdb.log" 2>&1 \
        || { cat "$root/initdb.log" >&2; return 1; }
    # postgres itself by peer (the set-up below); the Storykeep roles by password, socket or loopback.
    pgc_as_postgres tee "$root/data/pg_hba.conf" >/dev/null <<'HBA'
# TYPE  DATABASE  USER      ADDRESS        METHOD
local   all       postgres                 peer
local   all       all                      scram-sha-256
host    all       all       127.0.0.1/32   scram-sha-256
host    all       all       ::1/128        scram-sha-256
HBA
}

# Starts the cluster on a free port unless it already runs; sets PGC_PORT. EXTRA (optional) are
# more `-c name=value` settings, after (and so over) the flavour's.
pgc_launch() {
    local root=$1 flavour=$2 extra=${3:-} base attempt options
    if pgc_running "$root"; then
        PGC_PORT=$(sed -n 4p "$root/data/postmaster.pid")
        return 0
    fi
    options="-c listen_addresses=127.0.0.1 -k $root/run"
    if [[ $flavour == test ]]; then
        # Throw-away clusters only: durability is not wanted, speed is; tests run in parallel,
        # each with its own pool (Swift Testing runs every test at once: leave room for all their connections).
        options+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=1000"
        base=$((20000 + RANDOM % 20000))
    elif [[ $flavour == ha ]]; then
        # The replicated pair of scripts/pg-ha.sh: throw-away too, but commits wait for the
        # standby (synchronous_commit stays on). fsync=off keeps what a killed process wrote in
        # the page cache, which a kill -9 does not lose (a power cut would).
        options+=" -c fsync=off -c full_page_writes=off -c max_connections=200"
        base=$((20000 + RANDOM % 20000))
    else
        base=5433
    fi
    for attempt in 1 2 3 4 5; do
        PGC_PORT=$(pgc_free_port "$base" "$root/run")
        if pgc_as_postgres "$PG_BIN/pg_ctl" -D "$root/data" -l "$root/postgres.log" -w -t 60 \
            -o "-p $PGC_PORT $options $extra" start >/dev/null; then
            return 0
        fi
        base=$((PGC_PORT + 1))
    done
    echo "pg-cluster: could not start PostgreSQL in $root; its log:" >&2
    tail -n 30 "$root/postgres.log" >&2
    return 1
}

# Creates (or updates) the two roles and the database, idempotently.
pgc_provision() {
    local root=$1 owner_password app_password
    if [[ ! -f "$root/credentials" ]]; then
        (umask 077; printf 'OWNER_PASSWORD=%s\nAPP_PASSWORD=%s\n' "$(pgc_random_hex)" "$(pgc_random_hex)" >"$root/credentials")
    fi
    owner_password=$(sed -n 's/^OWNER_PASSWORD=//p' "$root/credentials")
    app_password=$(sed -n 's/^APP_PASSWORD=//p' "$root/credentials")
    pgc_as_postgres "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$root/run" -p "$PGC_PORT" -U postgres -d postgres \
        -v owner_password="$owner_password" -v app_password="$app_password" -v database="$PGC_DATABASE" <<'SQL' >/dev/null
SELECT 'CREATE ROLE storykeep_owner' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'storykeep_owner') \gexec
SELECT 'CREATE ROLE storykeep_app' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'storykeep_app') \gexec
-- The owner runs migrations and provisions tenants: it owns the database and its schema. No
-- BYPASSRLS: forced row-level security binds it too (see Migrations/0001_tenancy.sql).
ALTER ROLE storykeep_owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS PASSWORD :'owner_password';
-- The server's role: owns nothing, and row-level security always applies to it.
ALTER ROLE storykeep_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS NOINHERIT PASSWORD :'app_password';
SELECT format('CREATE DATABASE %I OWNER storykeep_owner', :'database')
    WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'database') \gexec
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', :'database') \gexec
SELECT format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO storykeep_app', :'database') \gexec
SQL
    local host
    host=$(pgc_url_encode "$root/run")
    export DATABASE_URL="postgresql://storykeep_app:$app_password@$host:$PGC_PORT/$PGC_DATABASE"
    export STORYKEEP_OWNER_DATABASE_URL="postgresql://storykeep_owner:$owner_password@$host:$PGC_PORT/$PGC_DATABASE"
}

# pgc_start ROOT dev|test: initialises ROOT if needed, starts or reuses the cluster, provisions it.
pgc_start() {
    local root=$1 flavour=${2:-dev}
    [[ -f "$root/data/PG_VERSION" ]] || pgc_init "$root"
    pgc_launch "$root" "$flavour"
    pgc_provision "$root"
}

pgc_stop() {
    local root=$1
    if pgc_running "$root"; then
        pgc_as_postgres "$PG_BIN/pg_ctl" -D "$root/data" -m fast -w stop >/dev/null
    fi
}

# pgc_throwaway: a new cluster folder under /tmp in $root (not $TMPDIR: the postgres user must
# reach it), removed with its cluster when the script exits, on a signal too; a server whose
# process id the script puts in $server_pid is stopped first.
pgc_throwaway() {
    root=$(mktemp -d /tmp/storykeep-pg.XXXXXX)
    chmod 755 "$root"
    server_pid=
    trap pgc_throwaway_cleanup EXIT
    trap "exit 130" INT TERM
}

pgc_throwaway_cleanup() {
    set +e  # clean up everything, whatever fails
    if [[ -n ${server_pid:-} ]]; then
        kill "$server_pid" 2>/dev/null
        wait "$server_pid" 2>/dev/null
    fi
    pgc_stop "$root"
    rm -rf "$root"
}
