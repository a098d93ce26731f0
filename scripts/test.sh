#!/usr/bin/env bash
# make test: install what is missing, build, start a throw-away PostgreSQL under /tmp (removed on
# exit, even when tests fail), run the migrations as the owner role, then swift test with
# DATABASE_URL and STORYKEEP_OWNER_DATABASE_URL set. Extra arguments go to swift test.
# When a test fails, the failures are printed again at the end, so that the tail of a long run
# (all a CI report may keep) says which test failed and where.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/pg-cluster.sh

scripts/deps.sh --python
swift build --build-tests

pgc_throwaway
pgc_start "$root" test
echo "test: PostgreSQL 15 in $root, port $PGC_PORT"

.build/debug/storykeep migrate
log="$root/swift-test.log"
status=0
swift test --skip-build "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" -ne 0 ]; then
    echo "test: the failures again (swift test exited $status):"
    grep -a -E -A4 'recorded an issue|error: |Fatal error|Test run .* failed' "$log" | grep -a -v '^✔' | tail -n 60 || true
fi
exit "$status"
