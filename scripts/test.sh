#!/usr/bin/env bash
# make test: install what is missing, build, start a throw-away PostgreSQL under /tmp (removed on
# exit, even when tests fail), run the migrations as the owner role, then swift test with
# DATABASE_URL and STORYKEEP_OWNER_DATABASE_URL set. Extra arguments go to swift test.
# When a test fails, the failures are printed again at the end, so that the tail of a long run
# (all a CI report may keep) says which test failed and where; a run that stops printing for six
# minutes is ended, with what it was waiting for and the tests still running.
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
status_file="$root/swift-test.status"
# A run that prints nothing for this long has stopped: its stacks, what its tasks wait for
# (Tests/StorykeepTestSupport/TestWatchdog.swift) and the tests still running are printed, and
# it is ended, so that a hang fails in minutes and names itself instead of using up CI's time.
silence_limit="${TEST_SILENCE_LIMIT:-360}"
export STORYKEEP_TEST_DUMP="$root/dump-request"

# The tests that started and did not finish, by name, from the output so far.
unfinished() {
    grep -a -o -E '(◇|✔|✘) Test [^ ]+\(' "$log" | sort | uniq -c | awk '
        { name = $4; sub(/\($/, "", name); if ($2 == "◇") started[name] += $1; else finished[name] += $1 }
        END { for (name in started) if (started[name] > finished[name]) print "  " name }' || true
}

# This checkout's processes only: another checkout's tests may be running on the same machine.
tests_process="$PWD/.build/.*/StorykeepPackageTests.xctest"

report_stall() {
    echo "test: no output for ${silence_limit} s: the run has stopped"
    local pid
    pid="$(pgrep -f "$tests_process" | head -n 1 || true)"
    touch "$STORYKEEP_TEST_DUMP"
    sleep 12
    if [ -n "$pid" ] && command -v gdb >/dev/null; then
        echo "test: the test process's threads (gdb):"
        timeout 120 gdb -p "$pid" -batch -ex 'thread apply all bt 10' 2>/dev/null \
            | grep -a -E '^Thread|^#' | cut -c1-200 || true
    fi
    pkill -TERM -f "$tests_process" || true
    sleep 5
    pkill -KILL -f "$tests_process" || true
    # The servers its tests started from this checkout's build would run on.
    pkill -f "$PWD/.build/.*/storykeep serve" || true
}

# Line-buffered (stdbuf): a process's output to a pipe is otherwise written in blocks, and the
# last lines of a stopped process would stay in its buffer, missing from the log and the list.
( set +e; stdbuf -oL -eL swift test --skip-build "$@" 2>&1; echo "$?" >"$status_file" ) | tee "$log" &
runner=$!
silent=0
last_size=-1
stalled=false
while kill -0 "$runner" 2>/dev/null; do
    sleep 10
    size="$(stat -c %s "$log" 2>/dev/null || echo 0)"
    if [ "$size" = "$last_size" ]; then silent=$((silent + 10)); else silent=0; last_size="$size"; fi
    if [ "$silent" -ge "$silence_limit" ]; then
        stalled=true
        report_stall
        break
    fi
done
wait "$runner" || true
status="$(cat "$status_file" 2>/dev/null || echo 1)"
if [ "$stalled" = true ]; then
    status=1
    echo "test: what the stopped process's tasks waited for:"
    grep -a 'test watchdog:' "$log" || echo "  (the process did not answer)"
    echo "test: the tests still running when the run stopped, after ${silence_limit} s without output:"
    unfinished
elif [ "$status" -ne 0 ]; then
    echo "test: the failures again (swift test exited $status):"
    grep -a -E -A4 'recorded an issue|error: |Fatal error|Test run .* failed' "$log" | grep -a -v '^✔' | tail -n 60 || true
fi
exit "$status"
