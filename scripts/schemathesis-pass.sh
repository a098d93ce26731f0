#!/usr/bin/env bash
# The long schemathesis pass (issue 18; make fuzz runs it after libFuzzer): a throw-away cluster
# with tenants/ applied, the debug server on a free loopback port, and scripts/schemathesis.sh
# against the demo tenant as a young person and as an agency admin, SCHEMATHESIS_EXAMPLES (default
# 100) generated requests a field each. The short pass is SchemathesisTests, in make test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/pg-cluster.sh

examples=${SCHEMATHESIS_EXAMPLES:-100}
password="schemathesis pass password"
scripts/deps.sh --python
swift build --product storykeep
bin=.build/debug/storykeep

pgc_throwaway
pgc_start "$root" test
$bin migrate >/dev/null
$bin tenant apply tenants/ >/dev/null
printf '%s\n' "$password" | $bin user create --tenant demo --role AGENCY_ADMIN --email st-admin@demo.example \
    --password-stdin --if-absent >/dev/null
printf '%s\n' "$password" | $bin user create --tenant demo --role YOUNG_PERSON --username st-young \
    --password-stdin --if-absent >/dev/null

port=$(pgc_free_port 18380 /nonexistent)
STORYKEEP_HTTP_PORT=$port STORYKEEP_LOG_LEVEL=warning $bin serve >"$root/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 200); do curl -fs "http://127.0.0.1:$port/health/ready" >/dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port/t/demo/graphql"

status=0
for who in st-young st-admin@demo.example; do
    token=$(curl -fs "$url" -H 'content-type: application/json' -d "$(python3 -c 'import json, sys
print(json.dumps({"query": "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }",
                  "variables": {"u": sys.argv[1], "p": sys.argv[2]}}))' "$who" "$password")" \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["login"]["token"])')
    echo "schemathesis: $examples examples a field as $who"
    scripts/schemathesis.sh "$url" "$token" "$examples" || status=1
done
if grep -q 'Fatal error\|panic' "$root/server.log"; then
    echo "schemathesis: the server crashed:" >&2
    grep -m 5 'Fatal error\|panic' "$root/server.log" >&2
    status=1
fi
kill -0 "$server_pid" || { echo "schemathesis: the server is gone" >&2; status=1; }
exit $status
