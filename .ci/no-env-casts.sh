#!/usr/bin/env bash
# No cast of the Worker's env in src/ (`env as Env & …`, `c.env as unknown as …`): the secrets the Worker
# cannot serve without are declared in wrangler.toml's [secrets], so `wrangler types` puts them on Env,
# and the optional ones (vendors' keys) are read by name through optionalSecret (src/base/secrets.ts).
# `npm run lint` runs this.
set -euo pipefail
cd "$(dirname "$0")/.."
if casts=$(grep -rnE '\benv as ' src); then
  echo "The Worker's env is cast in src/ (declare a required secret in wrangler.toml's [secrets] and run" >&2
  echo "npm run types; read an optional one with optionalSecret from src/base/secrets.ts):" >&2
  echo "$casts" | sed 's/^/  /' >&2
  exit 1
fi
