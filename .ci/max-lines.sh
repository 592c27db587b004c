#!/usr/bin/env bash
# No source file under src/ passes 250 lines. A file that long has grown a second job:
# split it by responsibility (the house rule in the developers' guide). `npm run lint` runs this.
set -euo pipefail
cd "$(dirname "$0")/.."
MAX=250
long=$(find src -type f -name '*.ts' -exec wc -l {} + | awk -v max="$MAX" '$2 != "total" && $1 > max { print "  " $2 ": " $1 " lines" }')
if [ -n "$long" ]; then
  echo "Source files over $MAX lines (split each by responsibility):" >&2
  echo "$long" >&2
  exit 1
fi
