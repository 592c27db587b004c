import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";

// Fixed, documented keys for `npm run dev`. They exist only in the local store
// (`npm run keys -- seed-dev`); `npm run smoke` uses the test one by default.
export const DEV_KEYS = [
  { key: "ck_test_localdevelopmentkey0000000000000", keyId: "key_localdev_test", environment: "test" },
  { key: "ck_live_localdevelopmentkey0000000000000", keyId: "key_localdev_live", environment: "live" },
] as const;

/**
 * The development values of the Worker's required secrets (wrangler.toml, [secrets]), written once in
 * scripts/dev-secrets.env: `npm run dev` hands that file to wrangler (`--env-file`), and so does every
 * server the tests and benchmarks start (scripts/local-server.ts). A deployment has only the secrets
 * its operator set.
 */
export const DEV_SECRETS_FILE = fileURLToPath(new URL("./dev-secrets.env", import.meta.url));
export const DEV_SECRETS = parseEnv(readFileSync(DEV_SECRETS_FILE, "utf8"));
