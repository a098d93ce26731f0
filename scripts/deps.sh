#!/usr/bin/env bash
# Installs what building and running Storykeep needs and the machine lacks, and nothing else.
#   scripts/deps.sh            system packages: libpq, libargon2, libcrypto headers, PostgreSQL 15
#   scripts/deps.sh --python   also graphql-core 3.3.2, the differential oracle of the engine's tests,
#                              and the gql client (requests and websockets transports) that tests
#                              GraphQL over HTTP and over WebSocket, and Debian's chromium, the
#                              headless browser of the CORS test (about 30 s to install), and
#                              prometheus-client, whose parser reads the metrics in their test,
#                              Debian's pgbouncer, which a test puts between server and database,
#                              Debian's haproxy, the load balancer in front of two servers of
#                              scripts/lb.sh (a fault test, make bench),
#                              and fido2, whose WebAuthn types make the passkey tests' software
#                              authenticator; schemathesis, the hostile client of the GraphQL
#                              API's test (scripts/schemathesis.sh); and
#                              graphene-django-graphiql-static (without its dependencies), whose
#                              copies of React and GraphiQL the explorer's browser test serves;
#                              and what scripts/bench-requestpath.sh measures with and against:
#                              Debian's wrk, and the Python peer's strawberry-graphql (with its
#                              ASGI extra, Starlette), asyncpg, uvicorn with uvloop and httptools,
#                              and argon2-cffi
# apt-get update runs once, and only when something is missing.
set -euo pipefail

want_python=false
[[ "${1:-}" == "--python" ]] && want_python=true

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

missing=()
for package in libpq-dev libargon2-dev libssl-dev pkg-config; do
    installed "$package" || missing+=("$package")
done
[[ -x /usr/lib/postgresql/15/bin/initdb ]] || missing+=(postgresql-15)
command -v runuser >/dev/null || missing+=(util-linux)
$want_python && ! command -v chromium >/dev/null && missing+=(chromium)
$want_python && ! [[ -x /usr/sbin/pgbouncer ]] && missing+=(pgbouncer)
$want_python && ! [[ -x /usr/sbin/haproxy ]] && missing+=(haproxy)
$want_python && ! command -v wrk >/dev/null && missing+=(wrk)

if ((${#missing[@]})); then
    echo "deps: installing ${missing[*]}"
    if [[ $(id -u) -ne 0 ]]; then
        echo "deps: need root to apt-get install ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi

if $want_python; then
    if ! python3 -c 'import graphql, sys; sys.exit(graphql.__version__ != "3.3.2")' 2>/dev/null; then
        echo "deps: installing graphql-core==3.3.2"
        python3 -m pip install -q --disable-pip-version-check graphql-core==3.3.2 </dev/null
    fi
    if ! python3 -c 'import prometheus_client' 2>/dev/null; then
        echo "deps: installing prometheus-client==0.26.0"
        python3 -m pip install -q --disable-pip-version-check prometheus-client==0.26.0 </dev/null
    fi
    if ! python3 -c 'import fido2.webauthn' 2>/dev/null; then
        echo "deps: installing fido2==2.2.1"
        python3 -m pip install -q --disable-pip-version-check fido2==2.2.1 </dev/null
    fi
    if ! python3 -c 'import importlib.util, sys; sys.exit(not importlib.util.find_spec("graphene_django_graphiql_static"))'; then
        echo "deps: installing graphene-django-graphiql-static==0.8 (its static files)"
        python3 -m pip install -q --disable-pip-version-check --no-deps graphene-django-graphiql-static==0.8 </dev/null
    fi
    if ! python3 -c 'import gql, requests_toolbelt, websockets' 2>/dev/null; then
        echo "deps: installing gql[requests,websockets]==4.4.0"
        python3 -m pip install -q --disable-pip-version-check "gql[requests,websockets]==4.4.0" graphql-core==3.3.2 </dev/null
    fi
    if ! python3 -c 'import schemathesis, sys; sys.exit(schemathesis.__version__ != "4.32.5")' 2>/dev/null; then
        echo "deps: installing schemathesis==4.32.5"
        python3 -m pip install -q --disable-pip-version-check schemathesis==4.32.5 graphql-core==3.3.2 </dev/null
    fi
    if ! python3 -c 'import strawberry.asgi, asyncpg, uvicorn, uvloop, httptools, argon2' 2>/dev/null; then
        echo "deps: installing the request path bench's Python peer (strawberry-graphql 0.341.3, asyncpg 0.32.0, uvicorn 0.55.0, ...)"
        python3 -m pip install -q --disable-pip-version-check "strawberry-graphql[asgi]==0.341.3" asyncpg==0.32.0 \
            uvicorn==0.55.0 uvloop==0.23.0 httptools==0.9.0 argon2-cffi==25.1.0 graphql-core==3.3.2 </dev/null
    fi
fi
