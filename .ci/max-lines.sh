#!/usr/bin/env bash
# No source file passes 250 lines: not in src/, nor in the tools (scripts/), the console page (console/),
# the client package (client/) or the test helpers (test/, every file but the *.test.ts themselves).
# A file that long has grown a second job: split it by responsibility (the house rule in the
# developers' guide). Test files are left out: one describe per behaviour reads better whole.
# `npm run lint` runs this.
set -euo pipefail
cd "$(dirname "$0")/.."
MAX=250
files=$(
  {
    find src scripts console -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.mjs' \)
    # client/src/schema.ts is generated from the OpenAPI document (npm run client:types).
    find client -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.mjs' \) \
      -not -path 'client/node_modules/*' -not -path 'client/dist/*' -not -path 'client/src/schema.ts'
    find test -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.mjs' \) -not -name '*.test.ts'
  } | sort
)
long=$(echo "$files" | xargs wc -l | awk -v max="$MAX" '$2 != "total" && $1 > max { print "  " $2 ": " $1 " lines" }')
if [ -n "$long" ]; then
  echo "Files over $MAX lines in src/, scripts/, console/, client/ or the test helpers (split each by responsibility):" >&2
  echo "$long" >&2
  exit 1
fi
