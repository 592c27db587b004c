// Fixed, documented keys for `npm run dev`. They exist only in the local store
// (`npm run keys -- seed-dev`); `npm run smoke` uses the test one by default.
export const DEV_KEYS = [
  { key: "ck_test_localdevelopmentkey0000000000000", keyId: "key_localdev_test", environment: "test" },
  { key: "ck_live_localdevelopmentkey0000000000000", keyId: "key_localdev_live", environment: "live" },
] as const;
