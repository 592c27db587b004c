// The vendor keys the fakes accept (vitest.config.ts gives them to the Worker as its secrets);
// any other key gets the vendor's own answer to a bad key.
export const FAKE_KEYS = {
  hunter: "test-hunter-key",
  pdl: "test-pdl-key",
  apollo: "test-apollo-key",
  prospeo: "test-prospeo-key",
  zerobounce: "test-zerobounce-key",
  neverbounce: "test-neverbounce-key",
};
