#!/usr/bin/env bash
# The GraphQL engine's figures (issue 3): `storykeep gql bench` and graphql-core 3.3.2 on the same
# inputs, in the same run, with the ratios: the documents of the parser's corpus
# (Tests/GraphQLTests/Corpus/syntax/valid-*.graphql) and the feed's root value and variables
# (scripts/bench-corpus). Medians of µs per operation, release build. Called by scripts/bench.sh
# (make bench); runs alone too (it builds what it needs):
#     scripts/bench-graphql.sh [seconds per figure, default 1]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-1}
documents=Tests/GraphQLTests/Corpus/syntax
data=scripts/bench-corpus
bin=.build/release/storykeep
swift build -c release --product storykeep >&2  # never a binary older than the code
python3 -c 'import graphql, sys; sys.exit(graphql.__version__ != "3.3.2")' 2>/dev/null \
    || python3 -m pip install --quiet graphql-core==3.3.2 >&2

feed=(--schema "$documents/valid-feed-schema.graphql" --root "$data/feed-root.json"
      --variables "$(cat "$data/feed-variables.json")" --seconds "$seconds")
kitchen=(--schema "$documents/valid-feed-schema.graphql" --query "$documents/valid-kitchen-sink.graphql" --seconds "$seconds")

ours_kitchen=$($bin gql bench "${kitchen[@]}")
core_kitchen=$(python3 scripts/bench-graphql-core.py "${kitchen[@]}")
ours_feed=$($bin gql bench --query "$documents/valid-feed-query.graphql" "${feed[@]}")
core_feed=$(python3 scripts/bench-graphql-core.py --query "$documents/valid-feed-query.graphql" "${feed[@]}")

python3 - "$ours_kitchen" "$core_kitchen" "$ours_feed" "$core_feed" <<'PY'
import json, sys
ours_kitchen, core_kitchen, ours_feed, core_feed = map(json.loads, sys.argv[1:])
print("GraphQL engine, median µs per operation (storykeep gql bench vs graphql-core 3.3.2)")
print(f"  {'case':<40}{'storykeep':>12}{'graphql-core':>14}{'ratio':>9}")
rows = [("parse kitchen-sink query", ours_kitchen, core_kitchen, "parse_us")]
rows += [(f"feed query: {key[:-3]}", ours_feed, core_feed, key)
         for key in ("parse_us", "validate_us", "execute_us", "all_us", "cached_us")]
for label, ours, core, key in rows:
    a, b = ours.get(key), core.get(key)
    ratio = f"{b / a:.1f}x" if a and b else "-"
    print(f"  {label:<40}{a if a is not None else '-':>12}{b if b is not None else '-':>14}{ratio:>9}")
print(f"  storykeep feed: {json.dumps(ours_feed)}")
print(f"  target: every ratio >= 20x, storykeep cached_us < 150")
PY
