#!/usr/bin/env bash
# make fuzz: libFuzzer over the GraphQL engine's parser, printer and validator (Fuzz/, issue 18)
# for FUZZ_SECONDS (default 60), from a seed corpus made of Tests/GraphQLTests/Corpus. Prints the
# executions, their rate and the crashes; exits non-zero on a crash, whose input is kept in
# Fuzz/.build/artifacts/ (replay it: Fuzz/.build/release/FuzzGraphQL <file>). The engine is built
# optimized (FUZZ_CONFIG=release, the default) with the sanitizers, as libFuzzer's own guide
# advises: about ten times the executions of a debug build; FUZZ_CONFIG=debug for a debugger.
#   FUZZ_SECONDS=600 make fuzz
#   FUZZ_RUNS=10000000 FUZZ_SECONDS=7200 FUZZ_NICE=19 make fuzz   (ten million, or two hours)
#   FUZZ_JOBS=2 FUZZ_RUNS=10000000 FUZZ_SECONDS=3600 make fuzz     (two processes, five million each)
# FUZZ_JOBS (default 1) runs that many fuzzing processes side by side on the one corpus, each with
# its share of FUZZ_RUNS and its own log (Fuzz/.build/fuzz-N.log); the executions are their sum.
# Then the long schemathesis pass against a running server (scripts/schemathesis-pass.sh;
# FUZZ_SCHEMATHESIS=0 skips it).
# Inputs are capped at FUZZ_MAX_LEN bytes (default 4096); an input slower than 10 s is a crash
# too (a hang). Leak detection is off: the Swift runtime keeps metadata it allocates for good, and
# the schemas built once are never freed. FUZZ_NICE (0) runs it at a lower priority. Swift's own
# backtracer is off: under the address sanitizer it reports a crash of its own after a trap.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${FUZZ_SECONDS:-60}
max_len=${FUZZ_MAX_LEN:-4096}
config=${FUZZ_CONFIG:-release}
swift build --package-path Fuzz -c "$config" -Xswiftc -sanitize=fuzzer,address
fuzzer=Fuzz/.build/$config/FuzzGraphQL

# The seed corpus: every GraphQL file of the engine's corpus, each case of the syntax and
# validation corpora as a file of its own. The working corpus grows between runs.
seeds=Fuzz/.build/seeds corpus=Fuzz/.build/corpus artifacts=Fuzz/.build/artifacts/
rm -rf "$seeds" && mkdir -p "$seeds" "$corpus" "$artifacts"
python3 - "$seeds" <<'PY'
import json, pathlib, re, sys
out = pathlib.Path(sys.argv[1])
root = pathlib.Path("Tests/GraphQLTests/Corpus")
seeds = [p.read_bytes() for p in sorted(root.rglob("*.graphql"))]
seeds += [case["source"].encode() for case in json.loads((root / "syntax/cases.json").read_text())]
for cases in sorted((root / "validation/cases").glob("*.graphql")):
    seeds += [part.encode() for part in re.split(r"^### .*\n", cases.read_text(), flags=re.M) if part.strip()]
for number, seed in enumerate(seeds):
    (out / f"seed-{number:04}").write_bytes(seed)
print(f"fuzz: {len(seeds)} seeds from {root}")
PY

jobs=${FUZZ_JOBS:-1}
runs=${FUZZ_RUNS:--1}
((runs > 0 && jobs > 1)) && runs=$(((runs + jobs - 1) / jobs))
echo "fuzz: running for $seconds s (inputs up to $max_len bytes, $jobs process(es))"
rm -f Fuzz/.build/fuzz.log Fuzz/.build/fuzz-*.log
status=0
for ((job = 0; job < jobs; job++)); do
    log=Fuzz/.build/fuzz.log
    ((jobs > 1)) && log=Fuzz/.build/fuzz-$job.log
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 nice -n "${FUZZ_NICE:-0}" "$fuzzer" "$corpus" "$seeds" -dict=Fuzz/graphql.dict -max_total_time="$seconds" -runs="$runs" -max_len="$max_len" -timeout=10 \
        -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$artifacts" 2>"$log" &
done
for ((job = 0; job < jobs; job++)); do wait -n || status=$?; done
logs=(Fuzz/.build/fuzz*.log)
executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "${logs[@]}" | awk '{ n += $1 } END { print n + 0 }')
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "${logs[@]}" | awk '{ n += $1 } END { print n + 0 }')
crashes=$(find "$artifacts" -type f -newer "$seeds" \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
echo "fuzz: ${executions:-?} executions in at most $seconds s, ${rate:-?} exec/s, $crashes crashes, corpus $(ls "$corpus" | wc -l) inputs ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
if ((status != 0 || crashes > 0)); then
    grep -E 'ERROR|Fatal error|SUMMARY|Test unit written' "${logs[@]}" | head -20
    echo "fuzz: the logs are ${logs[*]}" >&2
    exit 1
fi
if [[ ${FUZZ_SCHEMATHESIS:-1} != 0 ]]; then
    scripts/schemathesis-pass.sh
fi
