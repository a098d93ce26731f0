#!/usr/bin/env bash
# make bench: figures, not verdicts. Builds in release mode (BENCH_CONFIGURATION=debug to try the
# script quickly), starts a throw-away PostgreSQL and the server on a free loopback port, and
# measures. Each benchmark is one function below; add yours to the list at the end. Loads are
# bounded in count and go to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/pg-cluster.sh

scripts/deps.sh --python
configuration=${BENCH_CONFIGURATION:-release}
swift build -c "$configuration"
bin=.build/$configuration/storykeep

pgc_throwaway
pgc_start "$root" test
$bin migrate >/dev/null
# The demo tenant as make run has it, but for the limits on mutations: every client here is
# 127.0.0.1 and a bench person mutates hundreds of times, so the limits would measure themselves.
cp -r tenants "$root/tenants"
echo 'rateLimits: { mutationsPerMinutePerPerson: 100000, mutationsPerMinutePerAddress: 1000000 }' >>"$root/tenants/demo.yaml"
$bin tenant apply "$root/tenants" >/dev/null

port=$(pgc_free_port 18080 /nonexistent)
STORYKEEP_HTTP_PORT=$port STORYKEEP_LOG_LEVEL=warning $bin serve &
server_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -fs "$base/health/live" >/dev/null && break; sleep 0.1; done

# Latency of N sequential requests to one URL, as curl sees it (connection reuse off).
bench_http_latency() {
    local name=$1 url=$2 n=${3:-500}
    python3 - "$name" "$url" "$n" <<'PY'
import sys, time, urllib.request, statistics
name, url, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
samples = []
for _ in range(n):
    t = time.perf_counter()
    with urllib.request.urlopen(url) as r:
        r.read()
    samples.append((time.perf_counter() - t) * 1000)
samples.sort()
print(f"{name}: {n} requests, p50 {statistics.median(samples):.3f} ms, "
      f"p99 {samples[int(n * 0.99) - 1]:.3f} ms, {n / (sum(samples) / 1000):.0f} req/s sequential")
PY
}

# The login storm (issue 4): login latency with 50 concurrent logins, and a cheap authenticated
# query's p99 during the storm beside its p99 without it. Each client logs in as a young person of
# its own (provisioned here with the same command as make run's demo people), with the right
# password: concurrent attempts on one name count as failures in advance and would lock it out.
bench_login_storm() {
    local clients=50 logins=8 password="bench young person password"
    local person hashes=${STORYKEEP_ARGON2_CONCURRENT_HASHES:-$(python3 -c \
        'import json; print(json.load(open("Config/storykeep.json"))["argon2"]["concurrentHashes"])')}
    for person in $(seq "$clients") probe; do
        printf '%s\n' "$password" | $bin user create --tenant demo --role YOUNG_PERSON --username "bench-yp-$person" \
            --password-stdin --if-absent >/dev/null
    done
    python3 scripts/bench-login.py --base "$base" --tenant demo --users bench-yp- --password "$password" \
        --clients "$clients" --logins "$logins" --probe-user bench-yp-probe --probe-password "$password" \
        --label "argon2.concurrentHashes $hashes, $(nproc) cores"
}

# Uploads (issue 16, item 9): a 25 MB file stored, and 26 MiB and 110 MiB files refused by their
# Content-Length or while they stream, with the time to each answer and MB/s (scripts/bench-upload.py).
bench_uploads() {
    local password="bench uploader password"
    printf '%s\n' "$password" | $bin user create --tenant demo --role YOUNG_PERSON --username bench-uploader \
        --password-stdin --if-absent >/dev/null
    python3 scripts/bench-upload.py --base "$base" --tenant demo --user bench-uploader --password "$password" \
        --label "$configuration build, $(nproc) cores"
}

# The safety alert (issue 11): raiseSafetyAlert's latency for a young person with five social
# workers, each told in the same transaction (scripts/bench-safety.py), with the load average.
bench_safety_alert() {
    local password="bench safety password" workers=() worker
    printf '%s\n' "$password" | $bin user create --tenant demo --role AGENCY_ADMIN --email bench-safety-admin@demo.example \
        --password-stdin --if-absent >/dev/null
    printf '%s\n' "$password" | $bin user create --tenant demo --role YOUNG_PERSON --username bench-safety-yp \
        --password-stdin --if-absent >/dev/null
    for worker in 1 2 3 4 5; do
        printf '%s\n' "$password" | $bin user create --tenant demo --role SOCIAL_WORKER \
            --email "bench-safety-sw$worker@demo.example" --password-stdin --if-absent >/dev/null
        workers+=("bench-safety-sw$worker@demo.example")
    done
    python3 scripts/bench-safety.py --base "$base" --tenant demo --admin bench-safety-admin@demo.example \
        --young bench-safety-yp --workers "$(IFS=,; echo "${workers[*]}")" --password "$password"
}

