#!/usr/bin/env bash
# make run: install what is missing, build, start the project-local PostgreSQL, migrate, apply
# tenants/, then serve the API in the foreground (Ctrl-C stops it; the database keeps running
# and its data stays in .data/ for the next run; `scripts/dev-db.sh stop` stops it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/deps.sh
swift build
scripts/dev-db.sh start
.build/debug/storykeep migrate
.build/debug/storykeep tenant apply tenants/
exec .build/debug/storykeep serve
