#!/usr/bin/env bash
# make test: install what is missing, build, start a throw-away PostgreSQL under /tmp (removed on
# exit, even when tests fail), run the migrations as the owner role, then swift test with
# DATABASE_URL and STORYKEEP_OWNER_DATABASE_URL set. Extra arguments go to swift test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/pg-cluster.sh

scripts/deps.sh --python
swift build --build-tests

pgc_throwaway
pgc_start "$root" test
echo "test: PostgreSQL 15 in $root, port $PGC_PORT"

.build/debug/storykeep migrate
swift test --skip-build "$@"