# Passkey logins (issue 21): finishPasskeyLogin's round trip, with a software authenticator
# (scripts/bench-passkeys.py), beside a password login's, with the load average.
bench_passkey_login() {
    local password="bench passkey password"
    printf '%s\n' "$password" | $bin user create --tenant demo --role YOUNG_PERSON --username bench-passkey \
        --password-stdin --if-absent >/dev/null
    python3 scripts/bench-passkeys.py --base "$base" --tenant demo --user bench-passkey --password "$password" \
        --origin https://demo.storykeep.localhost --server-pid "$server_pid"
    uptime
}

# Two servers behind haproxy (scripts/lb.sh, issue 18), on the same database: what the load
# balancer adds to a request, beside the same request straight to a server above.
bench_load_balancer() {
    local exports
    exports=$(scripts/lb.sh start "$bin") || return 1
    eval "$exports"
    bench_http_latency "GET /health/ready through haproxy (two servers)" "$STORYKEEP_LB_URL/health/ready"
    scripts/lb.sh stop "$STORYKEEP_LB_ROOT"
}

bench_http_latency "GET /health/live" "$base/health/live"
bench_http_latency "GET /health/ready (database answers, migrations current)" "$base/health/ready"
bench_load_balancer
bench_login_storm
bench_uploads
bench_safety_alert
bench_passkey_login
scripts/bench-graphql.sh

# What metrics and tracing cost (issue 17): the cached feed request against a server with them on
# and one with them off, interleaved rounds, medians; a cluster and servers of its own.
# BENCH_OBSERVABILITY=0 skips it.
if [[ ${BENCH_OBSERVABILITY:-1} != 0 ]]; then
    scripts/bench-observability.sh
fi

# Live updates (issue 15): 1,000 WebSocket subscribers reached by safety alerts, commit to each
# `next` p50/p99 and memory per connection; a cluster and a server of its own. BENCH_LIVE=0 skips it.
if [[ ${BENCH_LIVE:-1} != 0 ]]; then
    scripts/bench-live.sh
fi

# What the rewards module adds to createEntry (issue 12): a cluster and a server of their own, two
# tenants alike but for the module. BENCH_REWARDS=0 skips it.
if [[ ${BENCH_REWARDS:-1} != 0 ]]; then
    scripts/bench-rewards.sh
fi

# The journal with 1,000,000 entries (issue 5): a few minutes, most of them seeding; a cluster
# and a server of its own. BENCH_JOURNAL=0 skips it.
if [[ ${BENCH_JOURNAL:-1} != 0 ]]; then
    scripts/bench-journal.sh
fi

# Sharing (issue 11): the author's plans before and after the sharing migration, and sharedWithMe
# for a social worker with 30 young people who shared 1,000 entries each; a cluster and a server
# of its own. BENCH_SHARING=0 skips it.
if [[ ${BENCH_SHARING:-1} != 0 ]]; then
    scripts/bench-sharing.sh
fi

# The case-management export (issue 14): about 100,000 shared entries pulled with their documents
# from a cursor of zero, and an empty poll's p50/p99; a cluster and a server of its own.
# BENCH_EXPORT=0 skips it.
if [[ ${BENCH_EXPORT:-1} != 0 ]]; then
    scripts/bench-export.sh
fi

# The social module (issue 13): 1,000 createPost at once, and the timeline of a person with 200
# friends among 100,000 posts; a cluster and a server of its own. BENCH_SOCIAL=0 skips it.
if [[ ${BENCH_SOCIAL:-1} != 0 ]]; then
    scripts/bench-social.sh
fi

# The mixed load (issue 18): journal, search, calendar, createEntry, login and shared entries at 8,
# 32 and 64 connections, and the journal's first page beside pgbench; a cluster and a server of
# its own, seeded with 1,000,000 entries. BENCH_LOAD=0 skips it.
if [[ ${BENCH_LOAD:-1} != 0 ]]; then
    scripts/bench-load.sh
fi

# The request path (issue 19): a young person's journal page, createEntry with a tag and login,
# Storykeep beside pgbench running the statements it sent (captured with log_statement), the
# Python peer (scripts/bench-peer.py) and the bare Argon2id limit, in turns; a cluster and
# servers of its own, seeded with 1,000,000 entries. BENCH_REQUESTPATH=0 skips it.
if [[ ${BENCH_REQUESTPATH:-1} != 0 ]]; then
    scripts/bench-requestpath.sh
fi
