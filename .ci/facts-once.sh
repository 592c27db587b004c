#!/usr/bin/env bash
# Each fact said once, where a search can tell (issue 36, points 1 and 2):
# - a vendor's or a CRM's secret and URL variable are named in src/ by its own declaration only
#   (src/enrichment/<vendor>-*.ts, src/crm/<crm>.ts); configuration, the governor, the providers and
#   the docs read the declaration;
# - no module of src/ spells an operation as "METHOD /v2/…": /me/rate-limits, the document and the MCP
#   tools derive operations from the routes' declarations (routes/api-routes.ts).
# `npm run lint` runs this.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
while IFS=$'\t' read -r file name; do
  others=$(grep -rlw --include='*.ts' -- "$name" src | grep -vxF -- "$file" || true)
  if [ -n "$others" ]; then
    echo "$name is declared by $file and named again in: $(echo "$others" | tr '\n' ' ')(read it from the declaration)" >&2
    status=1
  fi
done < <(grep -rnoE --include='*.ts' '(secret|urlVariable): "[A-Z][A-Z0-9_]+"' src |
  sed -E 's/^([^:]+):[0-9]+:[a-zA-Z]+: "([^"]+)"$/\1\t\2/')
spelled=$(grep -rnE --include='*.ts' '"(GET|POST|PUT|PATCH|DELETE) /v2/' src || true)
if [ -n "$spelled" ]; then
  echo "Operations spelled out in src/ (derive them from the routes, apiOperations):" >&2
  echo "$spelled" >&2
  status=1
fi
exit $status
