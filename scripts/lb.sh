#!/usr/bin/env bash
# Two `storykeep serve` processes behind Debian's haproxy on loopback (issue 18): the servers on
# free ports, haproxy balancing between them, health-checking each on /health/ready. For the
# load-balancer fault test and make bench; the database is whatever the environment names
# (DATABASE_URL and the other STORYKEEP_* variables the servers read: the throw-away cluster of
# make test or make bench, scripts/pg-ha.sh's pair).
#
#   eval "$(scripts/lb.sh start BINARY)"   starts both servers (BINARY serve, from the checkout,
#       output in ROOT/server1.log and ROOT/server2.log) and haproxy (its log of what went wrong
#       in ROOT/haproxy.log) under /tmp/storykeep-lb.*,
#       once haproxy sees both up; prints the exports STORYKEEP_LB_ROOT, STORYKEEP_LB_URL (haproxy's
#       http://127.0.0.1:port), STORYKEEP_LB_SERVER1_URL, STORYKEEP_LB_SERVER2_URL
#   scripts/lb.sh kill-server ROOT 1|2     kill -9 that server (a crash: nothing drains)
#   scripts/lb.sh state ROOT               each server as haproxy sees it, a line each:
#                                          "s1 UP, 0 retried, 0 redispatched"
#   scripts/lb.sh stop ROOT                stop haproxy and the servers, remove ROOT
#
# What haproxy retries. A request whose connection to a server could not be made (refused: the
# server is dead) never reached it, so it is sent to the other server (retry-on conn-failure,
# option redispatch), whatever its method. A request a server took and then died on, with no
# answer, is sent again only when it is a GET or HEAD, which change nothing (GraphQL over GET runs
# queries only). A POST is never sent again: its mutation may have committed before the server
# died, and a second run would write it twice. Its client gets 502 and cannot know which it was;
# what it sees in the database is the mutation whole or not at all (one transaction), as after any
# lost answer. Until the checks mark a dead server down (two failed checks 250 ms apart), new
# requests still pick it now and then and are redispatched at once.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/pg-cluster.sh"  # pgc_free_port

check_root() {
    case "${1:-}" in /tmp/storykeep-lb.*) ;; *) echo "lb: ${1:-(none)} is not a topology of this script's" >&2; exit 1 ;; esac
}

# haproxy's CSV statistics, from the stats listener on loopback.
stats() { curl -fsS "http://127.0.0.1:$(cat "$1/stats-port")/;csv"; }

# Each server's line: its name, its check state (UP, DOWN, or on its way: "DOWN 1/2"), then
# how many requests haproxy tried on it again (retries) and sent on to the other (redispatches).
state() { stats "$1" | awk -F, '$1 == "storykeep" && $2 ~ /^s[0-9]$/ { print $2, $18 ",", $16, "retried,", $17, "redispatched" }'; }

