#!/usr/bin/env bash
# Schemathesis (GraphQL mode; scripts/deps.sh --python installs it) against one tenant's GraphQL
# endpoint of a running server, as the person whose bearer token it is given: every query and
# mutation of the schema the server introspects, EXAMPLES generated requests each (valid ones and,
# in its negative mode, invalid ones), from a fixed seed. A 5xx, an answer that is not JSON, or a
# GraphQL error without a code or with INTERNAL_SERVER_ERROR fails it (storykeep_answer, in
# scripts/schemathesis_hooks.py); so does an answer that breaks the schema's types
# (response_schema_conformance). Every other error (a GraphQL error with its code, a 4xx) is what
# hostile input should get.
# The operations that end the token's own session (logout, logoutEverywhere, deleteMyAccount) are
# left out, so that the rest run signed in.
#   scripts/schemathesis.sh URL TOKEN EXAMPLES [SEED]
#   e.g. scripts/schemathesis.sh http://127.0.0.1:8080/t/demo/graphql "$token" 5
set -euo pipefail
url=$1 token=$2 examples=$3 seed=${4:-18}
export SCHEMATHESIS_HOOKS="$(dirname "${BASH_SOURCE[0]}")/schemathesis_hooks.py"
exec st run "$url" --header "Authorization: Bearer $token" --checks storykeep_answer,response_schema_conformance \
    --max-examples "$examples" --seed "$seed" --no-shrink --request-timeout 30 \
    --exclude-name-regex '^Mutation\.(logout|logoutEverywhere|deleteMyAccount)$'
