#!/usr/bin/env bash
# make run: install what is missing, build, start the project-local PostgreSQL, migrate, apply
# tenants/, provision the demo people, then serve the API in the foreground (Ctrl-C stops it; the
# database keeps running and its data stays in .data/ for the next run; `scripts/dev-db.sh stop`
# stops it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The demo tenant's people: fixed, documented passwords (README, "What make run gives you"), for a
# local demo only. --if-absent leaves someone already there as they are, password included.
demo_admin_email=admin@demo.example
demo_admin_password=demo-admin-password
demo_young_username=alex
demo_young_password=demo-young-person

scripts/deps.sh
swift build
scripts/dev-db.sh start
.build/debug/storykeep migrate
.build/debug/storykeep tenant apply tenants/
printf '%s\n' "$demo_admin_password" | .build/debug/storykeep user create --tenant demo --role AGENCY_ADMIN \
    --email "$demo_admin_email" --display-name "Dana (demo agency admin)" --password-stdin --if-absent
printf '%s\n' "$demo_young_password" | .build/debug/storykeep user create --tenant demo --role YOUNG_PERSON \
    --username "$demo_young_username" --display-name "Alex (demo young person)" --password-stdin --if-absent
cat <<LOGINS
Demo logins for the tenant demo (mutation login(username, password) at /t/demo/graphql):
  agency admin:  username $demo_admin_email   password $demo_admin_password
  young person:  username $demo_young_username                 password $demo_young_password
  e.g. curl -s -XPOST http://127.0.0.1:${STORYKEEP_HTTP_PORT:-8080}/t/demo/graphql -H 'content-type: application/json' \\
         -d '{"query":"mutation{login(username:\"$demo_young_username\",password:\"$demo_young_password\"){token}}"}'
LOGINS
# The GraphQL explorer (off by default, Config/storykeep.json) is on for a local run.
STORYKEEP_EXPLORER_ENABLED=${STORYKEEP_EXPLORER_ENABLED:-true} exec .build/debug/storykeep serve
