#!/usr/bin/env bash
# Each fact said once, where a search can tell (issue 36, points 1 and 2):
# - a vendor's or a CRM's secret and URL variable are named in src/ by its own declaration only
#   (src/enrichment/<vendor>-*.ts, src/crm/<crm>.ts); configuration, the governor, the providers and
#   the docs read the declaration;
# - no module of src/ spells an operation as "METHOD /v2/…": /me/rate-limits, the document and the MCP
#   tools derive operations from the routes' declarations (routes/api-routes.ts);
# - the defaults the prose quotes (a batch's 10,000 items, "an email 1 credit, a phone 10") are
#   src/base/defaults.ts's: code elsewhere reads them from there (comments may still say them);
# - the UUID pattern is src/base/uuid.ts's;
# - configuration is read through configOf (src/base/config.ts): no other memo of parsed vars per env;
# - `name=value,…` lists are read by src/base/name-values.ts only (no other split at "=");
# - a CRM is its file and one line (issue 47): no code of src/, scripts/, client/src/, bench/ or console/
#   (its page included) names a declared CRM (its `name` or its `words.label`) but its own file
#   src/crm/<crm>.ts and crms.ts; the routes' prose, the document, the examples, the CLI and the console
#   page (CRM_PAGE_WORDS, scripts/build-console.mjs) read the declarations (perCrm, CRM_PROVIDERS);
# - documentation is kept out of the Worker's bundle one way, under OPENAPI_METADATA (no pure-call marks).
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
# Code lines (not comments) of src/ that write the default batch size or the prices themselves.
quoted=$(grep -rnE --include='*.ts' '10[,_]000|an email [0-9]+ credit' src |
  grep -vE '^src/base/defaults\.ts:' | grep -vE '^[^:]+:[0-9]+:\s*(//|\*|/\*)' |
  grep -iE 'item|batch|people|credit' || true)
if [ -n "$quoted" ]; then
  echo "Defaults written out in src/ (read DEFAULT_MAX_BATCH_ITEMS, DEFAULT_PRICES from src/base/defaults.ts):" >&2
  echo "$quoted" >&2
  status=1
fi
# The UUID pattern: src/base/uuid.ts's.
uuids=$(grep -rnF --include='*.ts' '{8}-[0-9a-f]{4}' src | grep -vE '^src/base/uuid\.ts:' || true)
if [ -n "$uuids" ]; then
  echo "The UUID pattern written again (read UUID_PATTERN or isUuid from src/base/uuid.ts):" >&2
  echo "$uuids" >&2
  status=1
fi
memos=$(grep -rnF --include='*.ts' 'WeakMap<Env' src | grep -vE '^src/base/config\.ts:' || true)
if [ -n "$memos" ]; then
  echo "Configuration memoised outside configOf (read it with configOf(schema), src/base/config.ts):" >&2
  echo "$memos" >&2
  status=1
fi
splits=$(grep -rnF --include='*.ts' 'split("=")' src bench scripts | grep -vE '^src/base/name-values\.ts:' || true)
if [ -n "$splits" ]; then
  echo "A name=value list read by hand (use nameValues or nameValueEntries, src/base/name-values.ts):" >&2
  echo "$splits" >&2
  status=1
fi
# A CRM named outside its declaration: code lines only (comments may give a CRM as an example). Left
# out: client/src/schema.ts (generated from the document, whose enums derive from CRM_PROVIDERS); lines
# listing the tools whose spreadsheet exports the file core reads (with Pipedrive: not a connected CRM).
crm_files=$(grep -rlE --include='*.ts' 'CrmDeclaration<"[a-z0-9_]+">' src/crm | sort)
crm_names=$(for file in $crm_files; do
  grep -hoE '(CrmDeclaration<"[a-z0-9_]+">|label: "[^"]+")' "$file" | sed -E 's/^[^"]*"([^"]+)".*$/\1/'
done | sort -fu)
for name in $crm_names; do
  named=$(grep -rniF --include='*.ts' --include='*.mts' --include='*.mjs' --include='*.html' -- "$name" src scripts client/src bench console |
    grep -vE '^(src/crm/crms\.ts|client/src/schema\.ts):' | grep -vE '^[^:]+:[0-9]+:\s*(//|\*|/\*)' |
    grep -v 'Pipedrive' || true)
  for file in $crm_files; do named=$(echo "$named" | grep -vF -- "$file:" || true); done
  if [ -n "$named" ]; then
    echo "The CRM \"$name\" named outside its declaration (read CRMS, CRM_PROVIDERS or perCrm from src/crm/crms.ts):" >&2
    echo "$named" >&2
    status=1
  fi
done
marks=$(grep -rnE --include='*.ts' '@__(PURE|NO_SIDE_EFFECTS)__' src || true)
if [ -n "$marks" ]; then
  echo "Documentation kept out of the bundle by a pure-call mark (write it under OPENAPI_METADATA, docs/contributing.md):" >&2
  echo "$marks" >&2
  status=1
fi
exit $status
