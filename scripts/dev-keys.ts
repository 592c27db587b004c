// Fixed, documented keys for `npm run dev`. They exist only in the local store
// (`npm run keys -- seed-dev`); `npm run smoke` uses the test one by default.
export const DEV_KEYS = [
  { key: "ck_test_localdevelopmentkey0000000000000", keyId: "key_localdev_test", environment: "test" },
  { key: "ck_live_localdevelopmentkey0000000000000", keyId: "key_localdev_live", environment: "live" },
] as const;

/**
 * The admin API's token under `npm run dev` (package.json passes it as `--var ADMIN_TOKEN:…`):
 * the key tool uses it against a server on this machine when CONTACT_INFO_ADMIN_TOKEN is not set.
 * A deployment has only the ADMIN_TOKEN secret its operator set.
 */
export const DEV_ADMIN_TOKEN = "adm_localdevelopmenttoken000000000000000";

/**
 * The secret people's identifiers are hashed under (src/contact-info/person-keys.ts) on a server of
 * this machine: `npm run dev` passes it as `--var PERSON_KEY_SECRET:…`, and so does every server the
 * tests and benchmarks start (scripts/local-server.ts). A deployment has only the secret its operator set.
 */
export const DEV_PERSON_KEY_SECRET = "pks_localdevelopmentsecret00000000000000";

/**
 * The secret CRM tokens are sealed under (src/crm/token-box.ts) on a server of this machine: `npm run dev`
 * passes it as `--var CRM_TOKEN_SECRET:…`, as every server the tests start does (scripts/local-server.ts).
 */
export const DEV_CRM_TOKEN_SECRET = "cts_localdevelopmentsecret00000000000000";