start() {
    local binary=${1:?the storykeep binary}
    [[ -x $binary ]] || { echo "lb: $binary is not an executable" >&2; return 1; }
    binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
    local root n port ports=() attempt
    root=$(mktemp -d /tmp/storykeep-lb.XXXXXX)
    for n in 1 2; do
        # Each on a port of its own choosing (0), which it announces; haproxy passes on who the
        # client is (X-Forwarded-For), which the servers believe from loopback only.
        # (Its own output only: a caller's pipe held open would keep it waiting for the end.)
        (cd "$here/.." && exec env STORYKEEP_HTTP_HOST=127.0.0.1 STORYKEEP_HTTP_PORT=0 STORYKEEP_HTTP_TRUSTED_PROXIES=127.0.0.1/32 \
            STORYKEEP_LOG_LEVEL="${STORYKEEP_LOG_LEVEL:-warning}" "$binary" serve) >"$root/server$n.log" 2>&1 </dev/null &
        echo $! >"$root/server$n.pid"
    done
    for n in 1 2; do
        port=
        for attempt in $(seq 300); do
            port=$(sed -n 's|.*serving on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$root/server$n.log" | head -n 1)
            [[ -n $port ]] && break
            kill -0 "$(cat "$root/server$n.pid")" 2>/dev/null || break
            sleep 0.1
        done
        [[ -n $port ]] || { echo "lb: server $n did not start; its log:" >&2; tail -n 20 "$root/server$n.log" >&2; stop "$root"; return 1; }
        ports+=("$port")
    done

    local front stats_port
    front=$(pgc_free_port $((30000 + RANDOM % 10000)) /nonexistent)
    stats_port=$(pgc_free_port $((front + 1)) /nonexistent)
    echo "$stats_port" >"$root/stats-port"
    cat >"$root/haproxy.cfg" <<CFG
global
    maxconn 4096
    log stdout format raw local0

defaults
    mode http
    log global
    option httplog
    option dontlog-normal
    option forwardfor
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout http-request 30s
    timeout http-keep-alive 10s
    timeout check 2s
    # A connection refused (the server is dead) is tried again, on the other server.
    retries 3
    option redispatch 1
    # A request taken and then dropped with no answer is tried again only if it changes nothing.
    retry-on conn-failure empty-response junk-response

frontend api
    bind 127.0.0.1:$front
    http-request disable-l7-retry unless METH_GET || METH_HEAD
    default_backend storykeep

backend storykeep
    balance roundrobin
    option httpchk GET /health/ready
    http-check expect status 200
    default-server check inter 500ms fastinter 250ms downinter 1s fall 2 rise 2
    server s1 127.0.0.1:${ports[0]}
    server s2 127.0.0.1:${ports[1]}

listen stats
    bind 127.0.0.1:$stats_port
    stats enable
    stats uri /
CFG
    haproxy -q -c -f "$root/haproxy.cfg" >"$root/haproxy.log" 2>&1 \
        || { echo "lb: haproxy refused its configuration:" >&2; cat "$root/haproxy.log" >&2; stop "$root"; return 1; }
    # In the foreground of a process of its own, so that its log (what went wrong only) goes to
    # ROOT/haproxy.log.
    haproxy -db -f "$root/haproxy.cfg" >"$root/haproxy.log" 2>&1 </dev/null &
    echo $! >"$root/haproxy.pid"
    for attempt in $(seq 200); do
        [[ $(state "$root" 2>/dev/null | grep -c '^s[12] UP,') == 2 ]] && break
        sleep 0.1
    done
    [[ $(state "$root" 2>/dev/null | grep -c '^s[12] UP,') == 2 ]] \
        || { echo "lb: haproxy does not see both servers up: $(state "$root" 2>&1 | tr '\n' ' ')" >&2; cat "$root/haproxy.log" >&2; stop "$root"; return 1; }

    printf 'export STORYKEEP_LB_ROOT=%q\n' "$root"
    printf 'export STORYKEEP_LB_URL=%q\n' "http://127.0.0.1:$front"
    printf 'export STORYKEEP_LB_SERVER1_URL=%q\n' "http://127.0.0.1:${ports[0]}"
    printf 'export STORYKEEP_LB_SERVER2_URL=%q\n' "http://127.0.0.1:${ports[1]}"
}

# Whether the process of pid file $1 runs.
alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop() {
    local root=$1 n pid
    alive "$root/haproxy.pid" && kill "$(cat "$root/haproxy.pid")"
    for n in 1 2; do
        alive "$root/server$n.pid" || continue
        pid=$(cat "$root/server$n.pid")
        kill "$pid"  # SIGTERM: it drains its requests and exits
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -rf "$root"
}

case "${1:-}" in
start)
    start "${2:-}"
    ;;
kill-server)
    check_root "${2:-}"
    [[ ${3:-} == [12] ]] || { echo "lb: which server, 1 or 2?" >&2; exit 2; }
    alive "$2/server$3.pid" || { echo "lb: server $3 is not running" >&2; exit 1; }
    kill -9 "$(cat "$2/server$3.pid")"
    ;;
state)
    check_root "${2:-}"
    state "$2"
    ;;
stop)
    check_root "${2:-}"
    stop "$2"
    ;;
*)
    echo "usage: $0 start BINARY | kill-server ROOT 1|2 | state ROOT | stop ROOT" >&2
    exit 2
    ;;
esac
